/* SPDX-License-Identifier: BSD-3-Clause */
/* The headline numbers of a set of results (the main job's summary.txt, index.html and
 * job_result record, mpibench plot's index.html): b_eff, b_eff_io, PingPong latency and
 * bandwidth, Allreduce 8-byte latency - each described by the row of the record type it comes
 * from (results/record_types.c), in the order of the rows. */
#ifndef MB_HEADLINE_H
#define MB_HEADLINE_H

#include "results/records.h"

#include <stdio.h>

enum { MB_HL_MAX = 16 };

struct mb_headline {
    const char *label; /* "PingPong latency" */
    const char *unit;  /* "usec" */
    const char *key;   /* the main job's job_result field: "pingpong_latency_usec" */
    int present;       /* 0: the records hold no such measurement */
    double value;
    char detail[128]; /* where it comes from: "IMB-MPI1, 0 bytes, 2 processes" */
    char why[160];    /* not present: "not present: one socket per host (vm)", or "" */
};

struct mb_headline_set {
    size_t n;
    struct mb_headline h[MB_HL_MAX];
};

void mb_headlines(const struct mb_records *r, struct mb_headline_set *hl);

/* The headline as one text line (with its newline): "  b_eff   3977.03 MB/s  (b_eff, ...)". */
void mb_headline_line(const struct mb_headline *h, char *buf, size_t len);

#endif
