/* SPDX-License-Identifier: BSD-3-Clause */
/* What the files of the scratch layer share inside core (scratch.c, scratch_checks.c,
 * scratch_companions.c); not for suites, which use core/scratch.h. */
#ifndef MB_SCRATCH_INTERNAL_H
#define MB_SCRATCH_INTERNAL_H

#include "core/error.h"

#include <sys/stat.h>
#include <sys/types.h>

/* How an error names the kind of an entry lstat saw ("a directory", "a FIFO", ...). */
const char *mb_scratch_kind_of(mode_t mode);

/* Takes over the existing regular file path (--force), truncated; *st its identity. 0 or an
 * error (usage: not a regular file, or more than one link). */
int mb_scratch_reuse(const char *path, struct stat *st, struct mb_error *err);

/* 0 when path is not empty and fits MB_SCRATCH_PATH_MAX, else a usage error. */
int mb_scratch_check_path(const char *path, struct mb_error *err);

/* The run-time error of a full registry (more than MB_SCRATCH_MAX entries). */
int mb_scratch_registry_full(struct mb_error *err);

/* Removes the companions of path made by opener's MPI library; async-signal-safe. */
void mb_scratch_remove_companions(const char *path, pid_t opener);

#endif
