/* SPDX-License-Identifier: BSD-3-Clause */
/* The run id every JSON record carries (docs/output.md, "Every record"): one per run, made by
 * rank 0 at the start unless --run-id gives one; the main job passes its own to every phase,
 * so that all records of one `mpibench run` share it. */
#ifndef MB_RUN_ID_H
#define MB_RUN_ID_H

#include "core/config.h"
#include "core/error.h"

#include <stddef.h>

enum { MB_RUN_ID_MAX = 128 };

/* A new id: the UTC start time, the host and the process id, "20261125T202357Z-node1-4242"
 * (unique on one host; the host name keeps hosts apart). */
void mb_run_id_make(char *buf, size_t len);

/* --run-id's check of a given id: 1 to MB_RUN_ID_MAX letters, digits and . _ : + -, so that it
 * can name a file or a database key as it is. 0 or mb_usage(err, ...). */
int mb_run_id_check(struct mb_config *cfg, const char *value, struct mb_error *err);

#endif
