/* SPDX-License-Identifier: BSD-3-Clause */
/* The scratch layer's MPI-IO side (core/scratch.h): opening with errors returned, I/O error
 * messages in plain words, hint files, and the file system a directory is on. */
#include "core/scratch.h"

#include "core/info.h"
#include "core/listfile.h"
#include "core/window.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/statfs.h>
#endif

/* ---- MPI-IO ------------------------------------------------------------------------------- */

/* The I/O error classes of MPI-3.1 §13.8 (Table 13.3) in the words of strerror, so that a full
 * disk reads as one in the message whatever the library's own text says. */
#define MB_IO_CLASSES(X)                                                                           \
    X(MPI_ERR_NO_SPACE, "no space left on device")                                                 \
    X(MPI_ERR_QUOTA, "disk quota exceeded")                                                        \
    X(MPI_ERR_ACCESS, "permission denied")                                                         \
    X(MPI_ERR_NO_SUCH_FILE, "no such file or directory")                                           \
    X(MPI_ERR_FILE_EXISTS, "file exists")                                                          \
    X(MPI_ERR_READ_ONLY, "read-only file or file system")                                          \
    X(MPI_ERR_IO, "input/output error")                                                            \
    X(MPI_ERR_BAD_FILE, "invalid file name")                                                       \
    X(MPI_ERR_AMODE, "invalid access mode")                                                        \
    X(MPI_ERR_FILE_IN_USE, "file in use by another process")                                       \
    X(MPI_ERR_NOT_SAME, "arguments differ between the processes")                                  \
    X(MPI_ERR_UNSUPPORTED_OPERATION, "operation not supported on this file")                       \
    X(MPI_ERR_UNSUPPORTED_DATAREP, "data representation not supported")                            \
    X(MPI_ERR_FILE, "invalid file handle")

static const struct {
    int cls;
    const char *name, *words;
} io_classes[] = {
#define MB_X(cls, words) {cls, #cls, words},
    MB_IO_CLASSES(MB_X)
#undef MB_X
};

