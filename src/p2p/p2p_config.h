/* SPDX-License-Identifier: BSD-3-Clause */
/* The settings of IMB-P2P (Intel IMB 2021.11, src_c/P2P/imb_p2p.c: loading, initialization). */
#ifndef MB_P2P_CONFIG_H
#define MB_P2P_CONFIG_H

#include "core/config.h"

#include <stddef.h>

struct mb_p2p_config {
    long iter_max;      /* -iter max: at most this many repetitions (100000) */
    long iter_mib;      /* -iter max,numerator: repetitions = numerator MiB / length (800) */
    long long *lengths; /* -msglen, -msglog, -msgsz; NULL = 0, 1, 2, ..., 4 MiB */
    size_t n_lengths;
    int lengths_given; /* -msglen, -msglog or -msgsz made the list (-msgsz appends to it) */
    char *msglen_file; /* -msglen as given */
    char *msglog_text; /* -msglog as given */
    int touch_send;    /* -msgwr: write one byte per 64-byte line of the send buffer per message */
    int touch_recv;    /* -msgrd: read one byte per 64-byte line of the receive buffer */
    long pause_usec;   /* -pause: sleep before each length and after its timing; < 0 none */
    int list;          /* -list: print the benchmarks and stop */
    int *selected;     /* table indices, in the order named; NULL = all eight */
    size_t n_selected;
};

static inline const struct mb_p2p_config *mb_p2p_cfg(const struct mb_config *cfg)
{
    return cfg->settings;
}

#endif
