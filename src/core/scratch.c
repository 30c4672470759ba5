/* SPDX-License-Identifier: BSD-3-Clause */
/* The scratch layer's file side (core/scratch.h): exclusive creation, the cleanup registry,
 * the janitor process and the signal handlers that run the cleanup. The checks of paths and
 * existing entries are in scratch_checks.c, the MPI library's companion files in
 * scratch_companions.c, names in scratch_names.c, the MPI-IO side in scratch_io.c. */
#define _GNU_SOURCE /* MAP_ANONYMOUS, memfd_create, F_ADD_SEALS, POSIX_SPAWN_SETSID, _Fork */
#include "core/scratch.h"

#include "core/interrupt.h"
#include "core/scratch_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#endif

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
 * only the small slots, not 512 kB of path buffers.
 *
 * The registry lives in a shared mapping so that the janitor (below) sees every change live:
 * on Linux a memfd, which the janitor - a new program, not a fork - maps from the descriptor
 * it is given; elsewhere an anonymous shared mapping, which a forked janitor inherits. It
 * belongs to the process that made it: a process forked later (a test's child) that finds its
 * parent's registry makes its own instead, and the signal cleanup of such a child never
 * touches its parent's files. */
enum { SLOT_FREE, SLOT_WRITING, SLOT_LIVE };

/* What a slot stands for: a file this run created (removed), a directory this run created
 * (removed when empty, after the files), or a file another process of the job created that this
 * process opened as rank 0 of the file's communicator (only its companions are removed). */
enum slot_kind { KIND_FILE, KIND_DIR, KIND_WATCH };

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the cleanup registry needs lock-free atomic int");
_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "the cleanup registry needs lock-free pointers");

struct registry {
    pid_t owner;   /* the process whose files these are */
    pid_t janitor; /* its janitor, 0 while there is none */
    int fd;        /* the owner's descriptor of the memfd holding this mapping, -1: none */
    atomic_int keep;
    struct {
        atomic_int state;
        int temporary; /* removed even in keep mode (MB_SCRATCH_TEMPORARY) */
        int kind;      /* enum slot_kind */
        pid_t opener;  /* > 0: the MPI library of this pid may have companions of the file */
        dev_t dev;
        ino_t ino;
    } slot[MB_SCRATCH_MAX];
    char path[MB_SCRATCH_MAX][MB_SCRATCH_PATH_MAX];
    /* mb_scratch_salvage: 1 + the slot a SIGINT/SIGTERM renames to salvage_to (0: none), and
     * the note the handler then writes to stderr. */
    atomic_int salvage_slot;
    char salvage_to[MB_SCRATCH_PATH_MAX];
    char salvage_note[MB_SCRATCH_PATH_MAX + 256];
    size_t salvage_note_len;
};

/* Where the mapping cannot be made the registry is this process-private one, without janitor. */
static struct registry private_registry;
static _Atomic(struct registry *) current;

/* Set by mb_scratch_janitor_main: this program's main knows the janitor mode, so the janitor
 * can be this program run anew (a program without that call gets a forked janitor). */
static atomic_int janitor_mode_known;

#if defined(__linux__) && defined(MFD_CLOEXEC) && defined(F_ADD_SEALS)
#define MB_REGISTRY_MEMFD 1
/* The seals the janitor mode insists on: the size is fixed, so its mapping never outlives the
 * file's end (no SIGBUS), and nobody can change the seals. */
#define MB_REGISTRY_SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)
#endif

/* A zeroed shared mapping of the registry's size: a sealed memfd (*fd its descriptor, close
 * on exec) where there is one, else anonymous (*fd -1), else NULL. */
