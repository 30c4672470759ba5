/* SPDX-License-Identifier: BSD-3-Clause */
/* The IMB-NBC benchmarks (Intel IMB 2021.11, src_cpp/NBC/NBC_benchmark.cpp), in its order of
 * registration: each non-blocking collective, then its _pure variant, which only a name (or
 * -include) runs. Buffers as the blocking collectives of IMB-MPI1 (imb_table.c), except
 * Ireduce_scatter's: Q blocks of X sent, X received (2021.11's SENDBUF_SIZE_NP_I,
 * RECVBUF_SIZE_I). */
#include "imb/imb_bench.h"
#include "imb/imb_newer_options.h"
#include "imb/imb_settings.h"
#include "imb/imb_suite.h"

/* A collective and its _pure variant (MB_IMB_2021_PAIR, imb_bench.h): a non-blocking start. */
#define NBC_PAIR(label, fn, chk, elem, s, r, prep)                                                 \
    MB_IMB_2021_PAIR(label, MB_IMB_COLLECTIVE, mb_imb_##fn, mb_imb_check_##chk, elem, s, r, prep,  \
                     nbc_start, mb_imb_##fn##_start, 1)

#define X  1, 0
#define QX 1, 1

static const struct mb_imb_bench nbc_benchmarks[] = {
    NBC_PAIR("Ibcast", ibcast, bcast, 1, X, X, NULL),
    NBC_PAIR("Iallgather", iallgather, allgather, 1, X, QX, NULL),
    NBC_PAIR("Iallgatherv", iallgatherv, allgatherv, 1, X, QX, mb_imb_prepare_v),
    NBC_PAIR("Igather", igather, gather, 1, X, QX, NULL),
    NBC_PAIR("Igatherv", igatherv, gatherv, 1, X, QX, mb_imb_prepare_v),
    NBC_PAIR("Iscatter", iscatter, scatter, 1, QX, X, NULL),
    NBC_PAIR("Iscatterv", iscatterv, scatterv, 1, QX, X, mb_imb_prepare_v),
    NBC_PAIR("Ialltoall", ialltoall, alltoall, 1, QX, QX, NULL),
    NBC_PAIR("Ialltoallv", ialltoallv, alltoallv, 1, QX, QX, mb_imb_prepare_v),
    /* Reductions: X/4 floats, MPI_FLOAT, MPI_SUM; lengths in whole floats (0, 4, 8, ...). */
    NBC_PAIR("Ireduce", ireduce, reduce, sizeof(float), X, X, NULL),
    NBC_PAIR("Ireduce_scatter", ireduce_scatter, reduce_scatter, sizeof(float), QX, X,
             mb_imb_prepare_ireduce_scatter),
    NBC_PAIR("Iallreduce", iallreduce, allreduce, sizeof(float), X, X, NULL),
    /* Ibarrier: one row, no #bytes. */
    MB_IMB_2021_PAIR("Ibarrier", MB_IMB_SYNC, mb_imb_ibarrier, mb_imb_check_barrier, 1, 0, 0, 0, 0,
                     NULL, nbc_start, mb_imb_ibarrier_start, 1),
};
#undef NBC_PAIR
#undef X
#undef QX

/* IMB 2021.11's constants are IMB 3.1's (src_c/IMB_settings.h: MSGSPERSAMPLE 1000, OVERALL_VOL
 * 40 MB, MAXMSGLOG 22); it has no start-of-block warm-up (its -warm_up warms every length up)
 * and runs under MPI_Init (imb.cpp). */
const struct mb_imb_family mb_imb_family_nbc = {
    .name = "IMB-NBC",
    .part = "MPI-NBC part",
    .benchmarks = nbc_benchmarks,
    .n = sizeof nbc_benchmarks / sizeof nbc_benchmarks[0],
    .npmin = MB_IMB_NPMIN,
    .msgspersample = MB_IMB_MSGSPERSAMPLE,
    .msgs_nonaggr = MB_IMB_MSGS_NONAGGR,
    .overall_vol_mb = MB_IMB_OVERALL_VOL_MB,
    .maxmsglog = MB_IMB_MAXMSGLOG,
    .warm_x = MB_IMB_ASSIGN_SIZE,
    .warmups = 0,
    /* 2021.11 mallocs them per length (IMB_v_alloc) and frees them after it: the C library's
     * malloc itself, so that glibc's mmap threshold - and with it where the MPI library's
     * temporary buffers come from - moves as in the original (docs/adr/imb-nbc.md). */
    .buffers = MB_BUF_LIBC,
    .imb2021 = 1,
    .suite = {.name = "imb-nbc",
              .legacy = "IMB-NBC",
              .title = "IMB-NBC: non-blocking collectives and their overlap with computation, "
                       "following the Intel IMB 2021.11 methodology",
              .settings = &mb_imb_family_nbc.settings,
              MB_IMB_SUITE_HOOKS(MB_THREAD_SINGLE),
              .owner = &mb_imb_family_nbc},
    .settings = {.size = sizeof(struct mb_imb_config),
                 .defaults = mb_imb_defaults,
                 .sets = {&mb_imb_option_set, &mb_imb_warm_up_set, &mb_imb_mpi1_alloc_set,
                          &mb_imb_nbc_newer_set, &mb_imb_resolved_set},
                 .owner = &mb_imb_family_nbc},
    .examples = "  mpirun -np 4 IMB-NBC\n"
                "  mpirun -np 2 IMB-NBC Ibcast Ibcast_pure -msglog 0:16\n"
                "  mpirun -np 4 IMB-NBC Iallreduce -root_shift on -sync off\n"};
