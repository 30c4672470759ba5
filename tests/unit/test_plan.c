/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB rules as data: repetitions (guide 5.2.8), lengths (5.2.4), buffer demand against
 * Table 20 (7.1), off-cache rotation (5.1.2.4), -time and -mem. */
#include "core/buffers.h"
#include "imb/imb_driver.h"
#include "imb/imb_offcache.h"
#include "imb/imb_plan.h"
#include "imb/imb_settings.h"
#include "unit.h"

#include <limits.h>
#include <stdlib.h>

#define MB (1024LL * 1024LL)

static const struct mb_imb_bench *bench(const char *name)
{
    int i = mb_imb_find(&mb_imb_family_mpi1, name);
    EXPECT(i >= 0);
    return &mb_imb_family_mpi1.benchmarks[i < 0 ? 0 : i];
}

static const struct mb_imb_bench *io_bench(const char *name)
{
    int i = mb_imb_find(&mb_imb_family_io, name);
    EXPECT(i >= 0);
    return &mb_imb_family_io.benchmarks[i < 0 ? 0 : i];
}

static long long demand(const char *name, long long x, int q, int check)
{
    struct mb_imb_config c = {0};
    struct mb_imb_demand d = mb_imb_demand(bench(name), x, q, &c, check);
    return (long long)(d.sregion + d.rregion);
}

