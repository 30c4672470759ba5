/* IMB-MPI1 command line (IMB guide 5.1.2). */
#ifndef MB_IMB_OPTIONS_H
#define MB_IMB_OPTIONS_H

#include "core/options.h"
#include "core/provenance.h"

#include <stdio.h>

extern const struct mb_option_set mb_imb_option_set;

int mb_imb_positional(struct mb_config *cfg, const char *arg, struct mb_error *err);
int mb_imb_validate(struct mb_config *cfg, const struct mb_provenance *prov, struct mb_error *err);
void mb_imb_usage(FILE *out);

#endif