static void *registry_map(int *fd)
{
    void *m;

    *fd = -1;
#ifdef MB_REGISTRY_MEMFD
    int mfd = memfd_create("mpibench-scratch", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (mfd >= 0) {
        if (ftruncate(mfd, (off_t)sizeof(struct registry)) == 0 &&
            fcntl(mfd, F_ADD_SEALS, MB_REGISTRY_SEALS) == 0) {
            m = mmap(NULL, sizeof(struct registry), PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
            if (m != MAP_FAILED) {
                *fd = mfd;
                return m;
            }
        }
        close(mfd);
    }
#endif
    m = mmap(NULL, sizeof(struct registry), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
             0);
    return m == MAP_FAILED ? NULL : m;
}

/* This process's registry, made on first use (never from a signal handler: they only read). */
static struct registry *registry(void)
{
    struct registry *r = atomic_load(&current);
    int fd;

    if (r && r->owner == getpid())
        return r;
    r = registry_map(&fd);
    if (!r) {
        r = &private_registry;
        memset(r, 0, sizeof *r);
    }
    r->fd = fd; /* a new mapping starts zeroed: every slot FREE */
    r->owner = getpid();
    atomic_store(&current, r);
    mb_last_rites_set(mb_scratch_cleanup); /* mb_die and the watchdog run it */
    return r;
}

/* The registry a signal handler may clean: this process's, or none yet. */
static struct registry *registry_if_ours(void)
{
    struct registry *r = atomic_load(&current);

    return r && r->owner == getpid() ? r : NULL;
}

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

static int find_slot(const struct registry *r, const char *path)
{
    for (int i = 0; i < MB_SCRATCH_MAX; i++)
        if (atomic_load(&r->slot[i].state) == SLOT_LIVE && strcmp(r->path[i], path) == 0)
            return i;
    return -1;
}

static int free_slot(const struct registry *r)
{
    for (int i = 0; i < MB_SCRATCH_MAX; i++)
        if (atomic_load(&r->slot[i].state) == SLOT_FREE)
            return i;
    return -1;
}

/* Called with the signals blocked; slot is FREE (taken) or LIVE (re-identified). */
static void publish(struct registry *r, int i, const char *path, const struct stat *st,
                    int temporary, int kind)
{
    const int was_live = atomic_load(&r->slot[i].state) == SLOT_LIVE;
    const pid_t opener = was_live ? r->slot[i].opener : 0;

    atomic_store(&r->slot[i].state, SLOT_WRITING);
    memcpy(r->path[i], path, strlen(path) + 1);
    r->slot[i].dev = st ? st->st_dev : 0;
    r->slot[i].ino = st ? st->st_ino : 0;
    r->slot[i].temporary = temporary;
    r->slot[i].kind = kind;
    r->slot[i].opener = opener; /* a re-identified file keeps its companions */
    atomic_store(&r->slot[i].state, SLOT_LIVE);
}

/* The identity check and unlink shared by every removal path; async-signal-safe. A
 * directory is removed only when empty (ENOTEMPTY is MB_SCRATCH_FAILED: files of other
 * processes of the job are still in it). */
static enum mb_scratch_outcome unlink_slot(struct registry *r, int i)
{
    struct stat st;

    if (r->slot[i].opener > 0)
        mb_scratch_remove_companions(r->path[i], r->slot[i].opener); /* never kept: the library's */
    if (r->slot[i].kind == KIND_WATCH)
        return MB_SCRATCH_GONE; /* the file itself is another process's to remove */
    if (atomic_load(&r->keep) && !r->slot[i].temporary)
        return MB_SCRATCH_KEPT;
    if (lstat(r->path[i], &st) != 0)
        return errno == ENOENT ? MB_SCRATCH_GONE : MB_SCRATCH_FAILED;
    if (st.st_dev != r->slot[i].dev || st.st_ino != r->slot[i].ino ||
        !(r->slot[i].kind == KIND_DIR ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode)))
        return MB_SCRATCH_REPLACED;
    if ((r->slot[i].kind == KIND_DIR ? rmdir(r->path[i]) : unlink(r->path[i])) != 0)
        return errno == ENOENT ? MB_SCRATCH_GONE : MB_SCRATCH_FAILED;
    return MB_SCRATCH_REMOVED;
}

/* Every LIVE slot unlinked (as keep mode allows) and freed, the files before the directories
 * that may hold them; async-signal-safe. A directory that is not empty yet stays registered
 * when patient is 0 (a signal handler: the janitor tries again once this process has ended);
 * the janitor (patient) waits up to a few seconds for the other processes of the job to remove
 * their files from it. */
static void cleanup(struct registry *r, int patient)
{
    const int saved = errno;

    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < MB_SCRATCH_MAX; i++) {
            if (atomic_load(&r->slot[i].state) != SLOT_LIVE ||
                (r->slot[i].kind == KIND_DIR) != (pass == 1))
                continue;
            int waiting = unlink_slot(r, i) == MB_SCRATCH_FAILED && errno == ENOTEMPTY;
            for (int tries = 0; waiting && patient && tries < 50; tries++) {
                /* Named, not a compound literal: nanosleep may be a macro (SimGrid SMPI). */
                const struct timespec pause = {0, 100 * 1000 * 1000};
                nanosleep(&pause, NULL);
                waiting = unlink_slot(r, i) == MB_SCRATCH_FAILED && errno == ENOTEMPTY;
            }
            if (waiting && !patient)
                continue;
            atomic_store(&r->slot[i].state, SLOT_FREE);
        }
    errno = saved;
}

