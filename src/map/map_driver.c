/* SPDX-License-Identifier: BSD-3-Clause */
/* The map's measurement: per round, each pair of hosts' lowest ranks measures its latency and
 * both directions' bandwidth; rank 0 receives every pair's figures after the round (so a
 * killed run keeps the rounds done) and hands them to the report. The only clock reads of the
 * map are here, through core/timing.h. */
#include "map/map_driver.h"

#include "core/error.h"
#include "core/stats.h"
#include "core/timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG = 77, LAT_BYTES = 8 };

/* A process's buffers for its pairs: the messages, the window's requests and statuses, and
 * the samples of one figure. */
struct pair_work {
    char *buf;
    MPI_Request *reqs;
    MPI_Status *sts;
    double *samples;
};

/* The best of n samples (lowest when low_best) and ln(Q3 / Q1) of them (core/stats.h's
 * quartiles). */
static double best_of(const double *s, long n, int low_best, double *spread)
{
    const struct mb_stats st = mb_stats_of(s, (size_t)n);
    const struct mb_spread q = mb_spread_of(s, (size_t)n);

    *spread = q.q1 > 0 && q.q3 > 0 ? log(q.q3 / q.q1) : 0;
    return low_best ? st.min : st.max;
}

/* Latency samples between this process and partner (first: it sends first): usec. */
static double latency(const struct mb_map_config *c, MPI_Comm comm, int partner, int first,
                      struct pair_work *w, double *spread)
{
    char msg[LAT_BYTES] = {0};
    struct mb_timing tm = mb_timing_make(mb_sync_none());

    for (long k = -1; k < c->repeats; k++) { /* k = -1: a warm-up round trip, untimed */
        const long n = k < 0 ? 1 : c->lat_iters;
        mb_timing_start(&tm);
        for (long i = 0; i < n; i++) {
            if (first) {
                MB_MPI(MPI_Send(msg, LAT_BYTES, MPI_BYTE, partner, TAG, comm));
                MB_MPI(MPI_Recv(msg, LAT_BYTES, MPI_BYTE, partner, TAG, comm, MPI_STATUS_IGNORE));
            } else {
                MB_MPI(MPI_Recv(msg, LAT_BYTES, MPI_BYTE, partner, TAG, comm, MPI_STATUS_IGNORE));
                MB_MPI(MPI_Send(msg, LAT_BYTES, MPI_BYTE, partner, TAG, comm));
            }
        }
        const double per = mb_timing_stop(&tm, n);
        if (k >= 0)
            w->samples[k] = per / 2 * 1e6;
    }
    return best_of(w->samples, c->repeats, 1, spread);
}

/* Bandwidth samples of one direction: the sender posts a window of messages, the receiver
 * answers the last with one byte; the sender's clock spans both. MiB/s, on the sender. */
static double bandwidth(const struct mb_map_config *c, MPI_Comm comm, int partner, int sends,
                        struct pair_work *w, double *spread)
{
    struct mb_timing tm = mb_timing_make(mb_sync_none());
    char ack = 0;

    for (long k = -1; k < c->repeats; k++) { /* k = -1: warm-up, untimed */
        mb_timing_start(&tm);
        for (long m = 0; m < c->bw_window; m++) {
            if (sends)
                MB_MPI(
                    MPI_Isend(w->buf, (int)c->bw_bytes, MPI_BYTE, partner, TAG, comm, &w->reqs[m]));
            else
                MB_MPI(MPI_Irecv(w->buf + (size_t)m * (size_t)c->bw_bytes, (int)c->bw_bytes,
                                 MPI_BYTE, partner, TAG, comm, &w->reqs[m]));
        }
        /* Statuses, not MPI_STATUSES_IGNORE: MPICH's header gives that pointer an array size
         * and GCC's access checks then warn (as in p2p_kernels.c). */
        MB_MPI(MPI_Waitall((int)c->bw_window, w->reqs, w->sts));
        if (sends)
            MB_MPI(MPI_Recv(&ack, 1, MPI_BYTE, partner, TAG, comm, MPI_STATUS_IGNORE));
        else
            MB_MPI(MPI_Send(&ack, 1, MPI_BYTE, partner, TAG, comm));
        const double secs = mb_timing_stop(&tm, 1);
        if (k >= 0)
            w->samples[k] =
                secs > 0 ? (double)c->bw_bytes * (double)c->bw_window / secs / 1048576.0 : 0;
    }
    return sends ? best_of(w->samples, c->repeats, 0, spread) : 0;
}

