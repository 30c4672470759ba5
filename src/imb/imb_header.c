/* SPDX-License-Identifier: BSD-3-Clause */
/* The IMB text header and footer (IMB guide 6, samples 6.1, 6.2 and 6.4), with mpibench's
 * provenance and effective settings added as further '#' lines so that parsers keyed on
 * "# Benchmarking" and "#bytes" keep working. */
#include "imb/imb_header.h"

#include "core/provenance.h"
#include "core/scratch.h"
#include "imb/imb_cpu.h"
#include "imb/imb_settings.h"
#include "mb_version.h"

#include <string.h>

/* IMB repeats the command line wrapped after every 6 words (IMB_show_selections). */
static void calling_sequence(const struct mb_out *out, const char *cmdline)
{
    const char *p = cmdline;
    int words = 0;

    mb_printf(out, "\n\n# Calling sequence was: \n\n#");
    while (*p) {
        size_t len = strcspn(p, " ");
        if (words > 0 && words % 6 == 0)
            mb_printf(out, "\n#  ");
        mb_printf(out, " %.*s", (int)len, p);
        words++;
        p += len;
        while (*p == ' ')
            p++;
    }
    mb_printf(out, "\n\n");
}

/* IMB-IO (IMB_show_selections under MPIIO): the I/O portions, and where the files go - the
 * directory and its file system, which decide what the numbers mean. */
static void io_lines(const struct mb_out *out, const struct mb_config *cfg,
                     const struct mb_imb_plan *plan)
{
    const struct mb_imb_config *c = mb_imb_cfg(cfg);
    const char *dir = c->io_dir ? c->io_dir : ".";
    struct mb_fs_info fs;
    struct mb_error err = {0};

    if (c->lengths) {
        mb_printf(out, "# IO lengths were user defined\n");
    } else {
        mb_printf(out, "# Minimum io portion in bytes:   %d\n", 0);
        mb_printf(out, "# Maximum io portion in bytes:   %d\n", 1 << plan->family->maxmsglog);
    }
    mb_printf(out, "#\n");
    if (mb_scratch_fs_info(dir, &fs, &err) == 0)
        mb_printf(out, "# Scratch files in       : %s (file system %s, %.1f GB free)\n", dir,
                  fs.type, (double)fs.free_bytes / 1e9);
    else
        mb_printf(out, "# Scratch files in       : %s (file system unknown: %s)\n", dir, err.msg);
    mb_printf(out, "# Scratch file name      : %s%s\n",
              c->io_file ? c->io_file : MB_IMB_IO_FILENAME,
              c->io_keep ? " (kept after the run: -keep)" : " (removed after each benchmark)");
}

void mb_imb_header(const struct mb_ctx *ctx, const struct mb_config *cfg,
                   const struct mb_imb_plan *plan)
{
    const struct mb_out *out = &ctx->out;
    const struct mb_provenance *p = ctx->prov;
    const char *const dashes = "#------------------------------------------------------------";

    /* mpibench's name and the methodology it follows, not the original's product name: IMB
     * 3.1's trademark licence (license/use-of-trademark-license.txt) allows that name only for
     * results of Intel's unchanged source (docs/adr/licence-and-names.md). */
    mb_printf(out, "%s\n#    mpibench %s: %s (%s), following the %s methodology\n%s\n", dashes,
              MB_VERSION, plan->family->name, plan->family->part,
              plan->family->imb2021 ? "Intel IMB 2021.11" : "IMB 3.1", dashes);
    mb_provenance_imb_lines(p, out);
    mb_provenance_text(p, out);
    if (cfg->common.check)
        mb_printf(out, "#\n# !! CHECK MODE (--check): every received buffer is verified.\n"
                       "# !! These results are not valid as benchmark data.\n");
    calling_sequence(out, cfg->cmdline);
    if (plan->family->io) {
        io_lines(out, cfg, plan);
    } else {
        if (mb_imb_cfg(cfg)->lengths) {
            mb_printf(out, "# Message lengths were user defined\n");
        } else {
            /* -msglog and -zero_size off as Intel IMB 2021 prints them (MPI1_suite.cpp). */
            const struct mb_imb_config *c = mb_imb_cfg(cfg);
            mb_printf(out, "# Minimum message length in bytes:   %d\n",
                      c->no_zero_size ? 1 << (c->msglog_given ? c->msglog_min : 0) : 0);
            mb_printf(out, "# Maximum message length in bytes:   %d\n",
                      1 << (c->msglog_given ? c->msglog_max : plan->family->maxmsglog));
        }
        mb_printf(out, "#\n");
        mb_printf(out, "# MPI_Datatype                   :   MPI_BYTE \n");
        mb_printf(out, "# MPI_Datatype for reductions    :   MPI_FLOAT\n");
        mb_printf(out, "# MPI_Op                         :   MPI_SUM  \n");
    }
    mb_printf(out, "#\n");
    mb_settings_text(ctx->suite, cfg, out);
    mb_printf(out, "#\n\n# List of Benchmarks to run:\n\n");
    for (size_t i = 0; i < plan->n; i++) {
        /* One line per benchmark, not per process count. */
        if (i > 0 && plan->items[i].bench == plan->items[i - 1].bench &&
            plan->items[i].multi == plan->items[i - 1].multi)
            continue;
        mb_printf(out, "# %s%s\n", plan->items[i].multi >= 0 ? "(Multi-)" : "",
                  plan->family->benchmarks[plan->items[i].bench].name);
    }
    if (plan->cpu) {
        /* Rank 0's calibration, as IMB prints it (IMB_show_selections). */
        mb_printf(out, "\n\n# For nonblocking benchmarks:\n\n");
        mb_printf(out, "# Function CPU_Exploit obtains an undisturbed\n");
        mb_printf(out, "# performance of %7.2f MFlops\n", plan->cpu->mflops);
    }
    mb_flush(out);
}
