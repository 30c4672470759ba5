/* The headline numbers of a set of results (the main job's summary.txt and index.html,
 * mpibench plot's index.html): b_eff, b_eff_io, PingPong latency and bandwidth, Allreduce
 * 8-byte latency - each taken from the records of the suite that measured it. */
#ifndef MB_HEADLINE_H
#define MB_HEADLINE_H

#include "results/records.h"

#include <stdio.h>

enum { MB_HL_BEFF, MB_HL_BEFFIO, MB_HL_PP_LAT, MB_HL_PP_BW, MB_HL_ALLRED8, MB_HL_N };

struct mb_headline {
    const char *label; /* "PingPong latency" */
    const char *unit;  /* "usec" */
    int present;       /* 0: the records hold no such measurement */
    double value;
    char detail[128]; /* where it comes from: "IMB-MPI1, 0 bytes, 2 processes" */
};

void mb_headlines(const struct mb_records *r, struct mb_headline h[MB_HL_N]);

/* The headline as one text line (with its newline): "  b_eff   3977.03 MB/s  (b_eff, ...)". */
void mb_headline_line(const struct mb_headline *h, char *buf, size_t len);

#endif