void mb_scratch_mpi_message(int code, char *out, size_t cap)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0, cls = -1;

    if (MPI_Error_string(code, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error code %d", code);
    if (MPI_Error_class(code, &cls) == MPI_SUCCESS)
        for (size_t i = 0; i < sizeof io_classes / sizeof io_classes[0]; i++)
            if (io_classes[i].cls == cls) {
                /* Open MPI's text already starts with the class name, MPICH's does not. */
                if (strstr(text, io_classes[i].name))
                    snprintf(out, cap, "%s (%s)", io_classes[i].words, text);
                else
                    snprintf(out, cap, "%s (%s: %s)", io_classes[i].words, io_classes[i].name,
                             text);
                return;
            }
    snprintf(out, cap, "%s (MPI error class %d)", text, cls);
}

static void describe_amode(int amode, char *out, size_t cap)
{
    static const struct {
        int bit;
        const char *name;
    } modes[] = {
        {MPI_MODE_RDONLY, "RDONLY"},
        {MPI_MODE_WRONLY, "WRONLY"},
        {MPI_MODE_RDWR, "RDWR"},
        {MPI_MODE_CREATE, "CREATE"},
        {MPI_MODE_EXCL, "EXCL"},
        {MPI_MODE_DELETE_ON_CLOSE, "DELETE_ON_CLOSE"},
        {MPI_MODE_UNIQUE_OPEN, "UNIQUE_OPEN"},
        {MPI_MODE_SEQUENTIAL, "SEQUENTIAL"},
        {MPI_MODE_APPEND, "APPEND"},
    };
    size_t off = 0;

    out[0] = '\0';
    for (size_t i = 0; i < sizeof modes / sizeof modes[0] && off < cap; i++)
        if (amode & modes[i].bit) {
            int n = snprintf(out + off, cap - off, "%sMPI_MODE_%s", off ? "|" : "", modes[i].name);
            off += n > 0 ? (size_t)n : 0;
        }
    if (off == 0)
        snprintf(out, cap, "amode %d", amode);
}

int mb_scratch_file_extent(MPI_File fh, MPI_Comm comm, MPI_Offset *largest)
{
    MPI_Offset size = 0;
    const int rc = MPI_File_get_size(fh, &size);

    MB_MPI(MPI_Allreduce(&size, largest, 1, MPI_OFFSET, MPI_MAX, comm));
    return rc;
}

int mb_scratch_open(MPI_Comm comm, const char *path, int amode, MPI_Info info, MPI_File *fh,
                    struct mb_error *err)
{
    char why[MPI_MAX_ERROR_STRING + 128], modes[160];
    int rc, rank = -1, watched = 0;

    *fh = MPI_FILE_NULL;
    /* Rank 0's MPI library may make a shared-file-pointer file beside path during the open:
     * watched from before it can exist (core/scratch.h). */
    if (MPI_Comm_rank(comm, &rank) == MPI_SUCCESS && rank == 0)
        watched = mb_scratch_opened(path);
    rc = MPI_File_open(comm, path, amode, info, fh);
    if (rc == MPI_SUCCESS) {
        rc = MPI_File_set_errhandler(*fh, MPI_ERRORS_RETURN);
        if (rc == MPI_SUCCESS)
            return MPI_SUCCESS;
        MPI_File_close(fh);
        *fh = MPI_FILE_NULL;
    }
    if (watched)
        mb_scratch_forget(path); /* nothing opened, nothing beside it to watch for */
    mb_scratch_mpi_message(rc, why, sizeof why);
    describe_amode(amode, modes, sizeof modes);
    mb_error_set(err, MB_ERR_RUNTIME, "cannot open '%s' (MPI_File_open, %s): %s", path, modes, why);
    return rc;
}

int mb_scratch_require_shared(const char *path, MPI_Comm comm, const char *hint,
                              struct mb_error *err)
{
    /* What a process that does not see the file tells rank 0: its world rank, its host and
     * why. */
    struct {
        int world_rank;
        char host[MPI_MAX_PROCESSOR_NAME];
        char why[160];
    } me = {0, {0}, {0}};
    unsigned long long ino = 0;
    int rank, size, len, fd, ok, first, gone = 0;
    struct stat st;

    memset(&st, 0, sizeof st);
    MB_MPI(MPI_Comm_size(comm, &size));
    if (size < 2)
        return 0;
    MB_MPI(MPI_Comm_rank(comm, &rank));
    fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    ok = fd >= 0 && fstat(fd, &st) == 0;
    if (!ok)
        snprintf(me.why, sizeof me.why, "%s", strerror(errno));
    if (fd >= 0)
        close(fd);
    if (rank == 0 && ok)
        ino = (unsigned long long)st.st_ino;
    MB_MPI(MPI_Bcast(&ino, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
    if (ok && (unsigned long long)st.st_ino != ino) {
        ok = 0;
        snprintf(me.why, sizeof me.why, "another file of that name is there (inode %llu, not %llu)",
                 (unsigned long long)st.st_ino, ino);
    }
    first = ok ? size : rank;
    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm));
    if (first == size)
        return 0;
    /* Rank 0's own file gone (now, or already at its open): removed during the run, not a
     * directory the hosts do not share. */
    if (rank == 0) {
        struct stat now;
        if (!ok) {
            gone = 1;
            mb_error_set(err, MB_ERR_RUNTIME, "scratch file '%s' is gone: %s", path, me.why);
        } else {
            const int missing = lstat(path, &now) != 0 ? errno : 0;
            if (missing || (unsigned long long)now.st_ino != ino) {
                gone = 1;
                mb_error_set(err, MB_ERR_RUNTIME, "scratch file '%s' is gone: %s", path,
                             missing ? strerror(missing) : "another file is there now");
            }
        }
    }
    MB_MPI(MPI_Bcast(&gone, 1, MPI_INT, 0, comm));
    if (gone)
        return MB_EXIT_RUNTIME;
    MB_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me.world_rank));
    MB_MPI(MPI_Get_processor_name(me.host, &len));
    if (rank == 0) {
        char host0[MPI_MAX_PROCESSOR_NAME];
        const int rank0 = me.world_rank;
        memcpy(host0, me.host, sizeof host0);
        MB_MPI(MPI_Bcast(&me, (int)sizeof me, MPI_BYTE, first, comm));
        mb_die("'%s', which rank %d (on %s) created, is not the same file for rank %d (on %s): "
               "%s. The directory is not shared by the hosts: %s",
               path, rank0, host0, me.world_rank, me.host, me.why, hint);
    }
    MB_MPI(MPI_Bcast(&me, (int)sizeof me, MPI_BYTE, first, comm));
    MB_MPI(MPI_Barrier(comm)); /* rank 0 ends the job */
    mb_die("internal error: the job went on after '%s' was found not shared", path);
}

/* "key value", "key=value" or "key = value": the key ends at the first blank or '='. */
struct hints {
    char *text;
    size_t len, cap;
};

static int add_hint(void *user, const char *entry, struct mb_error *err)
{
    struct hints *h = user;
    size_t klen = strcspn(entry, " \t=");
    const char *value = entry + klen;
    size_t vlen, need;
    char why[160];

    value += strspn(value, " \t");
    if (*value == '=')
        value++;
    value += strspn(value, " \t");
    vlen = strlen(value);
    if (klen == 0)
        return mb_usage(err, "missing hint key before '%.100s'", entry);
    if (vlen == 0)
        return mb_usage(err, "hint '%.*s' has no value (expected 'key value' or 'key=value')",
                        (int)(klen < 100 ? klen : 100), entry);
    /* The check of every MPI_Info entry the user gives (core/info.h). */
    if (mb_info_check(entry, klen, value, why, sizeof why) != 0)
        return mb_usage(err, "hint '%.*s%s': %s", (int)(klen < 60 ? klen : 60), entry,
                        klen < 60 ? "" : "...", why);
    need = h->len + klen + vlen + 3;
    if (need > h->cap) {
        h->cap = need * 2;
        h->text = mb_xrealloc(h->text, h->cap);
    }
    h->len +=
        (size_t)snprintf(h->text + h->len, h->cap - h->len, "%.*s=%s\n", (int)klen, entry, value);
    return 0;
}

