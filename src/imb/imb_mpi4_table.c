/* SPDX-License-Identifier: BSD-3-Clause */
/* The IMB-MPI4 benchmarks (Intel IMB 2021.11, src_cpp/MPI4/MPI4_benchmark.cpp), in its order of
 * registration: each MPI-4 persistent collective, then its _pure variant, which only a name
 * (or -include) runs - as Allgather_persist, whose DEFAULT flag 2021.11 comments out. Buffers as
 * IMB-NBC's (imb_nbc_table.c), Reduce_scatter_persist like Ireduce_scatter (every process
 * receives X). */
#include "imb/imb_bench.h"
#include "imb/imb_newer_options.h"
#include "imb/imb_settings.h"
#include "imb/imb_suite.h"

/* A persistent collective and its _pure variant (MB_IMB_2021_PAIR, imb_bench.h). */
#define PERSIST_PAIR(label, fn, chk, elem, s, r, prep, not_default)                                \
    MB_IMB_2021_PAIR(label, MB_IMB_COLLECTIVE, mb_imb_##fn, mb_imb_check_##chk, elem, s, r, prep,  \
                     persist_init, mb_imb_##fn##_init, !(not_default))

#define X  1, 0
#define QX 1, 1

static const struct mb_imb_bench mpi4_benchmarks[] = {
    PERSIST_PAIR("Bcast_persist", bcast_persist, bcast, 1, X, X, NULL, 0),
    PERSIST_PAIR("Allgather_persist", allgather_persist, allgather, 1, X, QX, NULL, 1),
    PERSIST_PAIR("Allgatherv_persist", allgatherv_persist, allgatherv, 1, X, QX, mb_imb_prepare_v,
                 0),
    PERSIST_PAIR("Gather_persist", gather_persist, gather, 1, X, QX, NULL, 0),
    PERSIST_PAIR("Gatherv_persist", gatherv_persist, gatherv, 1, X, QX, mb_imb_prepare_v, 0),
    PERSIST_PAIR("Scatter_persist", scatter_persist, scatter, 1, QX, X, NULL, 0),
    PERSIST_PAIR("Scatterv_persist", scatterv_persist, scatterv, 1, QX, X, mb_imb_prepare_v, 0),
    PERSIST_PAIR("Alltoall_persist", alltoall_persist, alltoall, 1, QX, QX, NULL, 0),
    PERSIST_PAIR("Alltoallv_persist", alltoallv_persist, alltoallv, 1, QX, QX, mb_imb_prepare_v, 0),
    /* Reductions: X/4 floats, MPI_FLOAT, MPI_SUM; lengths in whole floats (0, 4, 8, ...). */
    PERSIST_PAIR("Reduce_persist", reduce_persist, reduce, sizeof(float), X, X, NULL, 0),
    PERSIST_PAIR("Reduce_scatter_persist", reduce_scatter_persist, reduce_scatter, sizeof(float),
                 QX, X, mb_imb_prepare_ireduce_scatter, 0),
    PERSIST_PAIR("Allreduce_persist", allreduce_persist, allreduce, sizeof(float), X, X, NULL, 0),
    /* Barrier_persist: one row, no #bytes. */
    MB_IMB_2021_PAIR("Barrier_persist", MB_IMB_SYNC, mb_imb_barrier_persist, mb_imb_check_barrier,
                     1, 0, 0, 0, 0, NULL, persist_init, mb_imb_barrier_persist_init, 1),
};
#undef PERSIST_PAIR
#undef X
#undef QX

/* IMB-NBC's constants and defaults (Intel IMB 2021.11's MPI4_suite.cpp declares the same
 * options as NBC_suite.cpp). */
const struct mb_imb_family mb_imb_family_mpi4 = {
    .name = "IMB-MPI4",
    .part = "MPI-4 part",
    .benchmarks = mpi4_benchmarks,
    .n = sizeof mpi4_benchmarks / sizeof mpi4_benchmarks[0],
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
    .needs_mpi4 = 1,
    .imb2021 = 1,
    .suite = {.name = "imb-mpi4",
              .legacy = "IMB-MPI4",
              .title = "IMB-MPI4: MPI-4 persistent collectives and their overlap with "
                       "computation, following the Intel IMB 2021.11 methodology",
              .settings = &mb_imb_family_mpi4.settings,
              MB_IMB_SUITE_HOOKS(MB_THREAD_SINGLE),
              .owner = &mb_imb_family_mpi4},
    .settings = {.size = sizeof(struct mb_imb_config),
                 .defaults = mb_imb_defaults,
                 .sets = {&mb_imb_option_set, &mb_imb_warm_up_set, &mb_imb_mpi1_alloc_set,
                          &mb_imb_nbc_newer_set, &mb_imb_resolved_set},
                 .owner = &mb_imb_family_mpi4},
    .examples = "  mpirun -np 4 IMB-MPI4\n"
                "  mpirun -np 2 IMB-MPI4 Bcast_persist Bcast_persist_pure -msglog 0:16\n"
                "  mpirun -np 4 IMB-MPI4 Allgather_persist -sync off\n"};