int mb_scratch_create(const char *path, unsigned flags, struct mb_error *err)
{
    struct registry *r;
    struct stat st;
    sigset_t old;
    int slot, fd, rc = 0;

    if ((rc = mb_scratch_check_path(path, err)) != 0)
        return rc;
    r = registry();
    block_signals(&old);
    slot = find_slot(r, path);
    if (slot < 0 && (slot = free_slot(r)) < 0) {
        unblock_signals(&old);
        return mb_scratch_registry_full(err);
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
    } else if (flags & MB_SCRATCH_FORCE) {
        rc = mb_scratch_reuse(path, &st, err);
    } else {
        const char *what = lstat(path, &st) == 0 ? mb_scratch_kind_of(st.st_mode) : "something";
        rc = mb_error_set(
            err, MB_ERR_USAGE,
            "scratch file '%s' already exists (%s); mpibench never overwrites a file it "
            "did not create: remove it, choose another name or directory, or give "
            "--force",
            path, what);
    }
    if (rc == 0)
        publish(r, slot, path, &st, (flags & MB_SCRATCH_TEMPORARY) != 0, KIND_FILE);
    unblock_signals(&old);
    return rc;
}

int mb_scratch_register(const char *path, struct mb_error *err)
{
    struct registry *r;
    struct stat st;
    sigset_t old;
    int slot, rc;

    if ((rc = mb_scratch_check_path(path, err)) != 0)
        return rc;
    if (lstat(path, &st) != 0)
        return mb_error_set(err, MB_ERR_RUNTIME, "cannot register scratch file '%s': %s", path,
                            strerror(errno));
    if (!S_ISREG(st.st_mode))
        return mb_error_set(err, MB_ERR_RUNTIME, "cannot register scratch file '%s': it is %s",
                            path, mb_scratch_kind_of(st.st_mode));
    r = registry();
    block_signals(&old);
    slot = find_slot(r, path);
    if (slot < 0 && (slot = free_slot(r)) < 0) {
        unblock_signals(&old);
        return mb_scratch_registry_full(err);
    }
    publish(r, slot, path, &st, 0, KIND_FILE);
    unblock_signals(&old);
    return 0;
}

int mb_scratch_mkdir(const char *path, struct mb_error *err)
{
    struct registry *r;
    struct stat st;
    sigset_t old;
    int slot, rc;

    if ((rc = mb_scratch_check_path(path, err)) != 0)
        return rc;
    r = registry();
    block_signals(&old);
    if ((slot = free_slot(r)) < 0) {
        unblock_signals(&old);
        return mb_scratch_registry_full(err);
    }
    if (mkdir(path, 0777) != 0) {
        const int e = errno;
        unblock_signals(&old);
        return mb_error_set(err, e == EEXIST ? MB_ERR_USAGE : MB_ERR_RUNTIME,
                            "cannot create the scratch directory '%s': %s", path, strerror(e));
    }
    if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        const int e = errno;
        rmdir(path);
        unblock_signals(&old);
        return mb_error_set(err, MB_ERR_RUNTIME, "cannot examine the new directory '%s': %s", path,
                            strerror(e));
    }
    publish(r, slot, path, &st, 0, KIND_DIR);
    unblock_signals(&old);
    return 0;
}

