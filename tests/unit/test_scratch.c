/* SPDX-License-Identifier: BSD-3-Clause */
/* The scratch-file layer (core/scratch.h): names and their length limit, refusing what the run
 * did not create, removal by identity, keep mode, the registry's capacity, the cleanup on
 * SIGTERM, SIGINT, mb_die and the --timeout watchdog (in forked children, before MPI_Init),
 * hint files, the file-system description, and the MPI-IO open (after MPI_Init). */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MADV_NOHUGEPAGE, memfd_create */
#include "core/info.h"
#include "core/scratch.h"
#include "core/watchdog.h"
#include "unit.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[64];

/* dir/name in a static buffer that the test does not outlive (one at a time). */
static const char *at(const char *name)
{
    static char buf[4][512];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", dir, name);
    return p;
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs(text, f);
    fclose(f);
}

static long size_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static ino_t inode_of(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 ? st.st_ino : 0;
}

static void test_names(void)
{
    struct mb_error err = {0};
    char out[MB_SCRATCH_PATH_MAX], small[17];
    char *long_name = malloc(MB_SCRATCH_PATH_MAX + 10);

    EXPECT_EQ_LL(mb_scratch_path(out, sizeof out, ".", "IMB_out", -1, -1, &err), 0);
    EXPECT(strcmp(out, "./IMB_out") == 0);
    EXPECT_EQ_LL(mb_scratch_path(out, sizeof out, "/scratch/", "IMB_out", 1, 3, &err), 0);
    EXPECT(strcmp(out, "/scratch/IMB_out_g1_3") == 0);
    EXPECT_EQ_LL(mb_scratch_path(out, sizeof out, NULL, "IMB_out", 2, -1, &err), 0);
    EXPECT(strcmp(out, "IMB_out_g2") == 0);
    EXPECT_EQ_LL(mb_scratch_path(out, sizeof out, "", "IMB_out", -1, 0, &err), 0);
    EXPECT(strcmp(out, "IMB_out_0") == 0);
    EXPECT_EQ_LL(mb_scratch_pathf(out, sizeof out, &err, "/p", "b_eff_io_data_i%02d_%03d_%d.%03d",
                                  1, 16, 2, 7),
                 0);
    EXPECT(strcmp(out, "/p/b_eff_io_data_i01_016_2.007") == 0);
    EXPECT_EQ_LL(mb_scratch_join(out, sizeof out, "d", "f", &err), 0);
    EXPECT(strcmp(out, "d/f") == 0);
    EXPECT(err.kind == MB_ERR_NONE);

    /* Too long for the caller's buffer: an error and an empty result, not a truncation. The
     * exact fit (16 characters in 17 bytes) still works. */
    EXPECT_EQ_LL(mb_scratch_join(small, sizeof small, "/scratch", "IMB_out", &err), 0);
    EXPECT(strcmp(small, "/scratch/IMB_out") == 0);
    EXPECT_EQ_LL(mb_scratch_path(small, sizeof small, "/scratch", "IMB_out", 10, -1, &err),
                 MB_EXIT_USAGE);
    EXPECT(small[0] == '\0');
    EXPECT(err.kind == MB_ERR_USAGE);
    EXPECT_STR_CONTAINS(err.msg, "20 characters long; at most 16 fit");
    /* Too long for the registry, whatever the buffer. */
    memset(long_name, 'x', MB_SCRATCH_PATH_MAX + 1);
    long_name[MB_SCRATCH_PATH_MAX + 1] = '\0';
    err = (struct mb_error){0};
    EXPECT(mb_scratch_join(out, sizeof out, "/d", long_name, &err) != 0);
    EXPECT_STR_CONTAINS(err.msg, "characters long");
    err = (struct mb_error){0};
    EXPECT(mb_scratch_create(long_name, 1, &err) != 0);
    EXPECT_STR_CONTAINS(err.msg, "characters long");
    EXPECT_EQ_LL(mb_scratch_count(), 0);
    err = (struct mb_error){0};
    EXPECT(mb_scratch_join(out, sizeof out, "/d", "", &err) != 0);
    EXPECT_STR_CONTAINS(err.msg, "empty");
    free(long_name);
}

