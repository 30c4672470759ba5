/* SPDX-License-Identifier: BSD-3-Clause */
/* Files the user names: inputs (-msglen, -input, Presta -f and --sizes, -i hint files) and
 * outputs (--json, the files of --output-dir, protocol files). Only regular files are read
 * or written: opening a FIFO blocks until a peer opens its other end - on rank 0, before the
 * watchdog runs, so the whole job hangs - a device can be endless (/dev/zero) or, as root,
 * be removed by an error path (/dev/null).
 *
 * Every file a run reads or writes is recorded by identity in a struct mb_files, so that
 * one file never serves two purposes (--json naming the -msglen file would overwrite it;
 * --json naming a protocol file would interleave both) and an error path removes only the
 * files this run created, checked by device and inode, never by name (docs/adr/user-files.md). Only
 * rank 0 calls these. */
#ifndef MB_USERFILE_H
#define MB_USERFILE_H

#include "core/error.h"

#include <stdio.h>
#include <sys/types.h>

/* The largest input file read (the longest real list is a few kB). */
#define MB_USERFILE_MAX_BYTES (16L * 1024 * 1024)

/* One file of the run. Two uses name the same file when both exist with one device and
 * inode, or when they have one parent directory (by identity) and one last component. */
struct mb_file_use {
    char *path;
    char *role; /* "the --json file", "the file of message lengths" */
    int written, created, exists, has_parent;
    dev_t dev, pdev;
    ino_t ino, pino;
    char *base;
};

struct mb_files {
    size_t n;
    struct mb_file_use *v;
};

/* Opens path for reading and records it as role ("the file of message lengths"); files may
 * be NULL (nothing recorded). NULL with err set (status 2) when it is missing, unreadable,
 * not a regular file, larger than MB_USERFILE_MAX_BYTES, or a file this run writes. */
FILE *mb_userfile_read(struct mb_files *files, const char *path, const char *role,
                       struct mb_error *err);

/* The same for files of at most max_bytes (results files read by mpibench plot and compare);
 * noun names such files in the message of a larger one ("a results file"). */
FILE *mb_userfile_read_max(struct mb_files *files, const char *path, const char *role,
                           long max_bytes, const char *noun, struct mb_error *err);

/* what, "" or ending in a blank ("--json file "), goes before the quoted path in messages;
 * role names the use in the message of a later use of the same file. */

/* For a file written elsewhere and renamed onto path at the end (a rename would replace a
 * FIFO or device): 0 when path does not exist or is a regular file that no other use of
 * the run names (then it is recorded as role); else 2 with err set. */
int mb_userfile_target(struct mb_files *files, const char *path, const char *what, const char *role,
                       struct mb_error *err);

/* Checks like mb_userfile_target, then creates path (recorded as created by this run) or
 * opens the existing regular file WITHOUT truncating it: when a run writes several files,
 * it empties them (mb_userfile_truncate) only once all are open, so that a refusal of the
 * last leaves the others as they were. NULL with err set (status 2) when it cannot be
 * written, exists as anything but a regular file (checked again after the open, which never
 * blocks) or is named by another use. */
FILE *mb_userfile_write(struct mb_files *files, const char *path, const char *what,
                        const char *role, struct mb_error *err);

/* Empties a file opened by mb_userfile_write: 0, or 2 with err set. */
int mb_userfile_truncate(FILE *f, const char *path, const char *what, struct mb_error *err);

/* Removes the files this run created (mb_userfile_write) if they are still the same files
 * (device and inode); everything else stays. Call it while those files are still open: the
 * inode number of a file that is gone can be given to a new file of the same name. */
void mb_files_remove_created(const struct mb_files *files);

void mb_files_free(struct mb_files *files);

/* What a file of mode m is, for messages: "a regular file", "a FIFO", "a device", ... */
const char *mb_file_kind(mode_t m);

#endif