int mb_scratch_opened(const char *path)
{
    struct registry *r = registry();
    sigset_t old;
    int slot = find_slot(r, path), added = 0;

    /* Open_Close times the opens: after the first, this is a lookup and nothing else. */
    if (slot >= 0 && r->slot[slot].opener == getpid())
        return 0;
    if (mb_scratch_check_path(path, &(struct mb_error){MB_ERR_NONE, ""}) != 0)
        return 0;
    block_signals(&old);
    if (slot < 0 && (slot = free_slot(r)) >= 0) {
        publish(r, slot, path, NULL, 0, KIND_WATCH);
        added = 1;
    }
    if (slot >= 0)
        r->slot[slot].opener = getpid();
    unblock_signals(&old);
    return added;
}

int mb_scratch_is_ours(const char *path)
{
    const struct registry *r = registry();
    const int slot = find_slot(r, path);
    struct stat st;

    return slot >= 0 && lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           st.st_dev == r->slot[slot].dev && st.st_ino == r->slot[slot].ino;
}

void mb_scratch_forget(const char *path)
{
    struct registry *r = registry();
    const int slot = find_slot(r, path);

    if (slot >= 0)
        atomic_store(&r->slot[slot].state, SLOT_FREE);
}

int mb_scratch_count(void)
{
    const struct registry *r = registry();
    int n = 0;

    for (int i = 0; i < MB_SCRATCH_MAX; i++)
        n += atomic_load(&r->slot[i].state) == SLOT_LIVE;
    return n;
}

enum mb_scratch_outcome mb_scratch_remove(const char *path)
{
    struct registry *r = registry();
    enum mb_scratch_outcome out;
    sigset_t old;
    int slot, saved;

    block_signals(&old);
    slot = find_slot(r, path);
    if (slot < 0) {
        unblock_signals(&old);
        return MB_SCRATCH_UNKNOWN;
    }
    out = unlink_slot(r, slot);
    saved = errno;
    atomic_store(&r->slot[slot].state, SLOT_FREE);
    unblock_signals(&old);
    errno = saved;
    return out;
}

struct mb_scratch_tally mb_scratch_remove_all(void)
{
    const struct registry *r = registry();
    struct mb_scratch_tally t = {0, 0, 0, 0, 0, 0};

    for (int i = 0; i < MB_SCRATCH_MAX; i++) {
        if (atomic_load(&r->slot[i].state) != SLOT_LIVE)
            continue;
        if (r->slot[i].kind == KIND_DIR)
            continue; /* its maker removes it with mb_scratch_remove when its job is done */
        if (r->slot[i].kind == KIND_WATCH) {
            (void)mb_scratch_remove(r->path[i]); /* companions only; not a file of ours */
            continue;
        }
        switch (mb_scratch_remove(r->path[i])) {
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
            t.failed_errno = errno;
            t.failed++;
            break;
        case MB_SCRATCH_UNKNOWN:
            t.failed++;
            break;
        }
    }
    return t;
}

void mb_scratch_keep(int keep)
{
    atomic_store(&registry()->keep, keep != 0);
}

int mb_scratch_keeping(void)
{
    return atomic_load(&registry()->keep);
}

void mb_scratch_cleanup(void)
{
    struct registry *r = registry_if_ours();

    if (r)
        cleanup(r, 0);
}

