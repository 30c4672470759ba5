/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB-P2P's options, validation, help and repetition rule (p2p_options.c). */
#ifndef MB_P2P_OPTIONS_H
#define MB_P2P_OPTIONS_H

#include "core/suite.h"
#include "p2p/p2p_config.h"

#include <stdio.h>

extern const struct mb_settings_type mb_p2p_settings;

int mb_p2p_positional(struct mb_config *cfg, const char *arg, struct mb_error *err);
int mb_p2p_validate(struct mb_config *cfg, const struct mb_provenance *prov, struct mb_error *err);
void mb_p2p_usage(const struct mb_suite *s, FILE *out);

/* Intel IMB 2021.11's rule (imb_p2p.h get_iters): n = round(numerator MiB / x) within
 * 1 .. max (max at 0 bytes), and n / 10 warm-up repetitions, at least 1 when n > 1. */
void mb_p2p_iters(const struct mb_p2p_config *c, long long x, long *n, long *w);

#endif
