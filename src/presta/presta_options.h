/* SPDX-License-Identifier: BSD-3-Clause */
/* Presta's command lines (as the Presta 1.2 sources parse them) and their validation, with the
 * original's quirks (docs/adr/presta-command-line.md) turned into clear errors. Only rank 0 runs
 * this code. */
#ifndef MB_PRESTA_OPTIONS_H
#define MB_PRESTA_OPTIONS_H

#include "core/suite.h"

#include <stdio.h>

/* The letters shared by com, laten and rma, plus --samples, --sizes and --node-map. */
extern const struct mb_option_set mb_presta_letter_set;

/* Settings of com, laten and rma (the letters), and of allred and globalop (no options). */
extern const struct mb_settings_type mb_presta_letter_settings;
extern const struct mb_settings_type mb_presta_plain_settings;

/* allred's three positional numbers. */
int mb_presta_allred_arg(struct mb_config *cfg, const char *arg, struct mb_error *err);

int mb_presta_validate_com(struct mb_config *cfg, const struct mb_provenance *prov,
                           struct mb_error *err);
int mb_presta_validate_laten(struct mb_config *cfg, const struct mb_provenance *prov,
                             struct mb_error *err);
int mb_presta_validate_rma(struct mb_config *cfg, const struct mb_provenance *prov,
                           struct mb_error *err);
int mb_presta_validate_allred(struct mb_config *cfg, const struct mb_provenance *prov,
                              struct mb_error *err);
int mb_presta_validate_globalop(struct mb_config *cfg, const struct mb_provenance *prov,
                                struct mb_error *err);

/* The original usage texts (Presta 1.2's), printed by -h / --help. */
void mb_presta_usage_com(const struct mb_suite *s, FILE *out);
void mb_presta_usage_laten(const struct mb_suite *s, FILE *out);
void mb_presta_usage_rma(const struct mb_suite *s, FILE *out);
void mb_presta_usage_allred(const struct mb_suite *s, FILE *out);
void mb_presta_usage_globalop(const struct mb_suite *s, FILE *out);

/* --dry-run of all five programs: the process sets, sizes and pairs that would run. */
int mb_presta_dry_run(const struct mb_ctx *ctx, const struct mb_config *cfg);

#endif