/* ---- the janitor ---------------------------------------------------------------------------
 * A signal handler cannot help a process that is killed outright, and that is how a job often
 * ends: Open MPI's mpirun, told to stop, sends SIGTERM to the ranks and SIGKILL a moment
 * later (after odls_base_sigkill_timeout, 1 s - and earlier still as soon as one rank has
 * died, which cuts its wait short), while a rank may be inside an fsync of a large file and
 * run no handler in time; MPI_Abort, the OOM killer and a batch system's kill do the same.
 * So every process that creates scratch files has a janitor: a child that shares the
 * registry, waits until the process is gone (end of file on a pipe whose write end only the
 * process holds) and then removes what is still registered. After a normal end the registry
 * is empty and the janitor just exits.
 *
 * The janitor is spawned as a new program where it can be (janitor_spawn below), else forked.
 * After fork a multi-threaded process's child may only make async-signal-safe calls (POSIX
 * fork()): the janitor uses nothing else, and _Fork (glibc 2.34) does not even run the MPI
 * library's fork handlers. It leaves the process group (setsid: a kill of the rank's group
 * must not take it along), ignores the terminal's and the launcher's signals, and closes
 * every inherited descriptor - the launcher's stdout/stderr pipes among them, so mpirun sees
 * the rank's output end when the rank ends. */
static void close_others(int keep_fd)
{
    long max = sysconf(_SC_OPEN_MAX);

#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, 3u, (unsigned)keep_fd - 1u, 0u) == 0 &&
        syscall(SYS_close_range, (unsigned)keep_fd + 1u, ~0u, 0u) == 0)
        return;
#endif
    if (max < 0 || max > 65536)
        max = 65536;
    for (int fd = 3; fd < max; fd++)
        if (fd != keep_fd)
            close(fd);
}