static void test_create_and_remove(void)
{
    struct mb_error err = {0};
    struct mb_scratch_tally t;

    /* Ours: created, then refused a second time without force, reused with force. */
    EXPECT_EQ_LL(mb_scratch_create(at("a"), 0, &err), 0);
    EXPECT(exists(at("a")));
    EXPECT_EQ_LL(mb_scratch_count(), 1);
    EXPECT_EQ_LL(mb_scratch_create(at("a"), 0, &err), MB_EXIT_USAGE);
    EXPECT_STR_CONTAINS(err.msg, "already exists (a regular file)");
    EXPECT_STR_CONTAINS(err.msg, "--force");
    err = (struct mb_error){0};
    EXPECT_EQ_LL(mb_scratch_create(at("a"), 1, &err), 0);
    EXPECT_EQ_LL(mb_scratch_count(), 1);

    /* Someone else's file: untouched without force, taken over (emptied) with force. */
    put(at("foreign"), "precious\n");
    EXPECT_EQ_LL(mb_scratch_create(at("foreign"), 0, &err), MB_EXIT_USAGE);
    EXPECT_EQ_LL(size_of(at("foreign")), 9);
    err = (struct mb_error){0};
    EXPECT_EQ_LL(mb_scratch_create(at("foreign"), 1, &err), 0);
    EXPECT_EQ_LL(size_of(at("foreign")), 0);
    EXPECT_EQ_LL(mb_scratch_count(), 2);

    /* Never a directory, FIFO or symbolic link (even to a regular file), force or not. */
    EXPECT(mkdir(at("sd"), 0755) == 0);
    EXPECT(mkfifo(at("p"), 0644) == 0);
    put(at("target"), "x");
    EXPECT(symlink(at("target"), at("s")) == 0);
    EXPECT(symlink(at("nowhere"), at("dangling")) == 0);
    EXPECT_EQ_LL(mb_scratch_create(at("sd"), 1, &err), MB_EXIT_USAGE);
    EXPECT_STR_CONTAINS(err.msg, "a directory");
    err = (struct mb_error){0};
    EXPECT_EQ_LL(mb_scratch_create(at("p"), 1, &err), MB_EXIT_USAGE);
    EXPECT_STR_CONTAINS(err.msg, "a FIFO");
    err = (struct mb_error){0};
    EXPECT_EQ_LL(mb_scratch_create(at("s"), 1, &err), MB_EXIT_USAGE);
    EXPECT_STR_CONTAINS(err.msg, "a symbolic link");
    err = (struct mb_error){0};
    EXPECT_EQ_LL(mb_scratch_create(at("dangling"), 1, &err), MB_EXIT_USAGE);
    EXPECT_STR_CONTAINS(err.msg, "a symbolic link");
    EXPECT(!exists(at("nowhere")));
    err = (struct mb_error){0};
    EXPECT_EQ_LL(mb_scratch_create(at("p"), 0, &err), MB_EXIT_USAGE);
    EXPECT_STR_CONTAINS(err.msg, "a FIFO");
    /* A regular file with a second name: overwriting it would change the other one too. */
    EXPECT(link(at("target"), at("hard")) == 0);
    err = (struct mb_error){0};
    EXPECT_EQ_LL(mb_scratch_create(at("hard"), 1, &err), MB_EXIT_USAGE);
    EXPECT_STR_CONTAINS(err.msg, "hard links");
    EXPECT_EQ_LL(size_of(at("target")), 1);
    /* A missing directory is the system's refusal, not the user's. */
    err = (struct mb_error){0};
    EXPECT_EQ_LL(mb_scratch_create(at("missing/f"), 0, &err), MB_EXIT_RUNTIME);
    EXPECT_STR_CONTAINS(err.msg, "No such file");
    EXPECT_EQ_LL(mb_scratch_count(), 2);

    /* Unregistered paths are never removed. */
    EXPECT(mb_scratch_remove(at("target")) == MB_SCRATCH_UNKNOWN);
    EXPECT(exists(at("target")));

    /* remove-all removes exactly the two registered files. */
    t = mb_scratch_remove_all();
    EXPECT_EQ_LL(t.removed, 2);
    EXPECT_EQ_LL(t.kept + t.gone + t.replaced + t.failed, 0);
    EXPECT(!exists(at("a")) && !exists(at("foreign")));
    EXPECT(exists(at("sd")) && exists(at("p")) && exists(at("s")) && exists(at("dangling")));
    EXPECT(exists(at("target")) && exists(at("hard")));
    EXPECT_EQ_LL(mb_scratch_count(), 0);
    unlink(at("hard"));
}

/* A new file renamed over ours: a different inode at the same path. */
static void replace_behind_our_back(const char *path)
{
    put(at("new"), "someone else's\n");
    EXPECT(inode_of(at("new")) != inode_of(path));
    EXPECT(rename(at("new"), path) == 0);
}

