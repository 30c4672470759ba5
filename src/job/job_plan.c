/* SPDX-License-Identifier: BSD-3-Clause */
#include "job/job_plan.h"

#include "beffio/beffio_settings.h"

#include <stdlib.h>
#include <string.h>

/* Default: a few minutes on a small machine (<= 3 minutes on 4 processes of 2 cores);
 * quick: <= 30 s there; full: each suite's official rules (IMB 3.1 guide defaults, b_eff
 * and b_eff_io defaults - b_eff_io's T = 30 minutes, b_eff paper §5 -, Presta run rules'
 * com/laten -o chosen for > 1000 ticks per sample, the run rules' "Benchmark Checklist"). The
 * reduced settings shorten each suite the way its own options allow: IMB's -time, and
 * -iter for quick (guide 5.2.8), b_eff's random-ring count and repetitions, b_eff_io's
 * scheduled time T and one partition of all processes instead of three (b_eff_io paper §4: b_eff_io
 * is the maximum over partitions; the largest is the machine's usual one). "{P}" stands for the
 * job's process count.
 * sim: thousands of processes, or a simulation of them (SimGrid SMPI, docs/scale.md,
 * docs/adr/job-sim-mode.md): every measurement there is a collective over all processes, and a
 * simulator's host time grows with the messages times P, so each phase keeps what shows the
 * machine at P and drops the rest - one sample per row (job_suite.c), Presta com on two sizes
 * (32 B and 1 MiB), IMB's collectives on all P processes only (-npmin P; PingPong, PingPing and
 * the Unidir pair still on 2) with 0 and 8 bytes, b_eff with one iteration per loop. Its
 * estimates are --quick's, not measured: its phases do less than --quick's. */