/* ready: where the janitor says it has started (one byte, then closed; janitor_ready). */
static _Noreturn void janitor(struct registry *r, int fd, int ready)
{
    static const int ignored[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,
                                  SIGALRM, SIGPIPE, SIGUSR1, SIGUSR2};
    struct sigaction ign;
    sigset_t none;
    char c;
    int null;

    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
        sigaction(ignored[i], &ign, NULL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    setsid();
#ifdef __linux__
    prctl(PR_SET_NAME, "mpibench-clean", 0, 0, 0);
#endif
    if (fd < 3) { /* keep it clear of the three standard descriptors */
        int moved = fcntl(fd, F_DUPFD, 3);
        if (moved < 0)
            _exit(1);
        fd = moved;
    }
    null = open("/dev/null", O_RDWR);
    for (int std = 0; std < 3; std++)
        if (null >= 0 && null != std)
            dup2(null, std);
    /* Started: the process goes on (janitor_ready). Everything costly - the exec, the dynamic
     * linker loading the MPI library - is behind; from here the janitor sleeps in read. */
    ssize_t w;
    do
        w = write(ready, "r", 1);
    while (w < 0 && errno == EINTR);
    close(ready);
    close_others(fd);
    for (;;) {
        ssize_t n = read(fd, &c, 1);
        if (n == 0 || (n < 0 && errno != EINTR))
            break;
    }
    cleanup(r, 1);
    _exit(0);
}

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
#define MB_FORK _Fork
#else
#define MB_FORK fork
#endif

/* The janitor as a new program. A forked janitor shares every page of the process
 * copy-on-write for as long as the run lasts, so the process's first write to each page after
 * the fork is a page fault - inside timed loops too (docs/figures.md, "IMB-IO's first calls";
 * docs/adr/scratch-janitor-spawn.md). posix_spawn (glibc: clone with CLONE_VM|CLONE_VFORK,
 * no copy) of this program in the janitor mode shares nothing: the janitor maps the registry
 * from the memfd on descriptor 3, says it has started on descriptor 5 (janitor_ready) and waits
 * on the pipe's read end on descriptor 4. It starts
 * in a session of its own, with no signal blocked or caught, /dev/null as 0-2 and no other
 * descriptor of the process (the launcher's pipes and the pipe's write end, close on exec,
 * included). Returns the janitor's pid, or -1 where it cannot be spawned (the caller forks). */
#if defined(MB_REGISTRY_MEMFD) && defined(POSIX_SPAWN_SETSID) && !defined(MB_SMPI)
#define MB_JANITOR_SPAWN 1
enum { JANITOR_REGISTRY_FD = 3, JANITOR_PIPE_FD = 4, JANITOR_READY_FD = 5 };
extern char **environ;

/* The file to run: /proc/self/exe's target by name where that name still holds the program
 * whose code is running (the file behind this function's page in /proc/self/maps), else
 * /proc/self/exe itself. By name because under a tool that runs the program in its own
 * process (valgrind) /proc/self/exe is the tool, which refuses to run as the janitor;
 * /proc/self/exe where the program's file has been replaced or removed since it started. */
static const char *janitor_program(char *buf, size_t size)
{
    const unsigned long here = (unsigned long)(uintptr_t)&janitor_program;
    const ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    unsigned long lo, hi, ino, maj, min;
    char line[PATH_MAX + 128];
    int same = 0;
    struct stat st;
    FILE *maps;

    if (n <= 0 || buf[0] != '/')
        return "/proc/self/exe";
    buf[n] = '\0';
    if (stat(buf, &st) != 0 || !(maps = fopen("/proc/self/maps", "re")))
        return "/proc/self/exe";
    while (!same && fgets(line, sizeof line, maps))
        same = sscanf(line, "%lx-%lx %*s %*s %lx:%lx %lu", &lo, &hi, &maj, &min, &ino) == 5 &&
               lo <= here && here < hi && makedev(maj, min) == st.st_dev && ino == st.st_ino;
    fclose(maps);
    return same ? buf : "/proc/self/exe";
}

static pid_t janitor_spawn(const struct registry *r, int read_end, int ready_end)
{
    char program[PATH_MAX];
    /* Copies above the target descriptors, so that no dup2 of the file actions has its source
     * and target equal (which would leave close-on-exec set) or overwrites a later source. */
    const int mfd = fcntl(r->fd, F_DUPFD_CLOEXEC, JANITOR_READY_FD + 1);
    const int pfd = fcntl(read_end, F_DUPFD_CLOEXEC, JANITOR_READY_FD + 1);
    const int rfd = fcntl(ready_end, F_DUPFD_CLOEXEC, JANITOR_READY_FD + 1);
    static char arg0[] = MB_SCRATCH_JANITOR_ARG0, arg1[] = MB_SCRATCH_JANITOR_ARG1;
    char *argv[] = {arg0, arg1, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    sigset_t none, all;
    pid_t pid = -1;
    int ok;

    if (mfd < 0 || pfd < 0 || rfd < 0 || posix_spawn_file_actions_init(&fa) != 0) {
        close(mfd);
        close(pfd);
        close(rfd);
        return -1;
    }
    if (posix_spawnattr_init(&at) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        close(mfd);
        close(pfd);
        close(rfd);
        return -1;
    }
    sigemptyset(&none);
    sigfillset(&all);
    ok = posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDWR, 0) == 0 &&
         posix_spawn_file_actions_adddup2(&fa, STDIN_FILENO, STDOUT_FILENO) == 0 &&
         posix_spawn_file_actions_adddup2(&fa, STDIN_FILENO, STDERR_FILENO) == 0 &&
         posix_spawn_file_actions_adddup2(&fa, mfd, JANITOR_REGISTRY_FD) == 0 &&
         posix_spawn_file_actions_adddup2(&fa, pfd, JANITOR_PIPE_FD) == 0 &&
         posix_spawn_file_actions_adddup2(&fa, rfd, JANITOR_READY_FD) == 0 &&
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
         posix_spawn_file_actions_addclosefrom_np(&fa, JANITOR_READY_FD + 1) == 0 &&
#endif
         posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK |
                                           POSIX_SPAWN_SETSIGDEF) == 0 &&
         posix_spawnattr_setsigmask(&at, &none) == 0 &&
         posix_spawnattr_setsigdefault(&at, &all) == 0;
    /* The environment as it is: the dynamic linker may need LD_LIBRARY_PATH to load the
     * program's libraries again. */
    if (ok &&
        posix_spawn(&pid, janitor_program(program, sizeof program), &fa, &at, argv, environ) != 0)
        pid = -1;
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    close(mfd);
    close(pfd);
    close(rfd);
    return ok ? pid : -1;
}
#endif

