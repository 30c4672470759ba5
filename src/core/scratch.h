/* SPDX-License-Identifier: BSD-3-Clause */
/* Scratch files of the I/O suites (IMB-IO: IMB 3.1 guide 5.2.3.2; b_eff_io: the b_eff_io 2.1
 * source's scratch files; the rules: docs/adr/scratch-files.md): names in a directory, creation
 * that never takes over a file this run did not create, and a cleanup registry that removes exactly
 * the files this process created on every exit path - normal end, mb_die, the --timeout watchdog,
 * SIGINT/SIGTERM and, through a janitor process, a SIGKILL - unless the user asked to keep them
 * (-keep). Also the MPI-IO pieces both suites need: an open that returns errors with a readable
 * message, MPI-IO hints from a file, and the file-system description for headers.
 *
 * Division of work with MPI-IO: the process that owns a name creates it here (open with
 * O_CREAT|O_EXCL is what tells "ours" from "someone else's"), then the processes that use it
 * open it with mb_scratch_open. A file that MPI-IO removes (MPI_MODE_DELETE_ON_CLOSE) and
 * creates again (MPI_MODE_CREATE) is a new file with a new identity: the owner calls
 * mb_scratch_register again, or the cleanup leaves it alone as "replaced behind our back".
 *
 * Error reporting: functions that can fail take a struct mb_error (core/error.h), record the
 * first failure there and return its exit status (0 = success): MB_ERR_USAGE (2) for what the
 * user chose (a too-long path, an existing file without --force), MB_ERR_RUNTIME (1) for what
 * the system refused. The caller decides whether to agree on it (mb_agree) or to mb_die. */
#ifndef MB_SCRATCH_H
#define MB_SCRATCH_H

#include "core/error.h"

#include <mpi.h>
#include <signal.h>
#include <stddef.h>

/* Capacity of the cleanup registry, per process, and the longest path it holds (with the
 * terminating NUL; Linux's PATH_MAX). It is a fixed static array because a signal handler may
 * not allocate. 128 covers b_eff_io's worst case on one process (at most 10 partitions x 5
 * pattern types as in the b_eff_io 2.1 source, all on disk from write to read) with room to spare;
 * creating more is an error the caller reports, never a file left untracked. */
enum { MB_SCRATCH_MAX = 128, MB_SCRATCH_PATH_MAX = 4096 };

/* ---- names ------------------------------------------------------------------------------ */

/* out = dir "/" name, where name is printf-formatted; dir NULL or "" means the current
 * directory (name alone), a trailing '/' on dir is not doubled. The result must fit both cap
 * and MB_SCRATCH_PATH_MAX: a longer path is an error (MB_ERR_USAGE), never a truncation, and
 * leaves out empty. The naming policy stays with the callers (b_eff_io:
 * "b_eff_io_data_i%02d_%03d_%d" as in the b_eff_io 2.1 source). */
int mb_scratch_pathf(char *out, size_t cap, struct mb_error *err, const char *dir, const char *fmt,
                     ...) __attribute__((format(printf, 5, 6)));
int mb_scratch_join(char *out, size_t cap, const char *dir, const char *name, struct mb_error *err);

/* The scratch directory an I/O suite was given (IMB-IO --dir, b_eff_io -p) exists, is a
 * directory and takes new files; else MB_ERR_USAGE "invalid value 'DIR' for OPTION: why". */
int mb_scratch_dir_check(const char *dir, const char *option, struct mb_error *err);

/* IMB-IO's names (IMB 3.1 guide 5.2.3.2): dir/base, then "_g<group>" in Multi mode (group >= 0) and
 * "_<rank>" for a private per-process file (rank >= 0); a negative value leaves its suffix
 * out. Example: (".", "IMB_out", 1, 3) gives "./IMB_out_g1_3". */
int mb_scratch_path(char *out, size_t cap, const char *dir, const char *base, int group, int rank,
                    struct mb_error *err);

/* The up-front check of both I/O suites (IMB-IO --dir/--file, b_eff_io -p), on rank 0 before
 * any output: every entry of dir whose name ours(name, user) says this run would create is
 * refused (MB_ERR_USAGE, naming it and what to do: "choose <elsewhere>") - without force
 * always; with force when mb_scratch_create would refuse to take it over: anything but a
 * regular file (a symbolic link, a FIFO, a directory, a device), or a file with other hard
 * links. The run then stops before its header, instead of failing at its first file. */
typedef int (*mb_scratch_name_fn)(const char *name, const void *user);
int mb_scratch_check_existing(const char *dir, const char *dir_option, mb_scratch_name_fn ours,
                              const void *user, int force, const char *elsewhere,
                              struct mb_error *err);

