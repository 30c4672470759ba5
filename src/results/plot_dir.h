/* SPDX-License-Identifier: BSD-3-Clause */
/* The output directory of `mpibench plot -o DIR` (docs/adr/plot-output-directory.md): plot
 * writes into a directory of its own, which it creates, so that no file of the user's is
 * ever overwritten; an existing DIR is refused before any work unless --force, with which
 * only the files mpibench plot writes (results/plot.h mb_plot_files) are replaced. */
#ifndef MB_PLOT_DIR_H
#define MB_PLOT_DIR_H

#include "core/error.h"

/* Before any work: 0 when dir does not exist and its parent is a directory, or, with force,
 * when dir is a directory (also through a symbolic link) in which every file named like one
 * of plot's is a regular file (not a symbolic link, FIFO, device or directory); else 2 with
 * err set naming -o and dir. Nothing is created or changed. */
int mb_plot_dir_check(const char *dir, int force, struct mb_error *err);

/* After the inputs were read: creates dir (without force mkdir itself is the final check -
 * an EEXIST is refused as above), or, with force, checks it again and removes plot's own
 * files from it, so that gnuplot and the writers create each of them anew and a plot
 * absent from this run's results leaves no stale image behind. 0, or 2 with err set. */
int mb_plot_dir_prepare(const char *dir, int force, struct mb_error *err);

#endif
