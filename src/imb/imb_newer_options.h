/* SPDX-License-Identifier: BSD-3-Clause */
/* The options of Intel IMB 2019-2021 that mpibench's IMB programs accept or refuse by name
 * (imb_newer_options.c; docs/adr/imb-2021-options.md). */
#ifndef MB_IMB_NEWER_OPTIONS_H
#define MB_IMB_NEWER_OPTIONS_H

#include "core/options.h"

/* The rows of IMB-MPI1, IMB-EXT, IMB-IO and IMB-NBC. */
extern const struct mb_option_set mb_imb_mpi1_newer_set;
extern const struct mb_option_set mb_imb_ext_newer_set;
extern const struct mb_option_set mb_imb_io_newer_set;
extern const struct mb_option_set mb_imb_nbc_newer_set;

/* Intel IMB 2019's boolean words (on, yes, true, enable, 1 / off, no, false, disable, 0, some
 * in capitals): 0 with *out set, or -1. */
int mb_imb_bool_word(const char *value, int *out);

/* Rank 0, during validation: -include and -exclude applied to the selected benchmarks. */
int mb_imb_newer_validate(struct mb_config *cfg, struct mb_error *err);

#endif