/* ---- creation and the cleanup registry ---------------------------------------------------
 * Not thread-safe: one thread of the process creates and removes. */

/* Creates path as an empty regular file and registers it for cleanup. An existing path is
 * refused (MB_ERR_USAGE, naming what is there) unless flags has MB_SCRATCH_FORCE; then an
 * existing regular file with no other hard link is taken over - truncated, registered and later
 * removed like one this run created (docs/adr/scratch-files.md: --force). Anything that
 * is not a regular file (directory, FIFO, device, socket, symbolic link - even to a regular file)
 * is refused even with force. MB_SCRATCH_TEMPORARY marks a file that is removed on every exit
 * path even in keep mode (b_eff_io's protocol files under their temporary names: -keep keeps
 * the data files, never a half-written protocol). A full registry is MB_ERR_RUNTIME and no file
 * is created. */
enum { MB_SCRATCH_FORCE = 1u, MB_SCRATCH_TEMPORARY = 2u };
int mb_scratch_create(const char *path, unsigned flags, struct mb_error *err);

/* Registers a regular file that this run has just created by other means - MPI_File_open
 * with MPI_MODE_CREATE|MPI_MODE_EXCL, or MPI_MODE_CREATE on a name the caller created with
 * mb_scratch_create and MPI-IO deleted on close. Only the caller can know that: registering
 * someone else's file would make the cleanup delete it. An already registered path takes the
 * file's current identity. */
int mb_scratch_register(const char *path, struct mb_error *err);

/* Creates the directory path (mode 0777 less the umask) for this run's scratch files and
 * registers it: every exit path removes it once it is empty, after the files (the janitor
 * waits a few seconds for the other processes of the job to remove theirs from it). An
 * existing path is MB_ERR_USAGE, never reused. mb_scratch_remove(path) removes it at a normal
 * end; mb_scratch_remove_all leaves it to its maker. */
int mb_scratch_mkdir(const char *path, struct mb_error *err);

/* Called by mb_scratch_open on rank 0 of the file's communicator: the MPI library of this
 * process may make companion files beside path (a shared file pointer: Open MPI's
 * "NAME-<jobid>-<pid>.lock", ROMIO's ".NAME.shfp.<number>.<pid>"), removed by MPI_File_close
 * but left by a process that is killed. Every exit path then removes those that carry this
 * process's pid, also in keep mode; a path this process did not create is watched for them
 * only. After the first call for a path this is a lookup (IMB's Open_Close times opens).
 * Returns 1 when it started watching a path it did not know (to forget if the open fails). */
int mb_scratch_opened(const char *path);

/* Whether the directory entry name is a companion of the file named base made by the MPI
 * library of process pid (the patterns above). */
int mb_scratch_is_companion(const char *entry, const char *base, long pid);

/* Whether path is registered by this process and still the file it registered (same device
 * and inode): a file this run created, which it may overwrite (IMB-IO -keep: the next
 * benchmark reuses the name). */
int mb_scratch_is_ours(const char *path);

/* Drops path from the registry without touching the file (it was deleted on close, or is
 * handed on deliberately). Unknown paths are ignored. */
void mb_scratch_forget(const char *path);

/* Number of registered files. */
int mb_scratch_count(void);

/* What removing one registered file did. Only a file whose device and inode are still the
 * ones recorded at creation is unlinked: a file replaced behind our back is left alone. */
enum mb_scratch_outcome {
    MB_SCRATCH_REMOVED,  /* unlinked */
    MB_SCRATCH_KEPT,     /* keep mode: left in place on purpose */
    MB_SCRATCH_GONE,     /* already gone (deleted on close, or by someone else) */
    MB_SCRATCH_REPLACED, /* another file is at the path now: left alone */
    MB_SCRATCH_FAILED,   /* unlink failed; errno says why */
    MB_SCRATCH_UNKNOWN   /* path is not in the registry: nothing done */
};

/* Removes one registered file and forgets it (except for MB_SCRATCH_UNKNOWN). */
enum mb_scratch_outcome mb_scratch_remove(const char *path);

/* Normal end: every registered file handled as by mb_scratch_remove; the registry is empty
 * afterwards. The tally lets the caller report files kept, replaced or not removable. */
struct mb_scratch_tally {
    int removed, kept, gone, replaced, failed;
    int failed_errno; /* errno of the last unlink that failed */
};
struct mb_scratch_tally mb_scratch_remove_all(void);

/* Keep mode (b_eff_io -keep as in b_eff_io 2.1, IMB-IO -keep): while on, no path of this module
 * unlinks a file (except MB_SCRATCH_TEMPORARY ones) - normal end, mb_die, timeout, signals and the
 * janitor alike - and the files stay for the user. */
