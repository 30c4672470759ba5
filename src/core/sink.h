/* SPDX-License-Identifier: BSD-3-Clause */
/* Result streams whose failed writes are run-time errors naming the file: a full disk,
 * stdout on /dev/full or closed once ended a run with status 0 and cut or empty files
 * (docs/adr/user-files.md). Rank 0 only. */
#ifndef MB_SINK_H
#define MB_SINK_H

#include <stddef.h>
#include <stdio.h>

/* A stream and how messages name it: "standard output", "the --json file 'r.jsonl'". A JSON
 * Lines sink also carries what every record written to it names (docs/output.md, "Every
 * record"): the run id and the suite; NULL in a sink that is not a results file. */
struct mb_sink {
    FILE *f;
    const char *name;
    const char *run_id, *suite;
};

/* Flushes f; when this or any earlier write to f failed: mb_die("cannot write NAME: ..."). */
void mb_sink_flush(FILE *f, const char *name);

/* The same check without ending the process: 0, or -1 with "cannot write NAME: ..." in msg.
 * For the tools (mpibench plot, compare), which run without MPI and end by their own exit
 * status (mb_die before MPI_Init aborts). */
int mb_sink_check(FILE *f, const char *name, char *msg, size_t len);

/* The same, then closes f (a failing close is fatal too). */
void mb_sink_close(FILE *f, const char *name);

/* Writes the len bytes of s (one JSON record) to f at once; on a failure f is cut back to
 * where the record began, then mb_die. */
void mb_sink_write(FILE *f, const char *name, const char *s, size_t len);

#endif