static const struct mb_job_phase phases[] = {
    {.title = "Presta com: pair bandwidth, uni- and bidirectional",
     .prog = "com",
     .samples = 1,
     .even = 1,
     .args = {[MB_JOB_DEFAULT] = {"-o", "100", "-e", "65536"},
              [MB_JOB_QUICK] = {"-o", "20", "-e", "4096"},
              [MB_JOB_FULL] = {"-o", "1000"},
              [MB_JOB_SIM] = {"-o", "10", "-e", "1048576", "-s", "32768"}},
     .seconds = {1, 1, 60, 1}},
    {.title = "Presta laten: pair latency",
     .prog = "laten",
     .samples = 1,
     .even = 1,
     .args = {[MB_JOB_DEFAULT] = {"-o", "100"},
              [MB_JOB_QUICK] = {"-o", "20"},
              [MB_JOB_FULL] = {"-o", "1000"},
              [MB_JOB_SIM] = {"-o", "10"}},
     .seconds = {1, 1, 5, 1}},
    /* mpibench levels: a pair within a socket, across sockets, across hosts, chosen from the
     * placement (docs/adr/node-map.md); the levels the job lacks are listed as not present. */
    {.title = "levels: a pair within a socket, across sockets, across hosts",
     .prog = "levels",
     .subcommand = 1,
     .pair = 1,
     .args = {[MB_JOB_DEFAULT] = {"--repeats", "3"},
              [MB_JOB_QUICK] = {"--repeats", "2", "--lat-iters", "20", "--bw-window", "2"},
              [MB_JOB_FULL] = {NULL},
              [MB_JOB_SIM] = {"--repeats", "1", "--lat-iters", "10", "--bw-window", "1"}},
     .seconds = {1, 1, 2, 1}},
    {.title = "IMB-MPI1: PingPong PingPing Sendrecv Bcast Allreduce Alltoall Barrier",
     .prog = "IMB-MPI1",
     .samples = 1,
     .args = {[MB_JOB_DEFAULT] = {"PingPong", "PingPing", "Sendrecv", "Bcast", "Allreduce",
                                  "Alltoall", "Barrier", "-time", "0.1"},
              [MB_JOB_QUICK] = {"PingPong", "PingPing", "Sendrecv", "Bcast", "Allreduce",
                                "Alltoall", "Barrier", "-iter", "50,20", "-time", "0.02"},
              [MB_JOB_FULL] = {"PingPong", "PingPing", "Sendrecv", "Bcast", "Allreduce", "Alltoall",
                               "Barrier"},
              [MB_JOB_SIM] = {"PingPong", "PingPing", "Sendrecv", "Bcast", "Allreduce", "Alltoall",
                              "Barrier", "-npmin", "{P}", "-iter", "10,1", "-msglog", "3:3",
                              "-time", "0.01"}},
     .seconds = {10, 3, 300, 3}},
    {.title = "IMB-EXT: Unidir_Put Unidir_Get",
     .prog = "IMB-EXT",
     .pair = 1, /* one process skips both: a transfer needs an origin and a target */
     .samples = 1,
     .args = {[MB_JOB_DEFAULT] = {"Unidir_Put", "Unidir_Get", "-time", "0.1"},
              [MB_JOB_QUICK] = {"Unidir_Put", "Unidir_Get", "-iter", "50,20", "-time", "0.02"},
              [MB_JOB_FULL] = {"Unidir_Put", "Unidir_Get"},
              [MB_JOB_SIM] = {"Unidir_Put", "Unidir_Get", "-iter", "10,1", "-msglog", "3:3",
                              "-time", "0.01"}},
     .seconds = {4, 2, 120, 2}},
    /* Intel IMB 2021.11's IMB-NBC: how much computation the library lets a process overlap
     * with a non-blocking broadcast, reduction and all-to-all (docs/adr/imb-nbc.md). 2021.11's
     * repetition policy probes about a second's worth of every length unless -iter caps it.
     * -time_cap off: the phase's short -time sets each length's time, not a whole table's. */
    {.title = "IMB-NBC: Ibcast Iallreduce Ialltoall overlap",
     .prog = "IMB-NBC",
     .samples = 1,
     .host_cpu = 1,
     .args = {[MB_JOB_DEFAULT] = {"Ibcast", "Iallreduce", "Ialltoall", "-iter", "100,20", "-msglog",
                                  "0:20", "-time", "0.1", "-time_cap", "off"},
              [MB_JOB_QUICK] = {"Ibcast", "Iallreduce", "-iter", "20,8", "-msglog", "0:16", "-time",
                                "0.02", "-time_cap", "off"},
              [MB_JOB_FULL] = {"Ibcast", "Iallreduce", "Ialltoall", "-time_cap", "off"},
              [MB_JOB_SIM] = {"Iallreduce", "-npmin", "{P}", "-iter", "10,1", "-msglog", "3:3",
                              "-time", "0.01", "-time_cap", "off"}},
     .seconds = {3, 2, 15, 2}},
    /* mpibench map: every pair of hosts and the outliers, on jobs that span hosts
     * (docs/adr/node-map.md); h hosts take h - 1 rounds of about one pair's time each. */
    {.title = "map: latency and bandwidth between every pair of hosts",
     .prog = "map",
     .subcommand = 1,
     .hosts2 = 1,
     .args = {[MB_JOB_DEFAULT] = {"--repeats", "3"},
              [MB_JOB_QUICK] = {"--repeats", "2", "--lat-iters", "20", "--bw-window", "2"},
              [MB_JOB_FULL] = {NULL},
              [MB_JOB_SIM] = {"--repeats", "1", "--lat-iters", "10", "--bw-window", "1"}},
     .seconds = {2, 1, 10, 1}},
    {.title = "b_eff: effective bandwidth of the whole machine",
     .prog = "b_eff",
     .args = {[MB_JOB_DEFAULT] = {"--random", "6", "--repetitions", "2", "--memory", "64"},
              [MB_JOB_QUICK] = {"--random", "2", "--repetitions", "1", "--memory", "8"},
              [MB_JOB_FULL] = {NULL},
              [MB_JOB_SIM] = {"--random", "2", "--repetitions", "1", "--memory", "1",
                              "--max-looplength", "1"}},
     .seconds = {10, 3, 600, 3}},
    {.title = "b_eff_io: effective I/O bandwidth",
     .prog = "b_eff_io",
     .io_flag = "-p",
     .args = {[MB_JOB_DEFAULT] = {"-MB", "16", "-T", "20", "-N", "{P}"},
              [MB_JOB_QUICK] = {"-MB", "8", "-T", "2", "-N", "{P}"},
              [MB_JOB_FULL] = {NULL},
              [MB_JOB_SIM] = {"-MB", "8", "-T", "2", "-N", "{P}"}},
     .schedule_option = "-T",
     .schedule_default = MB_BIO_T_DEFAULT},
    {.title = "IMB-IO: S_Write_indv S_Read_indv",
     .prog = "IMB-IO",
     .samples = 1,
     .io_flag = "--dir",
     .args = {[MB_JOB_DEFAULT] = {"S_Write_indv", "S_Read_indv", "-time", "0.1"},
              [MB_JOB_QUICK] = {"S_Write_indv", "S_Read_indv", "-iter", "50,80", "-time", "0.02"},
              [MB_JOB_FULL] = {"S_Write_indv", "S_Read_indv"},
              [MB_JOB_SIM] = {"S_Write_indv", "S_Read_indv", "-iter", "10,1", "-msglog", "3:3",
                              "-time", "0.01"}},
     .seconds = {3, 2, 120, 2}},
};

