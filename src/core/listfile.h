/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading the one-entry-per-line files of the originals (IMB -msglen and -input, Presta -f):
 * blank lines and '#' comments are skipped, every other line is one entry. Errors name the
 * file and line (a project rule, docs/adr/user-files.md). Only rank 0 calls these. */
#ifndef MB_LISTFILE_H
#define MB_LISTFILE_H

#include "core/error.h"
#include "core/userfile.h"

#include <stddef.h>

/* Called for each entry (leading/trailing blanks removed). Return 0 to go on, or the status
 * of mb_usage(err, ...) to stop; the message should not repeat the file and line: the
 * reader prefixes them. */
/* The longest line read (an entry is a number or a name; hint lines are the longest). */
#define MB_LISTFILE_MAX_LINE 4096

typedef int (*mb_list_entry_fn)(void *user, const char *entry, struct mb_error *err);

/* Reads path, a regular file recorded in files (core/userfile.h; NULL: not recorded) as "the
 * file of <what>"; what names the content in messages
 * ("message lengths", "benchmark names"). Returns 0, or 2 with err set: missing, unreadable
 * or not a regular file, a line too long, a failing entry, or no entry at all. */
int mb_listfile_read(struct mb_files *files, const char *path, const char *what,
                     mb_list_entry_fn fn, void *user, struct mb_error *err);

#endif
