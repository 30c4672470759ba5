/* SPDX-License-Identifier: BSD-3-Clause */
/* The IMB-IO benchmarks (IMB guide 4.2.4-4.2.5, Table 1), in the order of a default run of the
 * original IMB-IO (writes, then reads, then Open_Close), spelled as it prints them
 * ("S_Write_Indv"; names are matched case-insensitively, so the guide's "S_Write_indv" works).
 *
 * Classes (4.2.1): S_ are single transfers on one process with its own file, P_ parallel
 * transfers, C_ collective calls; all report X/t with X the bytes moved by the whole group per
 * transfer (each process moves its share of X, buffers {1, 0, split}). Blocking writes run
 * in aggregate and non-aggregate mode, reads and the non-blocking benchmarks in aggregate mode
 * only (4.2.2.2, 4.2.5). */
#include "imb/imb_bench.h"
#include "imb/imb_newer_options.h"
#include "imb/imb_settings.h"
#include "imb/imb_suite.h"

#define IO_ROW(label, cls_, exact, file_, rsplit)                                                  \
    .name = label, .cls = cls_, .exact_procs = exact, .time_scale = 1, .bw_factor = 1,             \
    .elem_size = 1, .sbuf = {1, 0, 1}, .rbuf = {1, 0, rsplit}, .file = file_,                      \
    .setup = mb_imb_io_setup, .setup_first = 1, .teardown = mb_imb_io_teardown,                    \
    .prepare = mb_imb_io_prepare, .reset = mb_imb_io_reset

/* A blocking write and its non-blocking twin (start, wait; one_by_one for split collectives). */
#define WRITE(label, cls, exact, file, tiled, shptr, fn, chk, rsplit)                              \
    {                                                                                              \
        IO_ROW(label, cls, exact, file, rsplit),                                                   \
            .io = {0, tiled, shptr}, .aggregate = 1, .complete = mb_imb_io_sync,                   \
            .written = mb_imb_io_written, .kernel = mb_imb_io_##fn, .check = mb_imb_io_check_##chk \
    }
#define IWRITE(label, cls, exact, file, tiled, shptr, fn, chk, rsplit, start, wait, obo)           \
    {                                                                                              \
        IO_ROW(label, cls, exact, file, rsplit),                                                   \
            .io = {0, tiled, shptr}, .aggregate_only = 1, .complete = mb_imb_io_sync,              \
            .written = mb_imb_io_written, .kernel = mb_imb_io_##fn, .istart = mb_imb_io_##start,   \
            .iwait = mb_imb_io_##wait, .one_by_one = obo, .check = mb_imb_io_check_##chk           \
    }
#define READ(label, cls, exact, file, tiled, shptr, fn, chk)                                       \
    {                                                                                              \
        IO_ROW(label, cls, exact, file, 1), .io = {1, tiled, shptr}, .aggregate_only = 1,          \
                                            .kernel = mb_imb_io_##fn,                              \
                                            .check = mb_imb_io_check_##chk                         \
    }
#define IREAD(label, cls, exact, file, tiled, shptr, fn, chk, start, wait, obo)                    \
    {                                                                                              \
        IO_ROW(label, cls, exact, file, 1), .io = {1, tiled, shptr}, .aggregate_only = 1,          \
                                            .kernel = mb_imb_io_##fn, .istart = mb_imb_io_##start, \
                                            .iwait = mb_imb_io_##wait, .one_by_one = obo,          \
                                            .check = mb_imb_io_check_##chk                         \
    }

#define S   MB_IMB_SINGLE
#define P   MB_IMB_PARALLEL
#define C   MB_IMB_COLLECTIVE
#define OWN MB_IMB_PRIVATE_FILES
#define ONE MB_IMB_SHARED_FILE