int mb_scratch_hints_read(const char *path, char **lines, struct mb_error *err)
{
    struct hints h = {NULL, 0, 0};
    int rc = mb_listfile_read(NULL, path, "MPI-IO hints", add_hint, &h, err);

    if (rc != 0) {
        free(h.text);
        *lines = NULL;
        return rc;
    }
    *lines = h.text;
    return 0;
}

int mb_scratch_info_read(const char *path, MPI_Info *info, struct mb_error *err)
{
    char *lines;
    int rc = mb_scratch_hints_read(path, &lines, err);

    *info = MPI_INFO_NULL;
    if (rc != 0)
        return rc;
    /* The same "key=value\n" parser as IMB-EXT's --info (core/window.h). */
    *info = mb_win_info(lines);
    free(lines);
    return 0;
}

/* ---- the file system ---------------------------------------------------------------------- */

/* statfs f_type magic numbers: Linux <linux/magic.h>, and for the file systems outside the
 * kernel tree the values ROMIO tests in adio/common/ad_fstype.c (Lustre, GPFS, PanFS, PVFS2),
 * OpenZFS include/sys/fs/zfs.h and BeeGFS's FhgfsOpsSuper.h. */
static const struct {
    unsigned long magic;
    const char *name;
} fs_types[] = {
    {0xEF53UL, "ext2/ext3/ext4"}, {0x58465342UL, "xfs"},       {0x9123683EUL, "btrfs"},
    {0x01021994UL, "tmpfs"},      {0x6969UL, "nfs"},           {0x0BD00BD0UL, "lustre"},
    {0x47504653UL, "gpfs"},       {0x794C7630UL, "overlayfs"}, {0x2FC12FC1UL, "zfs"},
    {0x19830326UL, "beegfs"},     {0x00C36400UL, "cephfs"},    {0xAAD7AAEAUL, "panfs"},
    {0x20030528UL, "pvfs2"},      {0x858458F6UL, "ramfs"},     {0x65735546UL, "fuse"},
    {0xFF534D42UL, "cifs"},       {0xFE534D42UL, "smb2"},      {0x73717368UL, "squashfs"},
};

int mb_scratch_fs_info(const char *dir, struct mb_fs_info *fs, struct mb_error *err)
{
    struct statvfs v;

    memset(fs, 0, sizeof *fs);
    snprintf(fs->type, sizeof fs->type, "unknown");
    if (statvfs(dir, &v) != 0)
        return mb_error_set(err, MB_ERR_RUNTIME, "cannot examine the file system of '%s': %s", dir,
                            strerror(errno));
    fs->free_bytes = (unsigned long long)v.f_bavail * v.f_frsize;
    fs->total_bytes = (unsigned long long)v.f_blocks * v.f_frsize;
#ifdef __linux__
    {
        struct statfs s;
        if (statfs(dir, &s) != 0)
            return mb_error_set(err, MB_ERR_RUNTIME, "cannot examine the file system of '%s': %s",
                                dir, strerror(errno));
        /* f_type is a signed word: keep the 32 bits the magic numbers are defined in. */
        fs->magic = (unsigned long)s.f_type & 0xFFFFFFFFUL;
        snprintf(fs->type, sizeof fs->type, "0x%lx", fs->magic);
        for (size_t i = 0; i < sizeof fs_types / sizeof fs_types[0]; i++)
            if (fs_types[i].magic == fs->magic)
                snprintf(fs->type, sizeof fs->type, "%s", fs_types[i].name);
    }
#endif
    return 0;
}

int mb_scratch_space_check(const char *dir, const char *option, unsigned long long need,
                           double share, const char *what, const char *advice,
                           unsigned long long *free_bytes, struct mb_error *err)
{
    struct mb_fs_info fs;
    struct mb_error e2 = {MB_ERR_NONE, ""};

    if (mb_scratch_fs_info(dir, &fs, &e2) != 0)
        return mb_usage(err, "invalid value '%s' for %s: %s", dir, option, e2.msg);
    if (free_bytes)
        *free_bytes = fs.free_bytes;
    if ((double)need > share * (double)fs.free_bytes)
        return mb_usage(err,
                        "the scratch files need at least %.1f MB in '%s' (%s), but it has %.1f "
                        "MB free; %s",
                        (double)need / 1e6, dir, what, (double)fs.free_bytes / 1e6, advice);
    return 0;
}