void mb_scratch_keep(int keep);
int mb_scratch_keeping(void);

/* The abnormal-exit cleanup: unlinks every registered file whose identity still matches (none
 * in keep mode) and empties the registry. Async-signal-safe (lstat and unlink only); called
 * by mb_die before MPI_Abort, by the --timeout watchdog before _exit, and by the SIGINT and
 * SIGTERM handlers below. Between lstat and unlink someone could still swap the file: the
 * check narrows that window to a few instructions, a path-based unlink cannot close it. */
void mb_scratch_cleanup(void);

/* The janitor: a child process that waits until this process has ended - however it ended,
 * SIGKILL included - and then removes what is still registered (nothing after a normal end).
 * Started once per process, by mb_scratch_signals_install; it holds no resources of the
 * process (it closes every inherited descriptor) and calls only async-signal-safe functions.
 * On Linux, in a program whose main calls mb_scratch_janitor_main, it is that program run
 * anew with posix_spawn and shares no page with the process; elsewhere, or where the spawn
 * fails, a forked child (docs/adr/scratch-janitor-spawn.md). Where the registry cannot be
 * shared with a child (no shared mapping) or neither works there is no janitor and the other
 * paths still clean up. */
void mb_scratch_janitor_start(void);

/* The janitor mode's command line: argv[0] and the only argument. Not an option of any suite
 * (absent from --help): only mb_scratch_janitor_start gives it. */
#define MB_SCRATCH_JANITOR_ARG0 "mpibench-clean"
#define MB_SCRATCH_JANITOR_ARG1 "--scratch-janitor"

/* The janitor mode, the first call of main (before MPI_Init and any parsing): returns -1 and
 * does nothing else unless argv is exactly the janitor mode's command line; then it never
 * returns - it runs the janitor on the registry handed over on descriptor 3 and the pipe on
 * descriptor 4, or exits with status 2 at once, writing nothing, where descriptor 3 is not a
 * sealed memfd of the registry's size or 4 not a pipe. The call also marks the program as one
 * that knows the mode, so that mb_scratch_janitor_start may spawn it. */
int mb_scratch_janitor_main(int argc, char **argv);

/* An interrupted run's partial output (b_eff_io's protocol): on SIGINT or SIGTERM the handlers
 * below move the registered file path to `to` instead of removing it, and write note to
 * stderr. Only those two handlers do: mb_die, the watchdog, the janitor (after a SIGKILL) and a
 * normal end still remove it. One such file per process; a later call replaces the earlier,
 * clear ends it (before the file is renamed into place). An existing `to` is never replaced:
 * the move is a hard link and an unlink, and where `to` has appeared since it was chosen the
 * file is removed as on any other exit path. Returns 0, or MB_ERR_USAGE/MB_ERR_RUNTIME with err
 * set (names too long, path not registered). */
int mb_scratch_salvage(const char *path, const char *to, const char *note, struct mb_error *err);
void mb_scratch_salvage_clear(void);
/* The same move now, outside any handler (a run that went on from a run-time error): the
 * registered file goes to `to` and the note to stderr, as a SIGINT would do. */
void mb_scratch_salvage_now(void);

/* SIGINT and SIGTERM handlers (mpirun forwards both to the ranks) that run mb_scratch_cleanup
 * and then re-raise the signal with the default action, so the process ends as it would have
 * without them (status "killed by SIGTERM", 128+15 in a shell). A signal that is ignored at
 * install time (a background job under a non-interactive shell ignores SIGINT) stays ignored.
 * install also starts the janitor; restore puts back the handlers install found. */
struct mb_scratch_signals {
    struct sigaction previous[2];
    int installed[2];
};
void mb_scratch_signals_install(struct mb_scratch_signals *saved);
void mb_scratch_signals_restore(const struct mb_scratch_signals *saved);

/* ---- MPI-IO ------------------------------------------------------------------------------ */

/* MPI_File_open over comm, then MPI_ERRORS_RETURN on the file so that later I/O errors come
 * back as codes. On failure *fh is MPI_FILE_NULL, err holds "cannot open 'path'
 * (MPI_File_open, MPI_MODE_...): <reason>" (MB_ERR_RUNTIME) and the MPI error code is
 * returned (MPI_SUCCESS otherwise). It adds no communication - IMB's Open_Close times it -
 * so a failure is local: when other processes must learn of it, the caller agrees on it.
 * Errors of MPI_File_open itself go to MPI_FILE_NULL's handler, MPI_ERRORS_RETURN by default
 * (MPI-3.1 §13.7), which mpibench never changes. */
int mb_scratch_open(MPI_Comm comm, const char *path, int amode, MPI_Info info, MPI_File *fh,
                    struct mb_error *err);