int main(void)
{
    struct mb_imb_config c = {0};
    long long lens[64];
    size_t n;

    /* Repetitions: standard MSGSPERSAMPLE 1000, OVERALL_VOL 40 MB (samples 6.1, 6.2). */
    EXPECT_EQ_LL(mb_imb_msgspersample(&c), 1000);
    EXPECT_EQ_LL(mb_imb_overall_vol(&c), 40 * MB);
    EXPECT_EQ_LL(mb_imb_reps(0, 1000, 40 * MB), 1000);
    EXPECT_EQ_LL(mb_imb_reps(32768, 1000, 40 * MB), 1000);
    EXPECT_EQ_LL(mb_imb_reps(65536, 1000, 40 * MB), 640);
    EXPECT_EQ_LL(mb_imb_reps(131072, 1000, 40 * MB), 320);
    EXPECT_EQ_LL(mb_imb_reps(4194304, 1000, 40 * MB), 10);
    EXPECT_EQ_LL(mb_imb_reps(100000, 1000, 40 * MB), 419);
    EXPECT_EQ_LL(mb_imb_reps(1000000, 1000, 40 * MB), 41);
    EXPECT_EQ_LL(mb_imb_reps(1LL << 31, 1000, 40 * MB), 1); /* at least one */
    /* -iter a,b,c overrides MSGSPERSAMPLE and OVERALL_VOL (MB). */
    c.msgspersample = 2000;
    c.overall_vol_mb = 100;
    EXPECT_EQ_LL(mb_imb_msgspersample(&c), 2000);
    EXPECT_EQ_LL(mb_imb_reps(0, mb_imb_msgspersample(&c), mb_imb_overall_vol(&c)), 2000);
    EXPECT_EQ_LL(mb_imb_reps(4194304, mb_imb_msgspersample(&c), mb_imb_overall_vol(&c)), 25);
    EXPECT_EQ_LL(mb_imb_reps(4096, 20, mb_imb_overall_vol(&c)), 20);
    c = (struct mb_imb_config){0};

    /* -time: as many repetitions as fit, within 1..n_sample. */
    EXPECT_EQ_LL(mb_imb_reps_for_time(1000, 1.5, 0.01), 150);
    EXPECT_EQ_LL(mb_imb_reps_for_time(1000, 1.5, 1e-6), 1000);
    EXPECT_EQ_LL(mb_imb_reps_for_time(10, 0.1, 1.0), 1);
    EXPECT_EQ_LL(mb_imb_reps_for_time(20, 1.5, 0.1), 15);

    /* Standard lengths: 0, 1, 2, ..., 4 MB; reductions 0, 4, 8, ...; Barrier one row. */
    n = mb_imb_lengths(bench("PingPong"), &c, lens);
    EXPECT_EQ_LL(n, 24);
    EXPECT_EQ_LL(lens[0], 0);
    EXPECT_EQ_LL(lens[1], 1);
    EXPECT_EQ_LL(lens[23], 4194304);
    n = mb_imb_lengths(bench("Allreduce"), &c, lens);
    EXPECT_EQ_LL(n, 22);
    EXPECT_EQ_LL(lens[1], 4);
    EXPECT_EQ_LL(lens[2], 8);
    EXPECT_EQ_LL(lens[21], 4194304);
    EXPECT_EQ_LL(mb_imb_lengths(bench("Barrier"), &c, lens), 1);
    {
        /* Intel IMB 2021's -msglog 2:4 and -zero_size off (docs/adr/imb-2021-options.md). */
        struct mb_imb_config m = {.msglog_given = 1, .msglog_min = 2, .msglog_max = 4};
        EXPECT_EQ_LL(mb_imb_max_lengths(&m), 4);
        n = mb_imb_lengths(bench("PingPong"), &m, lens);
        EXPECT_EQ_LL(n, 4);
        EXPECT_EQ_LL(lens[0], 0);
        EXPECT_EQ_LL(lens[1], 4);
        EXPECT_EQ_LL(lens[3], 16);
        m.msglog_min = 0;
        m.no_zero_size = 1;
        n = mb_imb_lengths(bench("Allreduce"), &m, lens);
        EXPECT_EQ_LL(n, 3); /* 4, 8, 16 */
        EXPECT_EQ_LL(lens[0], 4);
        /* -iter_policy: off = msgspersample everywhere; multiple_np = Intel's hyperbola in
         * Q x max(X, 4) against 2^22, a multiple of Q, at least Q; auto = that for Bcast only. */
        struct mb_imb_config p = {.iter_policy = MB_IMB_ITER_OFF};
        EXPECT_EQ_LL(mb_imb_reps_of(bench("PingPong"), MB_IMB_AGGREGATE, 4194304, 2, &p), 1000);
        EXPECT_EQ_LL(mb_imb_time_limit(&p), 0);
        p.iter_policy = MB_IMB_ITER_MULTIPLE_NP;
        EXPECT_EQ_LL(mb_imb_reps_of(bench("Bcast"), MB_IMB_AGGREGATE, 0, 3, &p), 999);
        EXPECT_EQ_LL(mb_imb_reps_of(bench("Bcast"), MB_IMB_AGGREGATE, 131072, 3, &p), 912);
        EXPECT_EQ_LL(mb_imb_reps_of(bench("Bcast"), MB_IMB_AGGREGATE, 4194304, 2, &p), 332);
        EXPECT_EQ_LL(mb_imb_reps_of(bench("Bcast"), MB_IMB_AGGREGATE, 4194304, 2000, &p), 2000);
        p.iter_policy = MB_IMB_ITER_AUTO;
        EXPECT_EQ_LL(mb_imb_reps_of(bench("Bcast"), MB_IMB_AGGREGATE, 4194304, 2, &p), 332);
        EXPECT_EQ_LL(mb_imb_reps_of(bench("Allreduce"), MB_IMB_AGGREGATE, 4194304, 2, &p), 10);
        EXPECT(mb_imb_time_limit_of(bench("Allreduce"), &p) == 10.0);
        EXPECT(mb_imb_time_limit_of(bench("Bcast"), &p) == 0.0);
    }
    {
        long long user[] = {0, 1, 7, 100, 4096};
        c.lengths = user;
        c.n_lengths = 5;
        EXPECT_EQ_LL(mb_imb_max_lengths(&c), 5);
        n = mb_imb_lengths(bench("Reduce_scatter"), &c, lens);
        EXPECT_EQ_LL(n, 5);
        EXPECT_EQ_LL(lens[1], 4); /* rounded up to whole floats, as IMB 3.1's IMB.c */
        EXPECT_EQ_LL(lens[2], 8);
        EXPECT_EQ_LL(lens[3], 100);
        n = mb_imb_lengths(bench("Gather"), &c, lens);
        EXPECT_EQ_LL(lens[2], 7);
        c = (struct mb_imb_config){0};
    }
    {
        /* IMB-EXT counts every benchmark in floats: 0, 4, 8, ... (22 rows), -msglen rounded
         * up; near INT_MAX rounding up would leave the int range: rounded down there. */
        struct mb_imb_config ext = {.family = mb_imb_family_index(&mb_imb_family_ext)};
        long long user[] = {1, 5, 2147483647LL};
        const struct mb_imb_bench *put =
            &mb_imb_family_ext.benchmarks[mb_imb_find(&mb_imb_family_ext, "Unidir_Put")];
        const struct mb_imb_bench *win =
            &mb_imb_family_ext.benchmarks[mb_imb_find(&mb_imb_family_ext, "Window")];
        EXPECT_EQ_LL(mb_imb_lengths(put, &ext, lens), 22);
        EXPECT_EQ_LL(lens[1], 4);
        EXPECT_EQ_LL(lens[21], 4194304);
        EXPECT_EQ_LL(mb_imb_lengths(win, &ext, lens), 22);
        EXPECT_EQ_LL(lens[2], 8);
        ext.lengths = user;
        ext.n_lengths = 3;
        EXPECT_EQ_LL(mb_imb_lengths(put, &ext, lens), 3);
        EXPECT_EQ_LL(lens[0], 4);
        EXPECT_EQ_LL(lens[1], 8);
        EXPECT_EQ_LL(lens[2], 2147483644LL);
        EXPECT_EQ_LL(mb_imb_length_unit(bench("PingPong"), &c), 1);
        EXPECT_EQ_LL(mb_imb_length_unit(put, &ext), 4);
    }

    /* Table 20, standard mode (X = 4 MB): per process memory for the message buffers. */
    EXPECT_EQ_LL(demand("PingPong", 4 * MB, 2, 0), 8 * MB);
    EXPECT_EQ_LL(demand("Sendrecv", 4 * MB, 16, 0), 8 * MB);
    EXPECT_EQ_LL(demand("Exchange", 4 * MB, 16, 0), 12 * MB);
    EXPECT_EQ_LL(demand("Alltoall", 4 * MB, 16, 0), 16 * 8 * MB);
    EXPECT_EQ_LL(demand("Alltoallv", 4 * MB, 7, 0), 7 * 8 * MB);
    EXPECT_EQ_LL(demand("Allgather", 4 * MB, 8, 0), 9 * 4 * MB);
    EXPECT_EQ_LL(demand("Allgatherv", 4 * MB, 8, 0), 9 * 4 * MB);
    EXPECT_EQ_LL(demand("Reduce", 4 * MB, 8, 0), 8 * MB);
    EXPECT_EQ_LL(demand("Allreduce", 4 * MB, 8, 0), 8 * MB);
    EXPECT_EQ_LL(demand("Reduce_scatter", 4 * MB, 8, 0), 8 * MB);
    EXPECT_EQ_LL(demand("Bcast", 4 * MB, 8, 0), 8 * MB);
    EXPECT_EQ_LL(demand("Barrier", 4 * MB, 8, 0), 0);
    /* Not in Table 20 (new in 3.1): the root role needs Q*X. */
    EXPECT_EQ_LL(demand("Scatter", 4 * MB, 8, 0), 9 * 4 * MB);
    EXPECT_EQ_LL(demand("Gather", 4 * MB, 8, 0), 9 * 4 * MB);
    /* Check mode keeps Exchange's two received messages apart. */
    EXPECT_EQ_LL(demand("Exchange", 4 * MB, 2, 1), 16 * MB);
    {
        struct mb_imb_demand d = mb_imb_demand(bench("Allgatherv"), 1LL << 30, 4, &c, 0);
        EXPECT(d.int_overflow); /* 4 GB of displacements do not fit an int */
        d = mb_imb_demand(bench("Allreduce"), 1LL << 30, 4, &c, 0);
        EXPECT(!d.int_overflow);
    }

    /* Off-cache (5.1.2.4): buffers 2 lines apart, reused only after > 2x cache was touched. */
    {
        const unsigned long long cache = 8 * MB, line = 64;
        const size_t sizes[] = {0, 1, 64, 1000, 65536, 4 * MB, 32 * MB};
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            struct mb_slots s = mb_slots_for(sizes[k], sizes[k], cache, line);
            size_t pair = s.sstride + s.rstride;
            EXPECT(s.sstride >= sizes[k] + 2 * line);
            EXPECT(s.sstride % line == 0);
            EXPECT((s.n - 1) * pair > 2 * cache);  /* enough buffers ... */
            EXPECT((s.n - 2) * pair <= 2 * cache); /* ... and not more */
            for (long i = 0; i < 5; i++) {
                size_t a = mb_slot_offset(s.sstride, s.n, i),
                       b = mb_slot_offset(s.sstride, s.n, i + 1);
                EXPECT(b == 0 || b - a >= sizes[k] + 2 * line);
            }
            EXPECT(mb_slot_offset(s.sstride, s.n, (long)s.n) == 0); /* wraps around */
        }
        /* Memory added is about 2x the cache (Table 20 note). */
        c.cache_bytes = cache;
        c.cache_line = line;
        {
            struct mb_imb_demand d = mb_imb_demand(bench("PingPong"), 1024, 2, &c, 0);
            EXPECT(d.sregion + d.rregion > 2 * cache);
            EXPECT(d.sregion + d.rregion < 2 * cache + 4 * (d.slots.sstride + d.slots.rstride));
        }
        /* Off: one buffer of each. */
        c = (struct mb_imb_config){0};
        EXPECT_EQ_LL(mb_slots_for(100, 200, 0, 64).n, 1);
    }
    /* IMB-IO with -iter's largest MSGSPERSAMPLE (OVERALL_VOL stays 16 MB): a read's file holds
     * the tiles its loops reach (guide 4.2.2.2.2) - n x X for a shared file, n x the first
     * process's portion (whole ints, at most X) for a private one, nothing at 0 bytes - and
     * only independent non-blocking rows hold a request and a status per transfer, in the
     * demand that -mem caps. */
    {
        const struct mb_imb_config io = {.family = mb_imb_family_index(&mb_imb_family_io),
                                         .msgspersample = INT_MAX};
        const size_t per = sizeof(MPI_Request) + sizeof(MPI_Status);
        EXPECT_EQ_LL(mb_imb_io_file_bytes(io_bench("S_Read_Indv"), 0, 1, &io), 0);
        EXPECT_EQ_LL(mb_imb_io_file_bytes(io_bench("S_Read_Indv"), 1, 1, &io), 16 * MB);
        EXPECT_EQ_LL(mb_imb_io_file_bytes(io_bench("P_Read_Priv"), 1, 2, &io), 16 * MB);
        EXPECT_EQ_LL(mb_imb_io_file_bytes(io_bench("P_Read_Priv"), 10, 3, &io), 16 * MB / 10 * 4);
        EXPECT_EQ_LL(mb_imb_io_file_bytes(io_bench("P_Read_Indv"), 1000, 4, &io),
                     16 * MB / 1000 * 1000);
        EXPECT_EQ_LL(mb_imb_io_file_bytes(io_bench("P_Read_Indv"), 0, 4, &io), 0);
        EXPECT_EQ_LL(mb_imb_demand(io_bench("P_IRead_Indv"), 0, 2, &io, 0).requests,
                     (long long)INT_MAX * (long long)per);
        EXPECT_EQ_LL(mb_imb_demand(io_bench("P_IRead_Indv"), 1, 2, &io, 0).requests,
                     16 * MB * (long long)per);
        EXPECT_EQ_LL(mb_imb_demand(io_bench("C_IRead_Indv"), 0, 2, &io, 0).requests, 0);
        EXPECT_EQ_LL(mb_imb_demand(io_bench("S_Read_Indv"), 0, 1, &io, 0).requests, 0);
        {
            struct mb_imb_config capped = io;
            struct mb_imb_demand d = mb_imb_demand(io_bench("P_IRead_Indv"), 0, 2, &io, 0);
            capped.mem_cap = 1ULL << 30;
            EXPECT(!mb_imb_runnable(&d, &capped));
            /* -buf_scope run: each of the run's buffers at least X in whole ints (4 bytes). */
            EXPECT(mb_imb_demand_bytes(&d) == 4 + 4 + d.requests);
            capped.buf_scope = MB_IMB_BUF_SCOPE_BLOCK;
            d = mb_imb_demand(io_bench("P_IRead_Indv"), 0, 2, &capped, 0);
            EXPECT(mb_imb_demand_bytes(&d) == d.sregion + d.rregion + d.requests);
        }
        /* -mem counts what -buf_scope run allocates: X per buffer, as IMB 3.1 checks 2 X
         * (IMB_mem_manager.c), not the shares X/Q of -buf_scope block. */
        {
            struct mb_imb_config blk = io;
            struct mb_imb_demand d = mb_imb_demand(io_bench("P_Write_Indv"), MB, 2, &io, 0);
            EXPECT_EQ_LL((long long)mb_imb_demand_bytes(&d), 2 * MB);
            blk.buf_scope = MB_IMB_BUF_SCOPE_BLOCK;
            d = mb_imb_demand(io_bench("P_Write_Indv"), MB, 2, &blk, 0);
            EXPECT_EQ_LL((long long)mb_imb_demand_bytes(&d), MB);
        }
    }
    /* The up-front space check's need (docs/adr/io-space-check.md), standard lengths and
     * repetitions on 2 processes: a benchmark's files at once, each at its preset size (16 MiB
     * = OVERALL_VOL for every file a process count reaches) plus the slack. P_Write_Priv: one
     * private file on 1 process, two of 8 MiB (half of X each) on 2; with -keep a name's
     * largest file stays, so rank 0's 16 MiB and rank 1's 8 MiB. P_Write_Indv: one shared
     * file, one name. A -mem cap that leaves out the long lengths shrinks the need. */
    {
        struct mb_imb_config io = {
            .family = mb_imb_family_index(&mb_imb_family_io), .multi = -1, .mem_cap = ULLONG_MAX};
        struct mb_config cfg = {0};
        int sel = MB_IMB_SEL(mb_imb_find(&mb_imb_family_io, "P_Write_Priv"), 0);
        const long long slack = MB_IMB_IO_FILE_SLACK;

        cfg.settings = &io;
        cfg.nprocs = 2;
        io.selected = &sel;
        io.n_selected = 1;
        EXPECT_EQ_LL((long long)mb_imb_io_disk_need(&cfg), 16 * MB + 2 * slack);
        io.io_keep = 1;
        EXPECT_EQ_LL((long long)mb_imb_io_disk_need(&cfg), 24 * MB + 2 * slack);
        sel = MB_IMB_SEL(mb_imb_find(&mb_imb_family_io, "P_Write_Indv"), 0);
        EXPECT_EQ_LL((long long)mb_imb_io_disk_need(&cfg), 16 * MB + slack);
        io.io_keep = 0;
        EXPECT_EQ_LL((long long)mb_imb_io_disk_need(&cfg), 16 * MB + slack);
        io.mem_cap = 4096; /* a write's two buffers of X: lengths up to 2 KiB run, 50 x 2 KiB */
        EXPECT_EQ_LL((long long)mb_imb_io_disk_need(&cfg), 50 * 2048 + slack);
    }
    /* The warm-up's two samples touch two buffers of their length's layout, not the sections
     * of a whole loop (IMB-EXT: 1000 x 4 bytes) nor the whole off-cache rotation. */
    {
        struct mb_imb_config ext = {.family = mb_imb_family_index(&mb_imb_family_ext)};
        int i = mb_imb_find(&mb_imb_family_ext, "Unidir_Put");
        struct mb_imb_demand d, w;
        EXPECT(i >= 0);
        /* By default one X-byte buffer per side (IMB 3.1: displacement 0); with -win_disp
         * sections one section per repetition (guide 4.2.2.2, Table 20). */
        d = mb_imb_demand(&mb_imb_family_ext.benchmarks[i < 0 ? 0 : i], 4, 2, &ext, 0);
        EXPECT_EQ_LL(d.sregion + d.rregion, 2 * 4);
        EXPECT_EQ_LL(d.slots.n, 1);
        d = mb_imb_demand(&mb_imb_family_ext.benchmarks[i < 0 ? 0 : i], 4 * MB, 2, &ext, 0);
        EXPECT_EQ_LL(d.sregion + d.rregion, 2 * 4 * MB);
        ext.win_disp = MB_IMB_WIN_DISP_SECTIONS;
        d = mb_imb_demand(&mb_imb_family_ext.benchmarks[i < 0 ? 0 : i], 4 * MB, 2, &ext, 0);
        EXPECT_EQ_LL(d.sregion + d.rregion, 2 * 40 * MB); /* 2 max(X, OVERALL_VOL) */
        d = mb_imb_demand(&mb_imb_family_ext.benchmarks[i < 0 ? 0 : i], 4, 2, &ext, 0);
        w = mb_imb_demand_first(d, 2);
        EXPECT_EQ_LL(d.sregion + d.rregion, 2 * 1000 * 4);
        EXPECT_EQ_LL(w.sregion + w.rregion, 2 * 2 * 4);
        EXPECT_EQ_LL(w.slots.sstride, d.slots.sstride);
        ext.cache_bytes = 8 * MB;
        ext.cache_line = 64;
        d = mb_imb_demand(bench("PingPong"), 4, 2, &ext, 0);
        w = mb_imb_demand_first(d, 2);
        EXPECT(d.slots.n > 2);
        EXPECT_EQ_LL(w.sregion, d.slots.sstride + 4);
        d = mb_imb_demand(bench("PingPong"), 4, 2, &c, 0);
        EXPECT_EQ_LL(mb_imb_demand_first(d, 2).sregion, 4); /* one buffer: untouched */
    }
    return unit_report("test_plan");
}