static void test_identity(void)
{
    struct mb_error err = {0};
    struct mb_scratch_tally t;

    EXPECT_EQ_LL(mb_scratch_create(at("r1"), 0, &err), 0);
    EXPECT_EQ_LL(mb_scratch_create(at("r2"), 0, &err), 0);
    EXPECT_EQ_LL(mb_scratch_create(at("r3"), 0, &err), 0);
    EXPECT_EQ_LL(mb_scratch_create(at("r4"), 0, &err), 0);
    replace_behind_our_back(at("r1"));
    replace_behind_our_back(at("r2"));
    unlink(at("r3"));
    EXPECT(mb_scratch_remove(at("r1")) == MB_SCRATCH_REPLACED);
    EXPECT(mb_scratch_remove(at("r1")) == MB_SCRATCH_UNKNOWN); /* forgotten */
    t = mb_scratch_remove_all();
    EXPECT_EQ_LL(t.replaced, 1);
    EXPECT_EQ_LL(t.gone, 1);
    EXPECT_EQ_LL(t.removed, 1);
    EXPECT_EQ_LL(size_of(at("r1")), 15);
    EXPECT_EQ_LL(size_of(at("r2")), 15);
    EXPECT(!exists(at("r4")));

    /* The signal-path cleanup checks identity too. */
    EXPECT_EQ_LL(mb_scratch_create(at("r5"), 0, &err), 0);
    replace_behind_our_back(at("r5"));
    mb_scratch_cleanup();
    EXPECT_EQ_LL(size_of(at("r5")), 15);
    EXPECT_EQ_LL(mb_scratch_count(), 0);

    /* A file created by other means (as by MPI_File_open with MPI_MODE_CREATE) is removed
     * once registered, and left alone once forgotten; only regular files can be registered. */
    put(at("m1"), "by MPI-IO");
    put(at("m2"), "by MPI-IO");
    EXPECT_EQ_LL(mb_scratch_register(at("m1"), &err), 0);
    EXPECT_EQ_LL(mb_scratch_register(at("m2"), &err), 0);
    EXPECT_EQ_LL(mb_scratch_register(at("m2"), &err), 0); /* no second slot */
    EXPECT_EQ_LL(mb_scratch_count(), 2);
    mb_scratch_forget(at("m2"));
    EXPECT_EQ_LL(mb_scratch_register(at("sd"), &err), MB_EXIT_RUNTIME);
    EXPECT_STR_CONTAINS(err.msg, "a directory");
    EXPECT(err.kind == MB_ERR_RUNTIME);
    err = (struct mb_error){0};
    EXPECT(mb_scratch_remove(at("m1")) == MB_SCRATCH_REMOVED);
    EXPECT(!exists(at("m1")) && exists(at("m2")));
    /* Re-registering takes the file's new identity (MPI-IO deleted and re-created it). */
    EXPECT_EQ_LL(mb_scratch_create(at("m3"), 0, &err), 0);
    replace_behind_our_back(at("m3"));
    EXPECT_EQ_LL(mb_scratch_register(at("m3"), &err), 0);
    EXPECT_EQ_LL(mb_scratch_count(), 1);
    EXPECT(mb_scratch_remove(at("m3")) == MB_SCRATCH_REMOVED);
    EXPECT(!exists(at("m3")));
    unlink(at("r1"));
    unlink(at("r2"));
    unlink(at("r5"));
    unlink(at("m2"));
}

static void test_keep(void)
{
    struct mb_error err = {0};
    struct mb_scratch_tally t;

    EXPECT_EQ_LL(mb_scratch_create(at("k1"), 0, &err), 0);
    EXPECT_EQ_LL(mb_scratch_create(at("k2"), 0, &err), 0);
    EXPECT_EQ_LL(mb_scratch_create(at("k3"), 0, &err), 0);
    EXPECT_EQ_LL(mb_scratch_create(at("t1"), MB_SCRATCH_TEMPORARY, &err), 0);
    EXPECT_EQ_LL(mb_scratch_create(at("t2"), MB_SCRATCH_TEMPORARY, &err), 0);
    mb_scratch_keep(1);
    EXPECT(mb_scratch_keeping());
    EXPECT(mb_scratch_remove(at("k1")) == MB_SCRATCH_KEPT);
    /* Temporary files go even in keep mode. */
    EXPECT(mb_scratch_remove(at("t1")) == MB_SCRATCH_REMOVED);
    mb_scratch_cleanup();
    EXPECT(exists(at("k2")) && exists(at("k3")));
    EXPECT(!exists(at("t1")) && !exists(at("t2")));
    EXPECT_EQ_LL(mb_scratch_count(), 0);
    EXPECT_EQ_LL(mb_scratch_register(at("k2"), &err), 0);
    EXPECT_EQ_LL(mb_scratch_register(at("k3"), &err), 0);
    t = mb_scratch_remove_all();
    EXPECT_EQ_LL(t.kept, 2);
    EXPECT_EQ_LL(t.removed, 0);
    EXPECT(exists(at("k1")) && exists(at("k2")) && exists(at("k3")));
    mb_scratch_keep(0);
    EXPECT(!mb_scratch_keeping());
    unlink(at("k1"));
    unlink(at("k2"));
    unlink(at("k3"));
}

static void test_capacity(void)
{
    struct mb_error err = {0};
    struct mb_scratch_tally t;
    char name[32];
    int ok = 0;

    for (int i = 0; i < MB_SCRATCH_MAX; i++) {
        snprintf(name, sizeof name, "cap%03d", i);
        ok += mb_scratch_create(at(name), 0, &err) == 0;
    }
    EXPECT_EQ_LL(ok, MB_SCRATCH_MAX);
    EXPECT_EQ_LL(mb_scratch_create(at("one_too_many"), 0, &err), MB_EXIT_RUNTIME);
    EXPECT_STR_CONTAINS(err.msg, "registry is full");
    EXPECT(!exists(at("one_too_many")));
    err = (struct mb_error){0};
    put(at("one_too_many"), "");
    EXPECT_EQ_LL(mb_scratch_register(at("one_too_many"), &err), MB_EXIT_RUNTIME);
    EXPECT_STR_CONTAINS(err.msg, "registry is full");
    unlink(at("one_too_many"));
    t = mb_scratch_remove_all();
    EXPECT_EQ_LL(t.removed, MB_SCRATCH_MAX);
    /* The slots are free again. */
    err = (struct mb_error){0};
    EXPECT_EQ_LL(mb_scratch_create(at("after"), 0, &err), 0);
    EXPECT(mb_scratch_remove(at("after")) == MB_SCRATCH_REMOVED);
}