/* One pair, both sides: fills l on the first host's process (the second sends it its
 * direction's figure). */
static void measure_pair(const struct mb_map_config *c, MPI_Comm comm, int partner, int first,
                         struct pair_work *w, struct mb_map_link *l)
{
    double mine[2] = {0, 0};

    l->latency_usec = latency(c, comm, partner, first, w, &l->latency_spread);
    for (int dir = 0; dir < 2; dir++) {
        const int sends = (dir == 0) == first; /* first -> second, then back */
        double spread = 0;
        const double bw = bandwidth(c, comm, partner, sends, w, &spread);
        if (sends) {
            mine[0] = bw;
            mine[1] = spread;
        }
    }
    if (first) {
        double theirs[2];
        l->ab_mib_per_sec = mine[0];
        l->ab_spread = mine[1];
        MB_MPI(MPI_Recv(theirs, 2, MPI_DOUBLE, partner, TAG, comm, MPI_STATUS_IGNORE));
        l->ba_mib_per_sec = theirs[0];
        l->ba_spread = theirs[1];
    } else {
        MB_MPI(MPI_Send(mine, 2, MPI_DOUBLE, partner, TAG, comm));
    }
}

static struct pair_work work_make(const struct mb_map_config *c)
{
    struct pair_work w = {mb_xmalloc((size_t)c->bw_bytes * (size_t)c->bw_window),
                          mb_xmalloc((size_t)c->bw_window * sizeof(MPI_Request)),
                          mb_xmalloc((size_t)c->bw_window * sizeof(MPI_Status)),
                          mb_xmalloc((size_t)c->repeats * sizeof(double))};
    memset(w.buf, 1, (size_t)c->bw_bytes * (size_t)c->bw_window);
    return w;
}

static void work_free(struct pair_work *w)
{
    free(w->samples);
    free(w->sts);
    free(w->reqs);
    free(w->buf);
}

void mb_map_pair_measure(const struct mb_map_config *c, MPI_Comm comm, int partner, int first,
                         struct mb_map_link *l)
{
    struct pair_work w = work_make(c);

    measure_pair(c, comm, partner, first, &w, l);
    work_free(&w);
}

void mb_map_measure(const struct mb_map_config *c, MPI_Comm leaders, struct mb_watchdog *wd,
                    mb_map_round_fn done, void *arg)
{
    int me, h;
    MB_MPI(MPI_Comm_rank(leaders, &me));
    MB_MPI(MPI_Comm_size(leaders, &h));
    const int rounds = mb_map_rounds(h), slots = h / 2 + h % 2;
    struct pair_work w = work_make(c);
    struct mb_map_link *all = me == 0 ? mb_xmalloc((size_t)h * sizeof *all) : NULL;
    char label[160];

    for (int r = 0; r < rounds; r++) {
        struct mb_map_link l = {.a = -1, .b = -1};
        int a = -1, b = -1;
        for (int i = 0; i < slots && a < 0; i++) {
            int x, y;
            mb_map_pair(h, r, i, &x, &y);
            if (x == me || y == me) {
                a = x;
                b = y;
            }
        }
        snprintf(label, sizeof label, "map round %d of %d: hosts %d and %d", r + 1, rounds, a, b);
        if (a < 0)
            snprintf(label, sizeof label, "map round %d of %d: host %d waits", r + 1, rounds, me);
        mb_watchdog_arm(wd, label);
        if (a >= 0) {
            measure_pair(c, leaders, me == a ? b : a, me == a, &w, &l);
            if (me == a) {
                l.a = a;
                l.b = b;
            }
        }
        /* Rank 0 receives the round's pairs from their first hosts (the others send an
         * empty slot): one gather per round, the round's only synchronisation. */
        MB_MPI(MPI_Gather(&l, (int)sizeof l, MPI_BYTE, all, (int)sizeof l, MPI_BYTE, 0, leaders));
        mb_watchdog_disarm(wd);
        if (me == 0)
            for (int i = 0; i < h; i++)
                if (all[i].a >= 0)
                    done(arg, r, rounds, &all[i]);
    }
    free(all);
    work_free(&w);
}
