/* SPDX-License-Identifier: BSD-3-Clause */
/* The IMB-EXT benchmarks (IMB guide 4.2.3), in the order of the guide's sample 6.4, which is
 * also the order of a default run. Buffer demand per process is one X-byte buffer on each side
 * (the origin and the window), 2X as IMB 3.1's program allocates it; with -win_disp sections
 * one X-byte section per repetition on each side, Table 20's 2 max(X, OVERALL_VOL). */
#include "imb/imb_bench.h"
#include "imb/imb_newer_options.h"
#include "imb/imb_settings.h"
#include "imb/imb_suite.h"

/* Unidir/Bidir are single transfers between 2 processes (4.2.1.1): t = t(M), throughput X/t
 * (Tables 3-6); aggregate and non-aggregate (Table 1). Put targets a window over the
 * receive buffers, Get one over the send buffers; a window per length unless -win_scope block. */
#define ONE_SIDED(label, fn, setup_fn)                                                             \
    {                                                                                              \
        .name = label, .cls = MB_IMB_SINGLE, .exact_procs = 2, .time_scale = 1, .bw_factor = 1,    \
        .elem_size = 1, .sbuf = {1, 0, 0}, .rbuf = {1, 0, 0}, .sections = 1, .aggregate = 1,       \
        .setup = setup_fn, .teardown = mb_imb_ext_teardown, .open_length = mb_imb_ext_open_length, \
        .close_length = mb_imb_ext_close_length, .complete = mb_imb_ext_fence,                     \
        .kernel = mb_imb_##fn, .batch = mb_imb_##fn##_batch, .check = mb_imb_check_##fn            \
    }

static const struct mb_imb_bench ext_benchmarks[] = {
    /* Window (4.2.3.6): no class, times as a collective, the non-aggregate repetition count
     * (sample 6.4: 100 repetitions); its kernel creates and frees the window itself. */
    {.name = "Window",
     .cls = MB_IMB_OTHER,
     .time_scale = 1,
     .elem_size = 1,
     .sbuf = {1, 0, 0},
     .rbuf = {1, 0, 0},
     .nonaggr_reps = 1,
     .setup = mb_imb_ext_setup_groups,
     .teardown = mb_imb_ext_teardown,
     .kernel = mb_imb_window,
     .check = mb_imb_check_window},
    ONE_SIDED("Unidir_Get", unidir_get, mb_imb_ext_setup_get),
    ONE_SIDED("Unidir_Put", unidir_put, mb_imb_ext_setup_put),
    ONE_SIDED("Bidir_Get", bidir_get, mb_imb_ext_setup_get),
    ONE_SIDED("Bidir_Put", bidir_put, mb_imb_ext_setup_put),
    /* Accumulate (4.2.3.5): MPI_FLOAT, MPI_SUM into root 0, collective, no throughput. */
    {.name = "Accumulate",
     .cls = MB_IMB_COLLECTIVE,
     .time_scale = 1,
     .elem_size = sizeof(float),
     .sbuf = {1, 0, 0},
     .rbuf = {1, 0, 0},
     .sections = 1,
     .aggregate = 1,
     .setup = mb_imb_ext_setup_put,
     .teardown = mb_imb_ext_teardown,
     .open_length = mb_imb_ext_open_length,
     .close_length = mb_imb_ext_close_length,
     .complete = mb_imb_ext_fence,
     .kernel = mb_imb_accumulate,
     .batch = mb_imb_accumulate_batch,
     .check = mb_imb_check_accumulate},
};
#undef ONE_SIDED

/* settings.h holds the same constants for IMB-MPI1 and IMB-EXT (guide 5.2.1); the warm-up
 * length is sizeof(assign_type) = sizeof(float) (5.2.5, 5.2.6). IMB 3.1 counts the lengths of
 * every IMB-EXT benchmark in floats (IMB.c: unit_size is MPI_FLOAT's size under EXT), so they
 * run 0, 4, 8, ... as sample 6.4 prints, and -msglen entries are rounded up to 4
 * (docs/adr/program-lengths-in-floats.md); the transfers themselves stay MPI_BYTE. */
const struct mb_imb_family mb_imb_family_ext = {
    .name = "IMB-EXT",
    .part = "MPI-2 part",
    .benchmarks = ext_benchmarks,
    .n = sizeof ext_benchmarks / sizeof ext_benchmarks[0],
    .npmin = MB_IMB_NPMIN,
    .msgspersample = MB_IMB_MSGSPERSAMPLE,
    .msgs_nonaggr = MB_IMB_MSGS_NONAGGR,
    .overall_vol_mb = MB_IMB_OVERALL_VOL_MB,
    .maxmsglog = MB_IMB_MAXMSGLOG,
    .warm_x = sizeof(float),
    .len_unit = sizeof(float),
    .warmups = MB_IMB_N_WARMUP,
    .can_stop = 1, /* refused windows */
    .buffers = MB_BUF_MPI,
    .suite =
        {.name = "imb-ext",
         .legacy = "IMB-EXT",
         .title =
             "IMB-EXT: one-sided communication (MPI-2 part), following the IMB 3.1 methodology",
         .settings = &mb_imb_family_ext.settings,
         MB_IMB_SUITE_HOOKS(MB_THREAD_MULTIPLE),
         .owner = &mb_imb_family_ext},
    .settings = {.size = sizeof(struct mb_imb_config),
                 .defaults = mb_imb_defaults,
                 .sets = {&mb_imb_option_set, &mb_imb_warm_up_set, &mb_imb_ext_set,
                          &mb_imb_ext_newer_set, &mb_imb_resolved_set},
                 .owner = &mb_imb_family_ext},
    .examples = "  mpirun -np 11 IMB-EXT -npmin 5\n"
                "  mpirun -np 3 IMB-EXT -input IMB_SELECT_EXT\n"
                "  mpirun -np 4 IMB-EXT -multi 0 Unidir_Put Accumulate --info no_locks=true\n"};
