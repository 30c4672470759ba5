#include "core/scratch.h"

#include "core/listfile.h"
#include "core/window.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/statfs.h>
#endif

/* Records the first failure, like mb_usage, with the kind the caller passes. */
static int fail(struct mb_error *err, enum mb_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct mb_error *err, enum mb_error_kind kind, const char *fmt, ...)
{
    if (err->kind == MB_ERR_NONE) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->kind = kind;
    }
    return mb_error_status(kind);
}

/* ---- names ------------------------------------------------------------------------------ */

int mb_scratch_pathf(char *out, size_t cap, struct mb_error *err, const char *dir, const char *fmt,
                     ...)
{
    size_t limit = cap < MB_SCRATCH_PATH_MAX ? cap : MB_SCRATCH_PATH_MAX;
    size_t off = 0, dlen = dir ? strlen(dir) : 0;
    char name[MB_SCRATCH_PATH_MAX];
    va_list ap;
    int n;

    if (cap > 0)
        out[0] = '\0';
    va_start(ap, fmt);
    n = vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    if (n < 0)
        return fail(err, MB_ERR_RUNTIME, "cannot format a scratch file name");
    if (n == 0)
        return fail(err, MB_ERR_USAGE, "empty scratch file name");
    off = dlen + (dlen > 0 && dir[dlen - 1] != '/');
    if (off + (size_t)n + 1 > limit)
        return fail(err, MB_ERR_USAGE,
                    "scratch file path '%.*s%s%.60s...' is %zu characters long; at most %zu "
                    "fit",
                    (int)(dlen < 60 ? dlen : 60), dlen ? dir : "", off > dlen ? "/" : "", name,
                    off + (size_t)n, limit > 0 ? limit - 1 : 0);
    memcpy(out, dir ? dir : "", dlen);
    if (off > dlen)
        out[dlen] = '/';
    memcpy(out + off, name, (size_t)n + 1);
    return 0;
}

int mb_scratch_join(char *out, size_t cap, const char *dir, const char *name, struct mb_error *err)
{
    return mb_scratch_pathf(out, cap, err, dir, "%s", name);
}

int mb_scratch_path(char *out, size_t cap, const char *dir, const char *base, int group, int rank,
                    struct mb_error *err)
{
    char g[16] = "", r[16] = "";

    if (group >= 0)
        snprintf(g, sizeof g, "_g%d", group);
    if (rank >= 0)
        snprintf(r, sizeof r, "_%d", rank);
    return mb_scratch_pathf(out, cap, err, dir, "%s%s%s", base, g, r);
}

/* ---- the registry -------------------------------------------------------------------------
 * Process-wide mutable state by necessity, as in watchdog.c: the SIGINT/SIGTERM handlers and
 * the watchdog's SIGALRM handler can reach nothing else. A slot's state is a lock-free atomic
 * (C11 7.14.1.1p5: the only objects besides volatile sig_atomic_t a handler may touch): the
 * owning thread fills path and identity while the slot is WRITING and publishes it as LIVE;
 * the cleanup only reads LIVE slots. The owning thread also blocks the three signals while it
 * changes a slot, so a handler that interrupts it never sees a file that exists but is not yet
 * LIVE. (A signal delivered to another thread of the MPI library - its progress threads - may
 * run the cleanup concurrently: at worst both unlink the same path, and the identity check
 * makes the second a no-op.) Paths sit in their own array so that the handler's scan touches
 * only the small slots, not 512 kB of path buffers. */
enum { SLOT_FREE, SLOT_WRITING, SLOT_LIVE };

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the cleanup registry needs lock-free atomic int");

static struct {
    atomic_int state;
    dev_t dev;
    ino_t ino;
} slots[MB_SCRATCH_MAX];
static char slot_path[MB_SCRATCH_MAX][MB_SCRATCH_PATH_MAX];
static atomic_int keep_files;