enum end { BY_SIGNAL, BY_DIE, BY_WATCHDOG, BY_KILL };

/* Whether the child's files are as they should be: kept ones there (keep mode), the rest and
 * the temporary one gone. After a SIGKILL the janitor removes them a moment after the child's
 * end: up to 5 s are allowed. */
static int files_as_expected(const char *f1, const char *f2, const char *f3, int keep)
{
    return exists(f1) == keep && exists(f2) == keep && !exists(f3);
}

/* A child creates two scratch files and a temporary one next to the parent's foreign and
 * registered ones and ends as told; the parent checks how it ended and what is left. */
static void child_run(enum end how, int sig, int keep, const char *tag)
{
    char f1[64], f2[64], f3[64];
    int status = 0, ok = 0;
    pid_t pid;

    snprintf(f1, sizeof f1, "%s_1", tag);
    snprintf(f2, sizeof f2, "%s_2", tag);
    snprintf(f3, sizeof f3, "%s_tmp", tag);
    snprintf(f1, sizeof f1, "%s", at(f1));
    snprintf(f2, sizeof f2, "%s", at(f2));
    snprintf(f3, sizeof f3, "%s", at(f3));
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        struct mb_error err = {0};
        struct mb_scratch_signals saved;
        int devnull = open("/dev/null", O_WRONLY);

        /* Quiet: mb_die and the watchdog explain themselves on stderr. */
        if (devnull >= 0)
            dup2(devnull, STDERR_FILENO);
        /* A parent that ignores SIGINT (a background job) would make the child ignore it. */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        /* The parent's registered file is not the child's: the child starts empty. */
        if (mb_scratch_count() != 0)
            _exit(96);
        if (mb_scratch_create(f1, 0, &err) != 0 || mb_scratch_create(f2, 0, &err) != 0 ||
            mb_scratch_create(f3, MB_SCRATCH_TEMPORARY, &err) != 0)
            _exit(97);
        mb_scratch_keep(keep);
        mb_scratch_signals_install(&saved);
        if (how == BY_SIGNAL || how == BY_KILL)
            raise(sig);
        else if (how == BY_DIE)
            mb_die("test_scratch: deliberate failure");
        else {
            struct mb_watchdog *wd = mb_watchdog_start(0.05, "test_scratch", 0);
            mb_watchdog_arm(wd, "a hanging benchmark");
            for (;;)
                pause();
        }
        _exit(98);
    }
    EXPECT(pid > 0);
    EXPECT(waitpid(pid, &status, 0) == pid);
    if (how == BY_WATCHDOG) {
        EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    } else {
        EXPECT(WIFSIGNALED(status));
        EXPECT_EQ_LL(WIFSIGNALED(status) ? WTERMSIG(status) : -1, sig);
    }
    for (int i = 0; i < (how == BY_KILL ? 500 : 1) && !(ok = files_as_expected(f1, f2, f3, keep));
         i++)
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    EXPECT(ok);
    EXPECT(exists(at("foreign_of_parent")));
    EXPECT(exists(at("registered_by_parent")));
    unlink(f1);
    unlink(f2);
}

static void test_exit_paths(void)
{
    struct mb_scratch_signals saved;
    struct sigaction now;

    struct mb_error err = {0};

    put(at("foreign_of_parent"), "keep me");
    EXPECT_EQ_LL(mb_scratch_create(at("registered_by_parent"), 0, &err), 0);
    child_run(BY_SIGNAL, SIGTERM, 0, "term");
    child_run(BY_SIGNAL, SIGINT, 0, "int");
    child_run(BY_SIGNAL, SIGTERM, 1, "term_keep");
    /* mb_die before MPI_Init ends in abort(). */
    child_run(BY_DIE, SIGABRT, 0, "die");
    child_run(BY_WATCHDOG, 0, 0, "alarm");
    /* No handler runs: the janitor removes the files. */
    child_run(BY_KILL, SIGKILL, 0, "kill");
    child_run(BY_KILL, SIGKILL, 1, "kill_keep");
    unlink(at("foreign_of_parent"));
    EXPECT(mb_scratch_remove(at("registered_by_parent")) == MB_SCRATCH_REMOVED);

    /* restore puts back what install found. */
    signal(SIGTERM, SIG_DFL);
    mb_scratch_signals_install(&saved);
    sigaction(SIGTERM, NULL, &now);
    EXPECT(now.sa_handler != SIG_DFL);
    mb_scratch_signals_restore(&saved);
    sigaction(SIGTERM, NULL, &now);
    EXPECT(now.sa_handler == SIG_DFL);
}

/* The janitor shares no page with its process (docs/adr/scratch-janitor-spawn.md): after it has
 * started, writing pages the process wrote before costs no page fault. A forked janitor shares
 * them copy-on-write, one fault per page. In a child, whose pages are its own: the test's
 * process has shared its pages with the children it forked before. */
