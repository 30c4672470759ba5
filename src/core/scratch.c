/* The scratch layer's file side (core/scratch.h): names, exclusive creation, the cleanup
 * registry and the signal handlers that run it. The MPI-IO side is scratch_io.c. */
#include "core/scratch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
        return mb_error_set(err, MB_ERR_RUNTIME, "cannot format a scratch file name");
    if (n == 0)
        return mb_error_set(err, MB_ERR_USAGE, "empty scratch file name");
    off = dlen + (dlen > 0 && dir[dlen - 1] != '/');
    if (off + (size_t)n + 1 > limit)
        return mb_error_set(
            err, MB_ERR_USAGE,
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

int mb_scratch_dir_check(const char *dir, const char *option, struct mb_error *err)
{
    struct stat st;

    if (stat(dir, &st) != 0)
        return mb_error_set(err, MB_ERR_USAGE, "invalid value '%s' for %s: %s", dir, option,
                            strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return mb_error_set(err, MB_ERR_USAGE, "invalid value '%s' for %s: not a directory", dir,
                            option);
    if (access(dir, W_OK | X_OK) != 0)
        return mb_error_set(err, MB_ERR_USAGE,
                            "invalid value '%s' for %s: cannot create files there (%s)", dir,
                            option, strerror(errno));
    return 0;
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
        return mb_error_set(err, MB_ERR_RUNTIME, "cannot examine '%s': %s", path, strerror(errno));
    if (!S_ISREG(st->st_mode))
        return mb_error_set(
            err, MB_ERR_USAGE,
            "scratch file '%s' exists and is %s; mpibench only ever reuses a regular "
            "file (--force), choose another name or directory",
            path, kind_of(st->st_mode));
    if (st->st_nlink > 1)
        return mb_error_set(
            err, MB_ERR_USAGE,
            "scratch file '%s' exists and has %lu hard links; overwriting it would "
            "change the other names too: remove it or choose another name or directory",
            path, (unsigned long)st->st_nlink);
    fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return mb_error_set(err, MB_ERR_RUNTIME, "cannot reuse scratch file '%s': %s", path,
                            strerror(errno));
    if (fstat(fd, &now) != 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino ||
        !S_ISREG(now.st_mode)) {
        close(fd);
        return mb_error_set(err, MB_ERR_RUNTIME,
                            "scratch file '%s' changed while it was being opened", path);
    }
    if (ftruncate(fd, 0) != 0) {
        int e = errno;
        close(fd);
        return mb_error_set(err, MB_ERR_RUNTIME, "cannot truncate scratch file '%s': %s", path,
                            strerror(e));
    }
    close(fd);
    return 0;
}

static int check_path(const char *path, struct mb_error *err)
{
    size_t len = strlen(path);

    if (len == 0)
        return mb_error_set(err, MB_ERR_USAGE, "empty scratch file name");
    if (len >= MB_SCRATCH_PATH_MAX)
        return mb_error_set(err, MB_ERR_USAGE,
                            "scratch file path '%.60s...' is %zu characters long; at most %d fit",
                            path, len, MB_SCRATCH_PATH_MAX - 1);
    return 0;
}

static int registry_full(struct mb_error *err)
{
    return mb_error_set(err, MB_ERR_RUNTIME,
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
            rc = mb_error_set(err, MB_ERR_RUNTIME, "cannot examine new scratch file '%s': %s", path,
                              strerror(errno));
            unlink(path);
        }
        close(fd);
    } else if (errno != EEXIST) {
        rc = mb_error_set(err, MB_ERR_RUNTIME, "cannot create scratch file '%s': %s", path,
                          strerror(errno));
    } else if (force) {
        rc = reuse(path, &st, err);
    } else {
        const char *what = lstat(path, &st) == 0 ? kind_of(st.st_mode) : "something";
        rc = mb_error_set(
            err, MB_ERR_USAGE,
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
        return mb_error_set(err, MB_ERR_RUNTIME, "cannot register scratch file '%s': %s", path,
                            strerror(errno));
    if (!S_ISREG(st.st_mode))
        return mb_error_set(err, MB_ERR_RUNTIME, "cannot register scratch file '%s': it is %s",
                            path, kind_of(st.st_mode));
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

int mb_scratch_is_ours(const char *path)
{
    struct stat st;
    const int slot = find_slot(path);

    return slot >= 0 && lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           st.st_dev == slots[slot].dev && st.st_ino == slots[slot].ino;
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