static void block_signals(sigset_t *old)
{
    sigset_t set;

    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

static void unblock_signals(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

static int find_slot(const char *path)
{
    for (int i = 0; i < MB_SCRATCH_MAX; i++)
        if (atomic_load(&slots[i].state) == SLOT_LIVE && strcmp(slot_path[i], path) == 0)
            return i;
    return -1;
}

static int free_slot(void)
{
    for (int i = 0; i < MB_SCRATCH_MAX; i++)
        if (atomic_load(&slots[i].state) == SLOT_FREE)
            return i;
    return -1;
}

/* Called with the signals blocked; slot is FREE (taken) or LIVE (re-identified). */
static void publish(int i, const char *path, const struct stat *st)
{
    atomic_store(&slots[i].state, SLOT_WRITING);
    memcpy(slot_path[i], path, strlen(path) + 1);
    slots[i].dev = st->st_dev;
    slots[i].ino = st->st_ino;
    atomic_store(&slots[i].state, SLOT_LIVE);
}

/* The identity check and unlink shared by every removal path; async-signal-safe. */
static enum mb_scratch_outcome unlink_slot(int i)
{
    struct stat st;

    if (atomic_load(&keep_files))
        return MB_SCRATCH_KEPT;
    if (lstat(slot_path[i], &st) != 0)
        return errno == ENOENT ? MB_SCRATCH_GONE : MB_SCRATCH_FAILED;
    if (st.st_dev != slots[i].dev || st.st_ino != slots[i].ino || !S_ISREG(st.st_mode))
        return MB_SCRATCH_REPLACED;
    if (unlink(slot_path[i]) != 0)
        return errno == ENOENT ? MB_SCRATCH_GONE : MB_SCRATCH_FAILED;
    return MB_SCRATCH_REMOVED;
}

static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISLNK(mode))
        return "a symbolic link";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return S_ISREG(mode) ? "a regular file" : "not a regular file";
}

/* Takes over an existing regular file (force): it must still be the file lstat saw when it is
 * open, so that a swap to a FIFO or symbolic link in between is caught too (O_NOFOLLOW,
 * O_NONBLOCK: never follow a link, never block on a FIFO). */
static int reuse(const char *path, struct stat *st, struct mb_error *err)
{
    struct stat now;
    int fd;

    if (lstat(path, st) != 0)
        return fail(err, MB_ERR_RUNTIME, "cannot examine '%s': %s", path, strerror(errno));
    if (!S_ISREG(st->st_mode))
        return fail(err, MB_ERR_USAGE,
                    "scratch file '%s' exists and is %s; mpibench only ever reuses a regular "
                    "file (--force), choose another name or directory",
                    path, kind_of(st->st_mode));
    if (st->st_nlink > 1)
        return fail(err, MB_ERR_USAGE,
                    "scratch file '%s' exists and has %lu hard links; overwriting it would "
                    "change the other names too: remove it or choose another name or directory",
                    path, (unsigned long)st->st_nlink);
    fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return fail(err, MB_ERR_RUNTIME, "cannot reuse scratch file '%s': %s", path,
                    strerror(errno));
    if (fstat(fd, &now) != 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino ||
        !S_ISREG(now.st_mode)) {
        close(fd);
        return fail(err, MB_ERR_RUNTIME, "scratch file '%s' changed while it was being opened",
                    path);
    }
    if (ftruncate(fd, 0) != 0) {
        int e = errno;
        close(fd);
        return fail(err, MB_ERR_RUNTIME, "cannot truncate scratch file '%s': %s", path,
                    strerror(e));
    }
    close(fd);
    return 0;
}

static int check_path(const char *path, struct mb_error *err)
{
    size_t len = strlen(path);

    if (len == 0)
        return fail(err, MB_ERR_USAGE, "empty scratch file name");
    if (len >= MB_SCRATCH_PATH_MAX)
        return fail(err, MB_ERR_USAGE,
                    "scratch file path '%.60s...' is %zu characters long; at most %d fit", path,
                    len, MB_SCRATCH_PATH_MAX - 1);
    return 0;
}

