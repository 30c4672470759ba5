/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff's command line (b_eff 3.6's flags and mpibench's own). */
#ifndef MB_BEFF_OPTIONS_H
#define MB_BEFF_OPTIONS_H

#include "core/options.h"
#include "core/provenance.h"

#include <stdio.h>

struct mb_suite;

extern const struct mb_option_set mb_beff_option_set;
extern const struct mb_settings_type mb_beff_settings;

int mb_beff_validate(struct mb_config *cfg, const struct mb_provenance *prov, struct mb_error *err);
void mb_beff_usage(const struct mb_suite *s, FILE *out);

#endif
