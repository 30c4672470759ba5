/* SPDX-License-Identifier: BSD-3-Clause */
/* End-of-run files (the protocol files of b_eff and b_eff_io): created when the run starts,
 * under temporary names PREFIX.EXT.tmp<pid> registered as MB_SCRATCH_TEMPORARY (removed on
 * every abnormal exit, -keep or not), and renamed to PREFIX.EXT when the run ends. An
 * interrupted run leaves no cut or empty protocol, and the files of an earlier run with the
 * same prefix survive it (issue: b_eff wiped them at its start). A temporary name that exists
 * already (left by a run killed outright, whose pid this process now has) is skipped, never
 * touched: the files are then PREFIX.EXT.tmp<pid>.2, .3, ... Only rank 0 calls these. */
#ifndef MB_PROTOFILES_H
#define MB_PROTOFILES_H

#include "core/error.h"
#include "core/scratch.h"
#include "core/userfile.h"

#include <stdio.h>

enum { MB_PROTO_MAX = 6 };

struct mb_protofiles {
    int n;
    char final[MB_PROTO_MAX][MB_SCRATCH_PATH_MAX], temp[MB_PROTO_MAX][MB_SCRATCH_PATH_MAX];
    FILE *f[MB_PROTO_MAX];
    char label[MB_PROTO_MAX][MB_SCRATCH_PATH_MAX + 24]; /* "the protocol file 'F'", for errors */
};

/* Creates the n (<= MB_PROTO_MAX) temporary files of PREFIX.ext[k] and records the final names
 * in files. 0, or 2 with err set and nothing left: a final name that exists as anything but
 * a regular file or names a file of another use (an input, --json), 1000 temporary names
 * that exist, a directory that cannot be written, a path too long. */
int mb_protofiles_open(struct mb_protofiles *p, struct mb_files *files, const char *prefix,
                       const char *const *ext, int n, struct mb_error *err);
/* File k of an interrupted run (SIGINT/SIGTERM) is left as PREFIX.EXT.interrupted, never under
 * its final name, and the program says so on stderr (core/scratch.h, mb_scratch_salvage). The
 * caller flushes it as it writes, so the file holds what was written before the signal.
 * Returns 0 or an error status with err set (the name does not fit). */
int mb_protofiles_salvage(struct mb_protofiles *p, int k, const char *prog, struct mb_error *err);
/* A run cut short by a run-time error it went on from (b_eff_io's I/O error): file k, which
 * the caller has ended with a line saying why, is kept now as a signal would keep it
 * (PREFIX.EXT.interrupted, never over an existing file), the note on stderr says
 * "PROG: WHY; the protocol so far is in ...", and the other files are discarded. */
void mb_protofiles_cut(struct mb_protofiles *p, int k, const char *prog, const char *why);
/* Closes and renames every file; a failure is a run-time error (mb_die). */
void mb_protofiles_commit(struct mb_protofiles *p);
/* Closes and removes the temporary files (a run that ends without results). */
void mb_protofiles_discard(struct mb_protofiles *p);

#endif