static void test_janitor_shares_no_pages(void)
{
    enum { PAGES = 64 };
    pid_t pid;
    int status = 0;

#ifndef __linux__
    return; /* the janitor is forked elsewhere */
#endif
#ifdef MFD_CLOEXEC
    {
        /* Nor where there is no memfd or no /proc: the janitor is forked there too. */
        const int probe = memfd_create("probe", MFD_CLOEXEC | MFD_ALLOW_SEALING);
        if (probe < 0 || access("/proc/self/exe", X_OK) != 0) {
            if (probe >= 0)
                close(probe);
            return;
        }
        close(probe);
    }
#else
    return;
#endif
    pid = fork();
    if (pid == 0) {
        const long page = sysconf(_SC_PAGESIZE);
        struct mb_error err = {0};
        struct rusage before, after;
        volatile char *p = mmap(NULL, (size_t)(PAGES * page), PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

        if (p == MAP_FAILED)
            _exit(90);
#ifdef MADV_NOHUGEPAGE
        madvise((void *)p, (size_t)(PAGES * page), MADV_NOHUGEPAGE); /* one fault per page */
#endif
        for (long i = 0; i < PAGES; i++)
            p[i * page] = 1;
        if (mb_scratch_create(at("janitor_pages"), 0, &err) != 0)
            _exit(91);
        mb_scratch_janitor_start();
        getrusage(RUSAGE_SELF, &before);
        for (long i = 0; i < PAGES; i++)
            p[i * page] = 2;
        getrusage(RUSAGE_SELF, &after);
        if (mb_scratch_remove(at("janitor_pages")) != MB_SCRATCH_REMOVED)
            _exit(92);
        /* A few faults may come from elsewhere (the stack, getrusage); a fork makes PAGES. */
        _exit(after.ru_minflt - before.ru_minflt < PAGES / 4 ? 0 : 93);
    }
    EXPECT(pid > 0 && waitpid(pid, &status, 0) == pid);
    EXPECT_EQ_LL(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
}

/* The janitor has started when mb_scratch_janitor_start returns: a spawned janitor runs the
 * program anew, and its exec and dynamic linking must not overlap the first timed loop. The
 * janitor names itself (/proc/PID/comm "mpibench-clean") before it says it has started, so
 * right after the call the process's child has that name; without the wait it is still the
 * exec'd program, loading its libraries. In a child, whose only child is its janitor. */
static void test_janitor_started_on_return(void)
{
    pid_t pid;
    int status = 0;

#ifndef __linux__
    return;
#endif
    if (access("/proc/self/task", R_OK) != 0)
        return;
    pid = fork();
    if (pid == 0) {
        struct mb_error err = {0};
        char path[64], name[32] = "";
        FILE *f;
        int kid = 0;

        if (mb_scratch_create(at("janitor_started"), 0, &err) != 0)
            _exit(90);
        mb_scratch_janitor_start();
        snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
        f = fopen(path, "r");
        if (!f)
            _exit(mb_scratch_remove(at("janitor_started")) == MB_SCRATCH_REMOVED ? 0 : 92);
        if (fscanf(f, "%d", &kid) != 1)
            kid = 0;
        fclose(f);
        snprintf(path, sizeof path, "/proc/%d/comm", kid);
        f = kid > 0 ? fopen(path, "r") : NULL;
        if (f) {
            if (!fgets(name, sizeof name, f))
                name[0] = '\0';
            fclose(f);
        }
        if (mb_scratch_remove(at("janitor_started")) != MB_SCRATCH_REMOVED)
            _exit(92);
        if (kid <= 0)
            _exit(93);
        _exit(strncmp(name, "mpibench-clean", 14) == 0 ? 0 : 94);
    }
    EXPECT(pid > 0 && waitpid(pid, &status, 0) == pid);
    EXPECT_EQ_LL(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
}

/* The janitor mode given by hand: with no registry on descriptor 3 it exits with status 2 at
 * once and writes nothing. */
static void test_janitor_mode_by_hand(void)
{
    int out[2], status = 0;
    char c;
    pid_t pid;

    EXPECT(pipe(out) == 0);
    pid = fork();
    if (pid == 0) {
        char *argv[] = {(char *)MB_SCRATCH_JANITOR_ARG0, (char *)MB_SCRATCH_JANITOR_ARG1, NULL};
        int f = open(at("not_a_registry"), O_RDWR | O_CREAT | O_TRUNC, 0600);
        if (f < 0 || dup2(f, 3) < 0 || dup2(out[1], 1) < 0 || dup2(out[1], 2) < 0)
            _exit(90);
        close(out[0]);
        execv("/proc/self/exe", argv);
        _exit(91);
    }
    close(out[1]);
    EXPECT(pid > 0 && waitpid(pid, &status, 0) == pid);
    EXPECT_EQ_LL(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 2);
    EXPECT(read(out[0], &c, 1) == 0);
    close(out[0]);
    EXPECT(exists(at("not_a_registry")));
    unlink(at("not_a_registry"));
}

/* The MPI library's companion files: names that carry the opener's pid, and only those. */
static void test_companions(void)
{
    struct mb_error err = {0};
    char mine[64], other[64], romio[64], romio_other[64];
    const long me = (long)getpid();

    EXPECT(mb_scratch_is_companion("IMB_out-1754202113-1148.lock", "IMB_out", 1148));
    EXPECT(mb_scratch_is_companion(".IMB_out.shfp.285498924.8304", "IMB_out", 8304));
    EXPECT(!mb_scratch_is_companion("IMB_out-1754202113-1148.lock", "IMB_out", 114));
    EXPECT(!mb_scratch_is_companion("IMB_out-1754202113-11148.lock", "IMB_out", 1148));
    EXPECT(!mb_scratch_is_companion("IMB_out_0-1754202113-1148.lock", "IMB_out", 1148));
    EXPECT(!mb_scratch_is_companion("IMB_out--1148.lock", "IMB_out", 1148));
    EXPECT(!mb_scratch_is_companion("IMB_out-12x-1148.lock", "IMB_out", 1148));
    EXPECT(!mb_scratch_is_companion(".IMB_out.shfp..8304", "IMB_out", 8304));
    EXPECT(!mb_scratch_is_companion(".IMB_out.shfp.1.83045", "IMB_out", 8304));
    EXPECT(!mb_scratch_is_companion("IMB_out", "IMB_out", 8304));

    /* A file of ours opened by this process, and a name another process made (watched): the
     * companions with this pid go on removal, in keep mode too; others' stay. */
    snprintf(mine, sizeof mine, "c1-77-%ld.lock", me);
    snprintf(other, sizeof other, "c1-77-%ld.lock", me + 1);
    snprintf(romio, sizeof romio, ".c2.shfp.12345.%ld", me);
    snprintf(romio_other, sizeof romio_other, ".c2.shfp.12345.%ld", me + 1);
    EXPECT_EQ_LL(mb_scratch_create(at("c1"), 0, &err), 0);
    mb_scratch_opened(at("c1"));
    put(at(mine), "lock");
    put(at(other), "someone else's");
    put(at("c2"), "another process's file");
    mb_scratch_opened(at("c2"));
    mb_scratch_opened(at("c2")); /* once is enough */
    put(at(romio), "pointer");
    put(at(romio_other), "someone else's");
    EXPECT_EQ_LL(mb_scratch_count(), 2);
    mb_scratch_keep(1);
    (void)mb_scratch_remove_all();
    mb_scratch_keep(0);
    EXPECT(exists(at("c1"))); /* kept: keep mode */
    EXPECT(!exists(at(mine)));
    EXPECT(!exists(at(romio)));
    EXPECT(exists(at("c2"))); /* not ours: watched only */
    EXPECT(exists(at(other)) && exists(at(romio_other)));
    EXPECT_EQ_LL(mb_scratch_count(), 0);
    unlink(at("c1"));
    unlink(at("c2"));
    unlink(at(other));
    unlink(at(romio_other));
}

/* A registered directory: never an existing one, left alone by remove_all (its maker removes
 * it), removed by every exit path once empty, never while it holds a file. */
static void test_directory(void)
{
    struct mb_error err = {0};
    pid_t pid;
    int status = 0;

    EXPECT_EQ_LL(mb_scratch_mkdir(at("regdir"), &err), 0);
    EXPECT_EQ_LL(mb_scratch_mkdir(at("regdir"), &err), MB_EXIT_USAGE);
    EXPECT_STR_CONTAINS(err.msg, "cannot create the scratch directory");
    err = (struct mb_error){0};
    EXPECT_EQ_LL(mb_scratch_create(at("regdir/f"), 0, &err), 0);
    (void)mb_scratch_remove_all();
    EXPECT(exists(at("regdir")) && !exists(at("regdir/f")));
    put(at("regdir/user"), "a file someone put there");
    EXPECT(mb_scratch_remove(at("regdir")) == MB_SCRATCH_FAILED);
    EXPECT(exists(at("regdir/user")));
    unlink(at("regdir/user"));
    EXPECT_EQ_LL(mb_scratch_mkdir(at("d2"), &err), 0);
    EXPECT(mb_scratch_remove(at("d2")) == MB_SCRATCH_REMOVED);
    EXPECT(!exists(at("d2")));
    rmdir(at("regdir"));

    /* SIGTERM in a child: its files, then its directory. */
    pid = fork();
    if (pid == 0) {
        struct mb_scratch_signals saved;
        struct mb_error e = {0};
        mb_scratch_signals_install(&saved);
        if (mb_scratch_mkdir(at("dt"), &e) != 0 || mb_scratch_create(at("dt/f"), 0, &e) != 0)
            _exit(3);
        raise(SIGTERM);
        _exit(4);
    }
    EXPECT(pid > 0 && waitpid(pid, &status, 0) == pid);
    EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    for (int i = 0; i < 100 && exists(at("dt")); i++)
        nanosleep(&(struct timespec){0, 20000000}, NULL);
    EXPECT(!exists(at("dt")));
}

static void test_hints(void)
{
    struct mb_error err = {0};
    char *lines = NULL;
    char text[512];

    put(at("hints"), "# MPI-IO hints\n\nstriping_factor 4\n  romio_cb_write=enable\n"
                     "cb_config_list = *:1 # one aggregator per node\n"
                     "striping_unit\t1048576\n");
    EXPECT_EQ_LL(mb_scratch_hints_read(at("hints"), &lines, &err), 0);
    EXPECT(lines && strcmp(lines, "striping_factor=4\nromio_cb_write=enable\n"
                                  "cb_config_list=*:1\nstriping_unit=1048576\n") == 0);
    free(lines);

    put(at("hints"), "striping_factor 4\nromio_cb_write\n");
    EXPECT_EQ_LL(mb_scratch_hints_read(at("hints"), &lines, &err), MB_EXIT_USAGE);
    EXPECT(lines == NULL);
    snprintf(text, sizeof text, "%s:2: hint 'romio_cb_write' has no value", at("hints"));
    EXPECT_STR_CONTAINS(err.msg, text);

    err = (struct mb_error){0};
    put(at("hints"), "\n= 4\n");
    EXPECT_EQ_LL(mb_scratch_hints_read(at("hints"), &lines, &err), MB_EXIT_USAGE);
    snprintf(text, sizeof text, "%s:2: missing hint key", at("hints"));
    EXPECT_STR_CONTAINS(err.msg, text);

    err = (struct mb_error){0};
    memset(text, 'k', MPI_MAX_INFO_KEY);
    snprintf(text + MPI_MAX_INFO_KEY, sizeof text - MPI_MAX_INFO_KEY, " 1\n");
    put(at("hints"), text);
    EXPECT_EQ_LL(mb_scratch_hints_read(at("hints"), &lines, &err), MB_EXIT_USAGE);
    EXPECT_STR_CONTAINS(err.msg, ":1: hint 'kkkk");
    EXPECT_STR_CONTAINS(err.msg, "the key is longer than");

    err = (struct mb_error){0};
    put(at("hints"), "# nothing but a comment\n");
    EXPECT_EQ_LL(mb_scratch_hints_read(at("hints"), &lines, &err), MB_EXIT_USAGE);
    EXPECT_STR_CONTAINS(err.msg, "contains no MPI-IO hints");

    err = (struct mb_error){0};
    EXPECT_EQ_LL(mb_scratch_hints_read(at("no_such_hints"), &lines, &err), MB_EXIT_USAGE);
    EXPECT_STR_CONTAINS(err.msg, "no_such_hints");
    unlink(at("hints"));
}

static void test_fs_info(void)
{
    struct mb_error err = {0};
    struct mb_fs_info fs;
    struct stat st;

    EXPECT_EQ_LL(mb_scratch_fs_info(".", &fs, &err), 0);
    EXPECT(fs.type[0] != '\0' && strcmp(fs.type, "unknown") != 0);
    EXPECT(fs.total_bytes > 0 && fs.free_bytes <= fs.total_bytes);
    printf("file system of '.': %s, %.1f of %.1f GiB free\n", fs.type,
           (double)fs.free_bytes / (1 << 30), (double)fs.total_bytes / (1 << 30));
    if (stat("/dev/shm", &st) == 0) {
        EXPECT_EQ_LL(mb_scratch_fs_info("/dev/shm", &fs, &err), 0);
        EXPECT(strcmp(fs.type, "tmpfs") == 0);
    }
    EXPECT_EQ_LL(mb_scratch_fs_info(at("no_such_dir"), &fs, &err), MB_EXIT_RUNTIME);
    EXPECT_STR_CONTAINS(err.msg, "no_such_dir");
}

static void test_mpi_io(void)
{
    struct mb_error err = {0};
    MPI_File fh = MPI_FILE_NULL;
    MPI_Errhandler eh;
    MPI_Info info = MPI_INFO_NULL;
    char msg[MPI_MAX_ERROR_STRING + 128], value[MPI_MAX_INFO_VAL + 1];
    int rc, flag = 0;

    mb_scratch_mpi_message(MPI_ERR_NO_SPACE, msg, sizeof msg);
    EXPECT_STR_CONTAINS(msg, "no space left on device (MPI_ERR_NO_SPACE");
    mb_scratch_mpi_message(MPI_ERR_QUOTA, msg, sizeof msg);
    EXPECT_STR_CONTAINS(msg, "quota");

    /* A missing file: an error code and a message, no abort. */
    rc = mb_scratch_open(MPI_COMM_SELF, at("absent"), MPI_MODE_RDONLY, MPI_INFO_NULL, &fh, &err);
    EXPECT(rc != MPI_SUCCESS);
    EXPECT(fh == MPI_FILE_NULL);
    EXPECT(err.kind == MB_ERR_RUNTIME);
    EXPECT_STR_CONTAINS(err.msg, "cannot open '");
    EXPECT_STR_CONTAINS(err.msg, "absent' (MPI_File_open, MPI_MODE_RDONLY): ");
    printf("missing file: %s\n", err.msg);

    /* Our scratch file: opened with MPI_ERRORS_RETURN on the handle, even where a new file
     * would inherit a fatal handler from MPI_FILE_NULL. */
    err = (struct mb_error){0};
    EXPECT_EQ_LL(mb_scratch_create(at("io"), 0, &err), 0);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);
    rc = mb_scratch_open(MPI_COMM_SELF, at("io"), MPI_MODE_RDWR, MPI_INFO_NULL, &fh, &err);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    EXPECT_EQ_LL(rc, MPI_SUCCESS);
    if (rc == MPI_SUCCESS) {
        EXPECT_EQ_LL(MPI_File_get_errhandler(fh, &eh), MPI_SUCCESS);
        EXPECT(eh == MPI_ERRORS_RETURN);
        EXPECT_EQ_LL(MPI_File_write(fh, "data", 4, MPI_CHAR, MPI_STATUS_IGNORE), MPI_SUCCESS);
        EXPECT_EQ_LL(MPI_File_close(&fh), MPI_SUCCESS);
    }
    EXPECT_EQ_LL(size_of(at("io")), 4);
    EXPECT(mb_scratch_remove(at("io")) == MB_SCRATCH_REMOVED);

    put(at("hints"), "# b_eff_io -i\ncb_nodes=2\nstriping_factor 4\n");
    EXPECT_EQ_LL(mb_scratch_info_read(at("hints"), &info, &err), 0);
    EXPECT(info != MPI_INFO_NULL);
    if (info != MPI_INFO_NULL) {
        MPI_Info_get(info, "striping_factor", MPI_MAX_INFO_VAL, value, &flag);
        EXPECT(flag && strcmp(value, "4") == 0);
        MPI_Info_get(info, "cb_nodes", MPI_MAX_INFO_VAL, value, &flag);
        EXPECT(flag && strcmp(value, "2") == 0);
        MPI_Info_free(&info);
    }
    put(at("hints"), "cb_nodes\n");
    EXPECT_EQ_LL(mb_scratch_info_read(at("hints"), &info, &err), MB_EXIT_USAGE);
    EXPECT(info == MPI_INFO_NULL);
    unlink(at("hints"));
}

/* MPI_Info entries (core/info.h): what the check accepts, this MPI library's MPI_Info_set
 * accepts too - the longest key and value included - and one character more is refused by
 * the check (Open MPI refuses it too: the off-by-one that aborted b_eff_io -i). */
static void test_info_limits(void)
{
    const size_t kmax = mb_info_key_max(), vmax = mb_info_value_max();
    char *key = malloc(kmax + 2), *value = malloc(vmax + 2), why[160];
    MPI_Info info;

    memset(key, 'k', kmax + 1);
    key[kmax + 1] = '\0';
    memset(value, 'v', vmax + 1);
    value[vmax + 1] = '\0';
    EXPECT_EQ_LL(mb_info_check(key, kmax, value + 1, why, sizeof why), 0);
    EXPECT(mb_info_check(key, kmax + 1, "1", why, sizeof why) != 0);
    EXPECT_STR_CONTAINS(why, "the key is longer than");
    EXPECT(mb_info_check("k", 1, value, why, sizeof why) != 0);
    EXPECT_STR_CONTAINS(why, "the value is longer than");
    MPI_Info_create(&info);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    key[kmax] = '\0';
    EXPECT_EQ_LL(MPI_Info_set(info, key, value + 1), MPI_SUCCESS);
    MPI_Info_free(&info);
    free(key);
    free(value);

    EXPECT(mb_info_check("k", 1, "", why, sizeof why) != 0);
    EXPECT(strcmp(why, "the value is empty") == 0);
    EXPECT(mb_info_check("k", 1, "  ", why, sizeof why) != 0);
    EXPECT(strcmp(why, "the value is blank") == 0);
    EXPECT(mb_info_check("", 0, "v", why, sizeof why) != 0);
    EXPECT(strcmp(why, "the key is empty") == 0);
    EXPECT(mb_info_check("a b", 3, "v", why, sizeof why) != 0);
    EXPECT(strcmp(why, "the key contains a blank") == 0);
    EXPECT(mb_info_check("k", 1, "a\x1b[31m", why, sizeof why) != 0);
    EXPECT(strcmp(why, "the value contains a control character") == 0);
    EXPECT(mb_info_check("k\t", 2, "v", why, sizeof why) != 0);
    EXPECT(strcmp(why, "the key contains a control character") == 0);
    EXPECT_EQ_LL(mb_info_check("cb_config_list=", 14, "*:1 two words", why, sizeof why), 0);
}

/* The test directory holds only files and empty directories by now. */
static void remove_dir(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int left = 0;

    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (unlink(at(e->d_name)) != 0 && rmdir(at(e->d_name)) != 0)
            left++;
    }
    closedir(d);
    EXPECT(rmdir(dir) == 0 && left == 0);
}

int main(int argc, char **argv)
{
    /* The janitors of the children below are this program run anew. */
    if (mb_scratch_janitor_main(argc, argv) >= 0)
        return 2;
    snprintf(dir, sizeof dir, "test_scratch_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_names();
    test_create_and_remove();
    test_identity();
    test_keep();
    test_capacity();
    test_companions();
    test_hints();
    test_fs_info();
    test_exit_paths(); /* forks: before MPI_Init */
    test_directory();  /* forks too */
    test_janitor_shares_no_pages();
    test_janitor_started_on_return();
    test_janitor_mode_by_hand();
    MPI_Init(&argc, &argv);
    test_mpi_io();
    test_info_limits();
    MPI_Finalize();
    EXPECT_EQ_LL(mb_scratch_count(), 0);
    remove_dir();
    return unit_report("test_scratch");
}