int mb_scratch_janitor_main(int argc, char **argv)
{
    atomic_store(&janitor_mode_known, 1);
    if (argc != 2 || strcmp(argv[0], MB_SCRATCH_JANITOR_ARG0) != 0 ||
        strcmp(argv[1], MB_SCRATCH_JANITOR_ARG1) != 0)
        return -1;
#ifdef MB_JANITOR_SPAWN
    {
        struct stat st;
        void *m;
        int seals = fcntl(JANITOR_REGISTRY_FD, F_GET_SEALS);

        /* Only what janitor_spawn hands over is acted on: a sealed memfd of the registry's
         * size, and a pipe. Anything else (the mode typed by hand) ends quietly. */
        if (seals < 0 || (seals & MB_REGISTRY_SEALS) != MB_REGISTRY_SEALS ||
            fstat(JANITOR_REGISTRY_FD, &st) != 0 || !S_ISREG(st.st_mode) ||
            st.st_size != (off_t)sizeof(struct registry) || fstat(JANITOR_PIPE_FD, &st) != 0 ||
            !S_ISFIFO(st.st_mode) || fstat(JANITOR_READY_FD, &st) != 0 || !S_ISFIFO(st.st_mode))
            _exit(2);
        m = mmap(NULL, sizeof(struct registry), PROT_READ | PROT_WRITE, MAP_SHARED,
                 JANITOR_REGISTRY_FD, 0);
        if (m == MAP_FAILED)
            _exit(2);
        janitor(m, JANITOR_PIPE_FD, JANITOR_READY_FD); /* closes 3 and 5: the mapping stays */
    }
#else
    _exit(2);
#endif
}

/* The janitor as a fork, where it cannot be spawned: it shares the registry's anonymous
 * mapping (and, copy-on-write, every other page of the process). Returns its pid or -1. */
static pid_t janitor_fork(struct registry *r, int fds[2], int ready_end)
{
    const pid_t pid = MB_FORK();

    if (pid == 0) {
        close(fds[1]);
        janitor(r, fds[0], ready_end);
    }
    return pid;
}

#ifndef MB_SMPI
/* Waits (at most JANITOR_READY_MS) until the janitor says it has started, or has ended: a
 * spawned janitor runs the program anew, and its exec and dynamic linking take milliseconds of
 * CPU that, on a node with as many ranks as cores, preempted the first timed loop (IMB-IO's
 * S_Write_Indv 0 B 40 us instead of 10 in some runs; docs/figures.md, "P_IRead_Priv at 0
 * bytes"). Closes ready_rd. */
static void janitor_ready(int ready_rd)
{
    enum { JANITOR_READY_MS = 5000 };
    struct pollfd p = {.fd = ready_rd, .events = POLLIN};
    int rc;

    do
        rc = poll(&p, 1, JANITOR_READY_MS);
    while (rc < 0 && errno == EINTR);
    close(ready_rd);
}
#endif

void mb_scratch_janitor_start(void)
{
#ifdef MB_SMPI
    /* Under SimGrid's SMPI every simulated process is a thread of one host process: a janitor
     * per process would fork the whole simulator thousands of times, and the pid it watches
     * is the simulator's (docs/adr/smpi-build.md). The signal handlers and the normal end
     * still clean up. */
    (void)registry();
    (void)janitor_fork;
#else
    struct registry *r = registry();
    int fds[2], ready[2];
    pid_t pid = -1;

    if (r == &private_registry || r->janitor != 0 || pipe(fds) != 0)
        return;
    if (pipe(ready) != 0) {
        close(fds[0]);
        close(fds[1]);
        return;
    }
    /* The write end must not outlive this process in a program it starts (gnuplot): only
     * this process's end should end the janitor's wait. The read end is the janitor's only. */
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    fcntl(ready[0], F_SETFD, FD_CLOEXEC);
    fcntl(ready[1], F_SETFD, FD_CLOEXEC);
#ifdef MB_JANITOR_SPAWN
    if (r->fd >= 0 && atomic_load(&janitor_mode_known))
        pid = janitor_spawn(r, fds[0], ready[1]);
#endif
    /* A memfd registry is shared with a forked child as well as an anonymous one. */
    if (pid < 0)
        pid = janitor_fork(r, fds, ready[1]);
    close(fds[0]);
    close(ready[1]);
    if (pid < 0) {
        close(fds[1]);
        close(ready[0]);
        return; /* no janitor: the signal handlers and the normal end still clean up */
    }
    r->janitor = pid; /* the write end stays open, unused, until this process ends */
    janitor_ready(ready[0]);
#endif
}