static const struct mb_imb_bench io_benchmarks[] = {
    /* 4.2.4.1-2: one process, its own file; individual pointer or explicit offsets. */
    WRITE("S_Write_Indv", S, 1, OWN, 0, 0, write, write, 1),
    IWRITE("S_IWrite_Indv", S, 1, OWN, 0, 0, write, write, 1, iwrite, waitall, 0),
    WRITE("S_Write_Expl", S, 1, OWN, 0, 0, write_at, write, 1),
    IWRITE("S_IWrite_Expl", S, 1, OWN, 0, 0, write_at, write, 1, iwrite_at, waitall, 0),
    /* 4.2.4.3-6: all processes, one file (tiled view, shared pointer, explicit offsets) or
     * private files. The shared pointer's check reads the whole tile: rbuf holds X. */
    WRITE("P_Write_Indv", P, 0, ONE, 1, 0, write, write, 1),
    IWRITE("P_IWrite_Indv", P, 0, ONE, 1, 0, write, write, 1, iwrite, waitall, 0),
    WRITE("P_Write_Shared", P, 0, ONE, 0, 1, write_shared, write_shared, 0),
    IWRITE("P_IWrite_Shared", P, 0, ONE, 0, 1, write_shared, write_shared, 0, iwrite_shared,
           waitall, 0),
    WRITE("P_Write_Priv", P, 0, OWN, 0, 0, write, write, 1),
    IWRITE("P_IWrite_Priv", P, 0, OWN, 0, 0, write, write, 1, iwrite, waitall, 0),
    WRITE("P_Write_Expl", P, 0, ONE, 0, 0, write_at, write, 1),
    IWRITE("P_IWrite_Expl", P, 0, ONE, 0, 0, write_at, write, 1, iwrite_at, waitall, 0),
    /* 4.2.4.7-9: collective calls; the shared pointer is ordered (blocks in rank order). */
    WRITE("C_Write_Indv", C, 0, ONE, 1, 0, write_all, write, 1),
    IWRITE("C_IWrite_Indv", C, 0, ONE, 1, 0, write_all, write, 1, write_all_begin, write_all_end,
           1),
    WRITE("C_Write_Shared", C, 0, ONE, 0, 1, write_ordered, write, 1),
    IWRITE("C_IWrite_Shared", C, 0, ONE, 0, 1, write_ordered, write, 1, write_ordered_begin,
           write_ordered_end, 1),
    WRITE("C_Write_Expl", C, 0, ONE, 0, 0, write_at_all, write, 1),
    IWRITE("C_IWrite_Expl", C, 0, ONE, 0, 0, write_at_all, write, 1, write_at_all_begin,
           write_at_all_end, 1),
    READ("S_Read_Indv", S, 1, OWN, 0, 0, read, read),
    IREAD("S_IRead_Indv", S, 1, OWN, 0, 0, read, read, iread, waitall, 0),
    READ("S_Read_Expl", S, 1, OWN, 0, 0, read_at, read),
    IREAD("S_IRead_Expl", S, 1, OWN, 0, 0, read_at, read, iread_at, waitall, 0),
    READ("P_Read_Indv", P, 0, ONE, 1, 0, read, read),
    IREAD("P_IRead_Indv", P, 0, ONE, 1, 0, read, read, iread, waitall, 0),
    READ("P_Read_Shared", P, 0, ONE, 0, 1, read_shared, read_shared),
    IREAD("P_IRead_Shared", P, 0, ONE, 0, 1, read_shared, read_shared, iread_shared, waitall, 0),
    READ("P_Read_Priv", P, 0, OWN, 0, 0, read, read),
    IREAD("P_IRead_Priv", P, 0, OWN, 0, 0, read, read, iread, waitall, 0),
    READ("P_Read_Expl", P, 0, ONE, 0, 0, read_at, read),
    IREAD("P_IRead_Expl", P, 0, ONE, 0, 0, read_at, read, iread_at, waitall, 0),
    READ("C_Read_Indv", C, 0, ONE, 1, 0, read_all, read),
    IREAD("C_IRead_Indv", C, 0, ONE, 1, 0, read_all, read, read_all_begin, read_all_end, 1),
    READ("C_Read_Shared", C, 0, ONE, 0, 1, read_ordered, read),
    IREAD("C_IRead_Shared", C, 0, ONE, 0, 1, read_ordered, read, read_ordered_begin,
          read_ordered_end, 1),
    READ("C_Read_Expl", C, 0, ONE, 0, 0, read_at_all, read),
    IREAD("C_IRead_Expl", C, 0, ONE, 0, 0, read_at_all, read, read_at_all_begin, read_at_all_end,
          1),
    /* 4.2.4.10: open, a one-byte write, close - by all processes, one row, no throughput
     * (IMB prints it as a Sync type: #repetitions t_min t_max t_avg). */
    {.name = "Open_Close",
     .cls = MB_IMB_OTHER,
     .time_scale = 1,
     .elem_size = 1,
     .sizeless = 1,
     .file = MB_IMB_SHARED_FILE,
     .setup = mb_imb_io_setup,
     .setup_first = 1,
     .teardown = mb_imb_io_teardown,
     .kernel = mb_imb_io_open_close,
     .check = mb_imb_io_check_none},
};
#undef S
#undef P
#undef C
#undef OWN
#undef ONE
#undef WRITE
#undef IWRITE
#undef READ
#undef IREAD
#undef IO_ROW

/* settings_io.h (guide 5.2.1): 50 / 10 repetitions, 16 MB per sample, lengths to 2^24, no
 * warm-up, Pmin 1. */
const struct mb_imb_family mb_imb_family_io = {
    .name = "IMB-IO",
    .part = "MPI-IO part",
    .benchmarks = io_benchmarks,
    .n = sizeof io_benchmarks / sizeof io_benchmarks[0],
    .npmin = MB_IMB_IO_NPMIN,
    .msgspersample = MB_IMB_IO_MSGSPERSAMPLE,
    .msgs_nonaggr = MB_IMB_IO_MSGS_NONAGGR,
    .overall_vol_mb = MB_IMB_IO_OVERALL_VOL_MB,
    .maxmsglog = MB_IMB_IO_MAXMSGLOG,
    .warm_x = 0,
    .warmups = 0,
    .list_break_after = "C_IWrite_Expl",
    .io = 1,
    .can_stop = 1, /* failed I/O calls */
    .buffers = MB_BUF_MPI,
    .suite = {.name = "imb-io",
              .legacy = "IMB-IO",
              .title = "IMB-IO: MPI-IO part, following the IMB 3.1 methodology",
              .settings = &mb_imb_family_io.settings,
              MB_IMB_SUITE_HOOKS(MB_THREAD_MULTIPLE),
              .owner = &mb_imb_family_io},
    .settings = {.size = sizeof(struct mb_imb_config),
                 .defaults = mb_imb_defaults,
                 .sets = {&mb_imb_option_set, &mb_imb_io_set, &mb_imb_io_newer_set,
                          &mb_imb_resolved_set},
                 .owner = &mb_imb_family_io},
    .examples = "  mpirun -np 8 IMB-IO\n"
                "  mpirun -np 14 IMB-IO P_Read_shared -npmin 7\n"
                "  mpirun -np 4 IMB-IO S_Write_indv P_IRead_priv --dir /scratch/me -msglen lens\n"};