static int registry_full(struct mb_error *err)
{
    return fail(err, MB_ERR_RUNTIME,
                "more than %d scratch files in one process: the cleanup registry is full "
                "(MB_SCRATCH_MAX in src/core/scratch.h)",
                MB_SCRATCH_MAX);
}

int mb_scratch_create(const char *path, int force, struct mb_error *err)
{
    struct stat st;
    sigset_t old;
    int slot, fd, rc = 0;

    if ((rc = check_path(path, err)) != 0)
        return rc;
    block_signals(&old);
    slot = find_slot(path);
    if (slot < 0 && (slot = free_slot()) < 0) {
        unblock_signals(&old);
        return registry_full(err);
    }
    fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
        if (fstat(fd, &st) != 0) {
            rc = fail(err, MB_ERR_RUNTIME, "cannot examine new scratch file '%s': %s", path,
                      strerror(errno));
            unlink(path);
        }
        close(fd);
    } else if (errno != EEXIST) {
        rc =
            fail(err, MB_ERR_RUNTIME, "cannot create scratch file '%s': %s", path, strerror(errno));
    } else if (force) {
        rc = reuse(path, &st, err);
    } else {
        const char *what = lstat(path, &st) == 0 ? kind_of(st.st_mode) : "something";
        rc = fail(err, MB_ERR_USAGE,
                  "scratch file '%s' already exists (%s); mpibench never overwrites a file it "
                  "did not create: remove it, choose another name or directory, or give "
                  "--force",
                  path, what);
    }
    if (rc == 0)
        publish(slot, path, &st);
    unblock_signals(&old);
    return rc;
}

int mb_scratch_register(const char *path, struct mb_error *err)
{
    struct stat st;
    sigset_t old;
    int slot, rc;

    if ((rc = check_path(path, err)) != 0)
        return rc;
    if (lstat(path, &st) != 0)
        return fail(err, MB_ERR_RUNTIME, "cannot register scratch file '%s': %s", path,
                    strerror(errno));
    if (!S_ISREG(st.st_mode))
        return fail(err, MB_ERR_RUNTIME, "cannot register scratch file '%s': it is %s", path,
                    kind_of(st.st_mode));
    block_signals(&old);
    slot = find_slot(path);
    if (slot < 0 && (slot = free_slot()) < 0) {
        unblock_signals(&old);
        return registry_full(err);
    }
    publish(slot, path, &st);
    unblock_signals(&old);
    return 0;
}

void mb_scratch_forget(const char *path)
{
    int slot = find_slot(path);

    if (slot >= 0)
        atomic_store(&slots[slot].state, SLOT_FREE);
}

int mb_scratch_count(void)
{
    int n = 0;

    for (int i = 0; i < MB_SCRATCH_MAX; i++)
        n += atomic_load(&slots[i].state) == SLOT_LIVE;
    return n;
}

enum mb_scratch_outcome mb_scratch_remove(const char *path)
{
    enum mb_scratch_outcome out;
    sigset_t old;
    int slot, saved;

    block_signals(&old);
    slot = find_slot(path);
    if (slot < 0) {
        unblock_signals(&old);
        return MB_SCRATCH_UNKNOWN;
    }
    out = unlink_slot(slot);
    saved = errno;
    atomic_store(&slots[slot].state, SLOT_FREE);
    unblock_signals(&old);
    errno = saved;
    return out;
}

struct mb_scratch_tally mb_scratch_remove_all(void)
{
    struct mb_scratch_tally t = {0, 0, 0, 0, 0};

    for (int i = 0; i < MB_SCRATCH_MAX; i++) {
        if (atomic_load(&slots[i].state) != SLOT_LIVE)
            continue;
        switch (mb_scratch_remove(slot_path[i])) {
        case MB_SCRATCH_REMOVED:
            t.removed++;
            break;
        case MB_SCRATCH_KEPT:
            t.kept++;
            break;
        case MB_SCRATCH_GONE:
            t.gone++;
            break;
        case MB_SCRATCH_REPLACED:
            t.replaced++;
            break;
        case MB_SCRATCH_FAILED:
        case MB_SCRATCH_UNKNOWN:
            t.failed++;
            break;
        }
    }
    return t;
}