size_t mb_job_phase_count(void)
{
    return sizeof phases / sizeof phases[0];
}

const struct mb_job_phase *mb_job_phase_at(size_t i)
{
    return &phases[i];
}

const char *mb_job_mode_name(enum mb_job_mode m)
{
    static const char *const names[MB_JOB_MODES] = {"default", "quick", "full", "sim"};
    return names[m];
}

/* A scheduled phase takes about its schedule T: b_eff_io 2.1 spreads T over the write loops and
 * its rewrite and read passes repeat their counts at the disk's own pace, 0.85 to 1.5 x T on
 * the 2-core development VM (docs/adr/beffio-schedule.md); 1.2 x T plus a few seconds of
 * setting up, and -T 2 took 5 s there. */
enum { SCHEDULE_SETUP_SECONDS = 3 };
static const double schedule_factor = 1.2;

double mb_job_phase_estimate(const struct mb_job_phase *p, enum mb_job_mode m)
{
    long t = p->schedule_default;

    if (!p->schedule_option)
        return p->seconds[m];
    for (int k = 0; k + 1 < MB_JOB_MAX_ARGS && p->args[m][k]; k++)
        if (strcmp(p->args[m][k], p->schedule_option) == 0 && p->args[m][k + 1])
            t = strtol(p->args[m][k + 1], NULL, 10);
    return schedule_factor * (double)t + SCHEDULE_SETUP_SECONDS;
}

const char *mb_job_skip_reason(const struct mb_job_phase *p, int nprocs, int nhosts)
{
    if (p->hosts2 && nhosts < 2)
        return "the job runs on one host (a map needs two)";
    if (p->even && nprocs % 2 != 0)
        return "needs an even number of processes (pairs)";
    /* A phase that would measure nothing would fail (docs/adr/measured-nothing.md). */
    if (p->pair && nprocs < 2)
        return "needs at least 2 processes (a pair)";
#ifdef MB_SMPI
    /* SimGrid 3.32's MPI-IO opens files only on simulated disks, which the scale tier's
     * cluster platform has none of, and aborts the whole simulation otherwise
     * (docs/adr/smpi-build.md). */
    if (p->io_flag)
        return "MPI-IO is not simulated in the SimGrid SMPI build";
    /* The scale tier runs SimGrid with smpi/simulate-computation off (tests/scale/smpirun.sh):
     * CPU work takes no simulated time there, so there is no overlap to measure. */
    if (p->host_cpu)
        return "computation is not simulated in the SimGrid SMPI build";
#endif
    return NULL;
}