/* ---- salvage on interruption --------------------------------------------------------------- */

int mb_scratch_salvage(const char *path, const char *to, const char *note, struct mb_error *err)
{
    struct registry *r = registry();
    sigset_t old;
    int slot;

    if (strlen(to) >= sizeof r->salvage_to || strlen(note) >= sizeof r->salvage_note)
        return mb_error_set(err, MB_ERR_USAGE, "'%.60s...' is too long a name", to);
    block_signals(&old);
    slot = find_slot(r, path);
    if (slot < 0) {
        unblock_signals(&old);
        return mb_error_set(err, MB_ERR_RUNTIME, "'%s' is not a registered scratch file", path);
    }
    atomic_store(&r->salvage_slot, 0);
    memcpy(r->salvage_to, to, strlen(to) + 1);
    memcpy(r->salvage_note, note, strlen(note) + 1);
    r->salvage_note_len = strlen(note);
    atomic_store(&r->salvage_slot, slot + 1);
    unblock_signals(&old);
    return 0;
}

void mb_scratch_salvage_clear(void)
{
    atomic_store(&registry()->salvage_slot, 0);
}

/* The handler's part (async-signal-safe: lstat, rename, write): the file, if it is still the
 * one registered, goes to its salvage name and leaves the registry, so that the cleanup that
 * follows (and the janitor) leave it alone. */
static void salvage(void)
{
    struct registry *r = registry_if_ours();
    struct stat st;
    int k;

    if (!r || (k = atomic_exchange(&r->salvage_slot, 0) - 1) < 0 ||
        atomic_load(&r->slot[k].state) != SLOT_LIVE)
        return;
    if (lstat(r->path[k], &st) != 0 || st.st_dev != r->slot[k].dev || st.st_ino != r->slot[k].ino)
        return;
    /* link + unlink, not rename: rename would replace a file that appeared at the salvage
     * name since it was chosen (a user's file is never overwritten). Where the file system
     * has no hard links, rename - once the name is seen to be free. */
    if (link(r->path[k], r->salvage_to) == 0)
        unlink(r->path[k]);
    else if (errno == EEXIST || lstat(r->salvage_to, &st) == 0 || errno != ENOENT ||
             rename(r->path[k], r->salvage_to) != 0)
        return; /* not kept: the cleanup removes it */
    atomic_store(&r->slot[k].state, SLOT_FREE);
    if (write(STDERR_FILENO, r->salvage_note, r->salvage_note_len) < 0)
        return; /* nothing else to do about a closed stderr */
}

void mb_scratch_salvage_now(void)
{
    sigset_t old;

    block_signals(&old);
    salvage();
    unblock_signals(&old);
}

/* ---- signals ------------------------------------------------------------------------------ */

static const int caught[2] = {SIGINT, SIGTERM};

/* Clean up, then end as the signal would have ended us: the signal is blocked while its
 * handler runs, so the re-raised one is delivered, with the default action, on return. */
static void on_signal(int sig)
{
    struct sigaction dfl;

    /* The main job's pages and message first: a launcher may kill the process a moment after
     * another process has died of the same signal, and the janitor removes the scratch files
     * of a killed process, but nothing else writes the pages. */
    mb_interrupt_write();
    salvage();
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
    mb_scratch_janitor_start();
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