void mb_scratch_keep(int keep)
{
    atomic_store(&keep_files, keep != 0);
}

int mb_scratch_keeping(void)
{
    return atomic_load(&keep_files);
}

void mb_scratch_cleanup(void)
{
    int saved = errno;

    for (int i = 0; i < MB_SCRATCH_MAX; i++) {
        if (atomic_load(&slots[i].state) != SLOT_LIVE)
            continue;
        (void)unlink_slot(i);
        atomic_store(&slots[i].state, SLOT_FREE);
    }
    errno = saved;
}

/* ---- signals ------------------------------------------------------------------------------ */

static const int caught[2] = {SIGINT, SIGTERM};

/* Clean up, then end as the signal would have ended us: the signal is blocked while its
 * handler runs, so the re-raised one is delivered, with the default action, on return. */
static void on_signal(int sig)
{
    struct sigaction dfl;

    mb_scratch_cleanup();
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

void mb_scratch_signals_install(struct mb_scratch_signals *saved)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* One cleanup at a time: the other signals wait until it is done. */
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaddset(&sa.sa_mask, SIGALRM);
    for (int i = 0; i < 2; i++) {
        saved->installed[i] = 0;
        if (sigaction(caught[i], NULL, &saved->previous[i]) != 0)
            mb_die("cannot query the handler of signal %d", caught[i]);
        if (saved->previous[i].sa_handler == SIG_IGN)
            continue;
        if (sigaction(caught[i], &sa, NULL) != 0)
            mb_die("cannot install the scratch-file cleanup for signal %d", caught[i]);
        saved->installed[i] = 1;
    }
}

void mb_scratch_signals_restore(const struct mb_scratch_signals *saved)
{
    for (int i = 0; i < 2; i++)
        if (saved->installed[i])
            sigaction(caught[i], &saved->previous[i], NULL);
}

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

int mb_scratch_open(MPI_Comm comm, const char *path, int amode, MPI_Info info, MPI_File *fh,
                    struct mb_error *err)
{
    char why[MPI_MAX_ERROR_STRING + 128], modes[160];
    int rc;

    *fh = MPI_FILE_NULL;
    rc = MPI_File_open(comm, path, amode, info, fh);
    if (rc == MPI_SUCCESS) {
        rc = MPI_File_set_errhandler(*fh, MPI_ERRORS_RETURN);
        if (rc == MPI_SUCCESS)
            return MPI_SUCCESS;
        MPI_File_close(fh);
        *fh = MPI_FILE_NULL;
    }
    mb_scratch_mpi_message(rc, why, sizeof why);
    describe_amode(amode, modes, sizeof modes);
    fail(err, MB_ERR_RUNTIME, "cannot open '%s' (MPI_File_open, %s): %s", path, modes, why);
    return rc;
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
    if (klen >= MPI_MAX_INFO_KEY)
        return mb_usage(err,
                        "hint key '%.*s...' is %zu characters long; this MPI library "
                        "accepts at most %d",
                        40, entry, klen, MPI_MAX_INFO_KEY - 1);
    if (vlen >= MPI_MAX_INFO_VAL)
        return mb_usage(err,
                        "value of hint '%.*s' is %zu characters long; this MPI library "
                        "accepts at most %d",
                        (int)(klen < 100 ? klen : 100), entry, vlen, MPI_MAX_INFO_VAL - 1);
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
    int rc = mb_listfile_read(path, "MPI-IO hints", add_hint, &h, err);

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
        return fail(err, MB_ERR_RUNTIME, "cannot examine the file system of '%s': %s", dir,
                    strerror(errno));
    fs->free_bytes = (unsigned long long)v.f_bavail * v.f_frsize;
    fs->total_bytes = (unsigned long long)v.f_blocks * v.f_frsize;
#ifdef __linux__
    {
        struct statfs s;
        if (statfs(dir, &s) != 0)
            return fail(err, MB_ERR_RUNTIME, "cannot examine the file system of '%s': %s", dir,
                        strerror(errno));
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
