/* SPDX-License-Identifier: BSD-3-Clause */
/* The gathered hardware (core/hardware_gather.h) in the text and JSON headers: one line per
 * distinct host summary with the hosts that have it, and where the ranks run. */
#ifndef MB_HARDWARE_REPORT_H
#define MB_HARDWARE_REPORT_H

#include "core/hardware_gather.h"
#include "core/report_json.h"
#include "core/report_text.h"

#include <stddef.h>

/* The job's host names, count of them, each in len bytes (NUL-terminated). */
struct mb_hw_names {
    const char *names;
    size_t len;
    int count;
};

/* "# Hardware : N hosts (a, b): ..." lines. */
void mb_hw_text(const struct mb_hw_report *r, const struct mb_hw_names *names,
                const struct mb_out *out);
/* "# Placement : ..." lines: how many ranks are bound to one core and one NUMA node, and the
 * first ranks' places. */
void mb_placement_text(const struct mb_hw_report *r, const struct mb_hw_names *names,
                       const struct mb_out *out);
/* "hardware" (one entry per distinct host summary), "placement" (per rank, the first 4096)
 * and "placement_listed". */
void mb_hw_json(const struct mb_hw_report *r, const struct mb_hw_names *names, struct mb_jobj *o);

#endif