/* Collective over comm, after rank 0 of comm created path and a barrier: every process must
 * open that same file (same inode), i.e. the directory must be one that every process sees.
 * A node-local directory (/tmp on each node) gives the processes of other hosts no such file,
 * or another one of that name, and Open MPI 4.1's MPI_File_open then hangs: the processes
 * whose open failed wait in the cleanup of their failed open, the others in the set-up of the
 * shared file pointer. Returns when every process sees the file; otherwise rank 0 of comm
 * ends the job (mb_die) with one message naming the file, a process that does not see it and
 * the hosts of both, followed by hint (what the suite can do with a node-local directory);
 * the other processes wait for that end. Open rather than stat: opening revalidates cached
 * lookups on NFS (close-to-open consistency), a stat may answer from a cache.
 * A file that rank 0 of comm, which created it, no longer sees itself was removed behind the
 * run's back (its directory too), which says nothing about sharing: then every process returns
 * MB_EXIT_RUNTIME, rank 0 with err set ("scratch file '...' is gone: <reason>"), for the
 * caller's agreed run-time error; 0 otherwise. */
int mb_scratch_require_shared(const char *path, MPI_Comm comm, const char *hint,
                              struct mb_error *err);

/* How far a file reaches after writes, collective over comm (the file's communicator): the
 * largest MPI_File_get_size any process sees - a process sees its own writes, and on a file
 * system with cached attributes (NFS) the others' may lag. Returns get_size's MPI error code
 * (the reduction runs either way, so no process is left waiting). Used after b_eff_io's timed
 * write loops: Open MPI 4.1's collective writes return success with the full count on a full
 * disk, so only the file's size tells (IMB-IO presets its files' size and reads the last
 * bytes of a loop back instead, imb_io.c). */
int mb_scratch_file_extent(MPI_File fh, MPI_Comm comm, MPI_Offset *largest);

/* A readable message for an MPI (I/O) error code: the common I/O classes in plain words,
 * then the class name and the library's own text, e.g. "no space left on device
 * (MPI_ERR_NO_SPACE: <MPI_Error_string>)". Needs MPI to be initialised. */
void mb_scratch_mpi_message(int code, char *out, size_t cap);

/* MPI-IO hints from a file (b_eff_io -i FILE; the b_eff_io 2.1 source's info file): one "key value"
 * or "key=value" per line (blanks around '=' allowed, the value is the rest of the line), blank
 * lines and '#' comments skipped (core/listfile.h). Keys and values must fit MPI_MAX_INFO_KEY and
 * MPI_MAX_INFO_VAL; a later line overrides an earlier one with the same key, as MPI_Info_set
 * does. Errors name the file and line (MB_ERR_USAGE); a file without any hint is an error.
 * hints_read needs no MPI (only rank 0 reads) and gives "key=value\n" lines (malloc'd)
 * to broadcast; info_read turns a file straight into an MPI_Info the caller frees. */
int mb_scratch_hints_read(const char *path, char **lines, struct mb_error *err);
int mb_scratch_info_read(const char *path, MPI_Info *info, struct mb_error *err);

/* ---- the file system, for the I/O suites' headers ---------------------------------------- */

/* type: "ext2/ext3/ext4", "xfs", "btrfs", "tmpfs", "nfs", "lustre", "gpfs", "overlayfs", "zfs"
 * and a few more by statfs magic number (Linux), else the number in hex ("0x1234abcd"), or
 * "unknown" where statfs has no type. Sizes from statvfs: free_bytes is what an unprivileged
 * user may still write. MB_ERR_RUNTIME if dir cannot be examined. */
struct mb_fs_info {
    char type[32];
    unsigned long magic; /* 0 where unknown */
    unsigned long long free_bytes, total_bytes;
};
int mb_scratch_fs_info(const char *dir, struct mb_fs_info *fs, struct mb_error *err);

/* The up-front space check of the I/O suites (rank 0, while validating; b_eff_io -p, IMB-IO
 * --dir; docs/adr/io-space-check.md): need bytes of scratch files must fit share x the free
 * space of dir (share 1 = all of it). Otherwise a usage error (status 2) naming the directory,
 * the space needed (what: how it was counted), the space free and what to change (advice):
 * "the scratch files need at least 16.8 MB in 'DIR' (what), but it has 0.3 MB free; advice".
 * *free_bytes (may be NULL) gets the free space. A directory that cannot be examined is a
 * usage error naming option. */
int mb_scratch_space_check(const char *dir, const char *option, unsigned long long need,
                           double share, const char *what, const char *advice,
                           unsigned long long *free_bytes, struct mb_error *err);

#endif
