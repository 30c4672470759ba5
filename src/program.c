/* SPDX-License-Identifier: BSD-3-Clause */
/* What mpibench is made of: its suites and its tools (core/suite.h, struct mb_program). The
 * one list of suites, kept above core so that core knows no benchmark: a new suite adds its
 * row here (docs/adding-a-suite.md). The order is `mpibench --help`'s. */
#include "core/suite.h"
#include "imb/imb_bench.h"
#include "results/tools.h"

extern const struct mb_suite mb_suite_run;
extern const struct mb_suite mb_suite_beff;
extern const struct mb_suite mb_suite_beffio;
extern const struct mb_suite mb_suite_presta_com;
extern const struct mb_suite mb_suite_presta_laten;
extern const struct mb_suite mb_suite_presta_rma;
extern const struct mb_suite mb_suite_presta_allred;
extern const struct mb_suite mb_suite_presta_globalop;
extern const struct mb_suite mb_suite_p2p;
extern const struct mb_suite mb_suite_map;
extern const struct mb_suite mb_suite_levels;

static const struct mb_suite *const suites[] = {
    &mb_suite_run,
    &mb_imb_family_mpi1.suite,
    &mb_imb_family_ext.suite,
    &mb_imb_family_io.suite,
    &mb_imb_family_nbc.suite,
    &mb_imb_family_mpi4.suite,
    &mb_suite_p2p,
    &mb_suite_beff,
    &mb_suite_beffio,
    &mb_suite_presta_com,
    &mb_suite_presta_laten,
    &mb_suite_presta_rma,
    &mb_suite_presta_allred,
    &mb_suite_presta_globalop,
    &mb_suite_map,
    &mb_suite_levels,
};

static void tool_line(const char *name, const char *title, void *out)
{
    fprintf(out, "  %-27s %s\n", name, title);
}

static void tools_usage(FILE *out)
{
    mb_tools_list(tool_line, out);
}

const struct mb_program mb_program = {
    .suites = suites,
    .n_suites = sizeof suites / sizeof suites[0],
    .tools_usage = tools_usage,
};
