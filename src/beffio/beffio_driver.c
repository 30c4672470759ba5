/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff_io's measurement (control flow as in the b_eff_io 2.1 source): release 2.0's order -
 * every partition writes, then every partition rewrites (type 0 unless -rewrite), then every
 * partition reads (b_eff paper §5) - and the time-driven write loop. The only b_eff_io code that
 * times anything.
 *
 * Timing follows b_eff_io 2.1: a pattern is timed from a barrier of its partition to
 * the barrier after its last call (and, for writes, after MPI_File_sync); a type from the
 * open (between barriers) to the close (plus barrier). The write pass of types 0-2 repeats
 * each pattern while the elapsed time times (r+1)/r stays within the pattern's share
 * Tn x U / ΣU, rank 0 deciding after a barrier and broadcasting; every other pass and
 * type repeats the write pass's counts, so that reads find what was written (all as in 2.1).
 * Every time here is taken with core/timing.h; the time-driven loop reads its elapsed time with
 * mb_timing_split inside its sample, as 2.1 reads the clock there. */
#include "beffio/beffio_run.h"
#include "core/error.h"
#include "core/idle.h"
#include "core/report_text.h"
#include "core/timing.h"
#include "core/watchdog.h"

#include <stdio.h>
#include <string.h>

struct pass_state {
    struct mb_bio_file f;
    double t_type;              /* sums of the current type (rank 0's clock) */
    double sched_sum, meas_sum; /* -adapt: budget and time of the timed patterns so far */
    double disk_used;           /* bytes the write pass has put on disk, all processes */
    double disk_budget;
    long long errors; /* this process's data errors in this pass */
};

static void barrier(MPI_Comm comm)
{
    MB_MPI(MPI_Barrier(comm));
}

/* What the watchdog's message and an I/O error name: pass, partition, pattern. */
static void pattern_label(char *label, size_t len, int a, int n, int p, long long l)
{
    snprintf(label, len,
             "b_eff_io %s pass, partition of %d process%s, pattern %d (%s, chunk %lld bytes)",
             mb_bio_access_name[a], n, n == 1 ? "" : "es", p,
             mb_bio_type_name[mb_bio_table[p].type], l);
}

static void arm(const struct mb_bio_run *r, const char *label)
{
    if (r->ctx->wd)
        mb_watchdog_arm(r->ctx->wd, label);
}

/* Whether a process of the partition recorded a failed I/O call (r->fail) - collective over
 * comm, at points that every process of the partition reaches whatever failed before (after a
 * type's file is created and opened, after each pattern), never inside a timed loop: the calls
 * after a failure go on as the loop counts say, so no collective is left waiting. A process
 * that failed puts where (the pattern's label) before its message, once. */
static int io_stopped(struct mb_bio_run *r, MPI_Comm comm, const char *where)
{
    int any = r->fail.kind != MB_ERR_NONE;

    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, comm));
    if (r->fail.kind != MB_ERR_NONE && !r->labelled) {
        char msg[sizeof r->fail.msg];
        snprintf(msg, sizeof msg, "%.200s: %.800s", where, r->fail.msg);
        snprintf(r->fail.msg, sizeof r->fail.msg, "%s", msg);
        r->labelled = 1;
    }
    return any;
}

/* After an agreed failure: the type's file, if it is open, is closed where every process of its
 * communicator holds it (the close is collective there; a collective open that failed on some
 * processes only leaves the others a handle that MPI_Finalize takes). The file itself goes with
 * every other scratch file at the end of the run (beffio_suite.c). */
static void close_after_failure(struct mb_bio_file *f)
{
    int open = f->fh != MPI_FILE_NULL, all;

    MB_MPI(MPI_Allreduce(&open, &all, 1, MPI_INT, MPI_MIN, f->comm));
    if (all)
        (void)MPI_File_close(&f->fh); /* its error, if any, changes nothing now */
    f->fh = MPI_FILE_NULL;
}

/* Armed waits outside the patterns: a partition's processes meet in barriers and a reduction
 * before and after its patterns, and all processes between partitions; a stopped process must
 * not leave the others waiting there unarmed. */
static void arm_wait(const struct mb_bio_run *r, int a, int n, const char *what)
{
    char label[256];

    if (!r->ctx->wd)
        return;
    snprintf(label, sizeof label, "b_eff_io %s pass, partition of %d process%s (%s)",
             mb_bio_access_name[a], n, n == 1 ? "" : "es", what);
    mb_watchdog_arm(r->ctx->wd, label);
}

/* Rank 0's continue decision for the time-driven write loop (as in b_eff_io 2.1): 1 go on, 0 the
 * time is up, 2 the disk budget - mpibench's addition: the files of all partitions stay until
 * the read pass, so a loop stops before its partition's files could outgrow their share of
 * the free space. bytes: what the pattern will have put on disk after one more repetition. */
static char keep_going(double elapsed, long long reps, double tp, double bytes, double allowance)
{
    if (elapsed * (double)(reps + 1) / (double)reps > tp)
        return 0;
    return bytes <= allowance ? 1 : 2;
}

/* The disk a time-driven pattern p may fill (all processes of the partition, bytes): one
 * repetition, plus its U share of what the budget leaves after the least that p and every later
 * pattern of the pass need (each once, beffio_table.c's disk model). What an earlier pattern
 * did not use goes to the later ones; no pattern can take the space the rest of the pass
 * needs (a 200 MiB file system: the first pattern used to take it all, and a type-3 write
 * then found the disk full). */
static double disk_allowance(const struct pass_state *ps, int p, int n, long long lmax)
{
    const double once = (double)n * (double)mb_bio_disk_per_rep(p, lmax);
    const double reserve = (double)n * (double)mb_bio_disk_least_from(p, lmax);
    const int units = mb_bio_units_from(p);
    double left = ps->disk_budget - ps->disk_used - reserve;

    if (left < 0 || units == 0)
        left = 0;
    return once + (units > 0 ? left * mb_bio_table[p].U / units : 0);
}

/* One pattern of one pass on one partition (all its processes). */
static void pattern(struct mb_bio_run *r, struct mb_bio_data *d, struct pass_state *ps, int i,
                    int a, int p, double tu)
{
    const struct mb_bio_pattern *q = &mb_bio_table[p];
    const MPI_Comm comm = r->comm[i];
    struct mb_bio_meas *m = &d->m[i][a][p];
    const long long l = mb_bio_chunk(p, r->lmax, d->fill[i]);
    const long long L = mb_bio_call(p, r->lmax, d->fill[i]);
    const struct mb_bio_step s = {p, a, i, (int)(L / 8), (int)(l / 8), d->lseg[i]};
    const int timed = a == MB_BIO_WRITE && q->type <= MB_BIO_SEPARATE;
    const int n = ps->f.n, root = ps->f.rank == 0;
    const int check = r->cfg->common.check;
    const double per_rep = (double)n * (double)mb_bio_disk_per_rep(p, r->lmax);
    const double allowance = timed && root ? disk_allowance(ps, p, n, r->lmax) : 0;
    /* Tp = Tu x U for every pattern, as b_eff_io 2.1 prints it; only the time-driven loop
     * (write pass, types 0-2) is paced by it. */
    double tp = tu * q->U, t;
    long long reps = 0, shown = 0, errors = 0;
    /* From the partition's barrier to the barrier after the last call (b_eff_io 2.1); the
     * parts of the sample below are splits of the same timer. */
    struct mb_timing tm = mb_timing_make(mb_sync_barriers(comm, 1));
    char conti = 1;

    if (timed && r->b->adapt && p >= 1 && q->U != 0 && ps->meas_sum > ps->sched_sum)
        tp = tp / (0.5 * (1.0 + ps->meas_sum / ps->sched_sum)); /* 2.1's -adapt */
    memset(m, 0, sizeof *m);
    mb_timing_start(&tm);
    mb_bio_view(r, &ps->f, &s);
    do {
        const double ti = mb_timing_split(&tm);
        if (a != MB_BIO_READ)
            mb_bio_stamp(r, &s, reps, r->cfg->common.selftest && r->ctx->rank == 0);
        mb_bio_transfer(r, &ps->f, &s);
        /* After a failed call the buffer holds no file content: no data errors from it. */
        if (a == MB_BIO_READ && r->fail.kind == MB_ERR_NONE)
            errors += mb_bio_verify(r, &s, reps, &shown);
        else if (check)
            mb_bio_unstamp(r, &s);
        reps++;
        t = mb_timing_split(&tm);
        m->t_last_io = t - ti;
        if (timed) {
            double tb = t, tc;
            barrier(comm);
            tc = mb_timing_split(&tm);
            m->t_barrier += tc - tb;
            /* Rank 0's own failed call ends the loop at once (the others' at the pattern's
             * end, where the partition agrees). */
            if (root)
                conti = r->fail.kind != MB_ERR_NONE
                            ? 0
                            : keep_going(tc, reps, tp, per_rep * (double)(reps + 1), allowance);
            if (root)
                m->disk_stop = conti == 2;
            MB_MPI(MPI_Bcast(&conti, 1, MPI_CHAR, 0, comm));
            t = mb_timing_split(&tm);
            m->t_bcast += t - tc;
            m->t_last_tail = t - tb;
        }
    } while (timed ? conti == 1 : reps < d->rep[i][p]);
    if (a != MB_BIO_READ) {
        double tb = mb_timing_split(&tm), ts;
        barrier(comm);
        ts = mb_timing_split(&tm);
        m->t_barrier += ts - tb;
        mb_bio_sync(r, &ps->f);
        m->t_sync = mb_timing_split(&tm) - ts;
    }
    {
        const double tb = mb_timing_split(&tm);
        barrier(comm);
        (void)mb_timing_stop(&tm, reps);
        t = tm.elapsed;
        m->t_barrier += t - tb;
    }
    m->t = t;
    if (timed) {
        d->rep[i][p] = reps;
        ps->disk_used += per_rep * (double)reps;
        if (p >= 1 && q->U != 0) {
            ps->sched_sum += tp;
            ps->meas_sum += m->t;
        }
    }
    if (q->type == MB_BIO_SCATTER || (q->type == MB_BIO_SHARED && r->b->noshared))
        ps->f.disp += (MPI_Offset)n * (MPI_Offset)L * (MPI_Offset)reps;
    if (a == MB_BIO_WRITE)
        mb_bio_check_size(r, &ps->f, &s);
    ps->errors += errors;
    MB_MPI(MPI_Reduce(&errors, &m->errors, 1, MPI_LONG_LONG, MPI_SUM, 0, comm));
    m->ran = 1;
    m->reps = reps;
    m->l = l;
    m->L = L;
    m->tp = tp;
}

/* Opens the type's file (the write pass creates it first). Returns whether the partition
 * stops: a file that could not be made or opened, agreed by the partition before anyone
 * opens a name that is not this run's or writes to a file that not every process opened. */
static int open_type(struct mb_bio_run *r, struct mb_bio_data *d, struct pass_state *ps, int i,
                     int a, int type, const char *where)
{
    const MPI_Comm comm = r->comm[i];
    struct mb_timing tm = mb_timing_make(mb_sync_barriers(comm, 1));

    mb_bio_file_name(r, &ps->f, i, type);
    if (a == MB_BIO_WRITE) {
        mb_bio_file_create(r, &ps->f);
        /* Also the barrier that makes every file exist before anyone opens it. */
        if (io_stopped(r, comm, where))
            return 1;
        if (type != MB_BIO_SEPARATE) {
            struct mb_error err = {MB_ERR_NONE, ""};
            /* A file removed since its creation: every process returns non-zero. */
            if (mb_scratch_require_shared(ps->f.path, comm,
                                          "types 0, 1, 3 and 4 share one file among the "
                                          "processes of a partition, so -p must name a "
                                          "directory that every process sees (a shared file "
                                          "system)",
                                          &err) != 0) {
                if (err.kind != MB_ERR_NONE)
                    mb_bio_record(r, "%s", err.msg);
                return io_stopped(r, comm, where);
            }
        }
    }
    mb_timing_start(&tm);
    mb_bio_file_open(r, &ps->f, a, type);
    barrier(comm);
    (void)mb_timing_stop(&tm, 1);
    d->ty[i][a][type].t_open = tm.elapsed;
    return io_stopped(r, comm, where);
}

static void close_type(struct mb_bio_run *r, struct mb_bio_data *d, struct pass_state *ps, int i,
                       int a, int type)
{
    struct mb_timing tm = mb_timing_make(mb_sync_none());

    mb_timing_start(&tm);
    mb_bio_file_close(r, &ps->f, a);
    barrier(r->comm[i]);
    (void)mb_timing_stop(&tm, 1);
    d->ty[i][a][type].t_close = tm.elapsed;
}

/* rank 0: a type's totals, printed when its file closes. */
static void type_total(struct mb_bio_data *d, int i, int a, int type, int n)
{
    struct mb_bio_typeval *v = &d->ty[i][a][type];
    double wsum = 0, usum = 0;

    v->ran = 1;
    v->t = v->t_open + v->t_close;
    v->bytes = 0;
    for (int p = mb_bio_first_of_type(type); p < MB_BIO_PATTERNS && mb_bio_table[p].type == type;
         p++) {
        const struct mb_bio_meas *m = &d->m[i][a][p];
        if (!m->ran)
            continue;
        v->t += m->t;
        v->bytes += mb_bio_meas_bytes(m, n);
        if (mb_bio_table[p].U > 0 && m->t > 0) {
            wsum += mb_bio_table[p].U * mb_bio_meas_bw(m, n);
            usum += mb_bio_table[p].U;
        }
    }
    v->bw = v->t > 0 ? v->bytes / v->t : 0;
    v->wbw = usum > 0 ? wsum / usum : 0;
    v->lseg = type >= MB_BIO_SEGMENTED ? d->lseg[i] : 0;
}

static void partition_pass(struct mb_bio_run *r, struct mb_bio_data *d, int i, int a)
{
    const struct mb_bio_config *b = r->b;
    const MPI_Comm comm = r->comm[i];
    const int rewrite_all = b->rewrite;
    const double tu = (double)mb_bio_partition_seconds(b->T, d->npart) / mb_bio_usum(rewrite_all);
    struct pass_state ps;
    struct mb_bio_accval *ac = &d->ac[i][a];
    struct mb_timing tm = mb_timing_make(mb_sync_barriers(comm, 1));
    int n, rank, stopped = 0;
    long long errors = 0;

    if (comm == MPI_COMM_NULL)
        return;
    MB_MPI(MPI_Comm_rank(comm, &rank));
    MB_MPI(MPI_Comm_size(comm, &n));
    memset(&ps, 0, sizeof ps);
    {
        double total_n = 0;
        for (int k = 0; k < d->npart; k++)
            total_n += b->partitions[k];
        ps.disk_budget = MB_BIO_DISK_SHARE * (double)b->disk_free * n / total_n;
    }
    arm_wait(r, a, n, "starting");
    mb_timing_start(&tm);
    for (int p = 0; p < MB_BIO_PATTERNS && !stopped; p++) {
        const struct mb_bio_pattern *q = &mb_bio_table[p];
        char label[256];
        if (!mb_bio_runs(p, a, rewrite_all))
            continue;
        if (p == mb_bio_first_of_type(MB_BIO_SEGMENTED))
            d->lseg[i] = mb_bio_segments(d->rep[i], r->lmax, &d->fill[i]);
        pattern_label(label, sizeof label, a, n, p, mb_bio_chunk(p, r->lmax, d->fill[i]));
        /* Armed on every process of the partition (core/watchdog.h), file open and close
         * included: a process waits for the others in both. */
        arm(r, label);
        if (q->part == MB_BIO_FIRST && open_type(r, d, &ps, i, a, q->type, label)) {
            stopped = 1;
        } else {
            pattern(r, d, &ps, i, a, p, tu);
            if (q->part == MB_BIO_LAST)
                close_type(r, d, &ps, i, a, q->type);
            stopped = io_stopped(r, comm, label);
        }
        arm_wait(r, a, n, "between patterns");
        /* An I/O error stops the pass: the failed pattern has no line (its time is of failed
         * calls), the file is closed, and every process learns it at the partition's end. */
        if (stopped) {
            close_after_failure(&ps.f);
            break;
        }
        if (rank == 0) {
            mb_bio_print_pattern(r, d, i, a, p);
            mb_bio_json_pattern(r, d, i, a, p);
            if (q->part == MB_BIO_LAST) {
                type_total(d, i, a, q->type, n);
                mb_bio_print_type(r, d, i, a, q->type);
                mb_bio_json_type(r, d, i, a, q->type);
            }
            mb_flush(&r->ctx->out);
            mb_flush(&r->prot);
        }
    }
    MB_MPI(MPI_Reduce(&ps.errors, &errors, 1, MPI_LONG_LONG, MPI_SUM, 0, comm));
    barrier(comm);
    mb_watchdog_disarm(r->ctx->wd);
    if (rank == 0 && !stopped) {
        ac->ran = 1;
        (void)mb_timing_stop(&tm, 1);
        ac->t = tm.elapsed;
        ac->errors = errors;
        ac->bytes = 0;
        for (int t = 0; t < MB_BIO_TYPES; t++)
            ac->bytes += d->ty[i][a][t].bytes;
        ac->bw = ac->t > 0 ? ac->bytes / ac->t : 0;
        {
            double wsum, usum;
            mb_bio_pass_wsum(d, i, a, &wsum, &usum);
            ac->wbw = usum > 0 ? wsum / usum : 0;
        }
        {
            double bw[MB_BIO_TYPES];
            for (int t = 0; t < MB_BIO_TYPES; t++)
                bw[t] = d->ty[i][a][t].bw;
            ac->value = mb_bio_access_value(bw, a != MB_BIO_REWRITE || rewrite_all);
        }
        mb_bio_print_access(r, d, i, a);
        mb_flush(&r->ctx->out);
        mb_flush(&r->prot);
    }
}

/* The end of a partition's pass on every process, those outside it too: whether a process
 * recorded an I/O failure, and if so the message of the lowest such rank on every process (as
 * one line; rank 0 reports it). */
static int world_stopped(struct mb_bio_run *r)
{
    const struct mb_ctx *ctx = r->ctx;
    int who = r->fail.kind != MB_ERR_NONE ? ctx->rank : ctx->size;

    MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &who, 1, MPI_INT, MPI_MIN, ctx->world));
    if (who == ctx->size)
        return 0;
    MB_MPI(MPI_Bcast(r->fail.msg, (int)sizeof r->fail.msg, MPI_CHAR, who, ctx->world));
    r->fail.kind = MB_ERR_RUNTIME;
    r->fail.msg[sizeof r->fail.msg - 1] = '\0';
    /* One line: an MPI library's error stack (MPICH) comes in several. */
    for (char *c = r->fail.msg; *c; c++)
        if (*c == '\n' || *c == '\r' || *c == '\t')
            *c = ' ';
    return 1;
}

void mb_bio_measure(struct mb_bio_run *r, struct mb_bio_data *d)
{
    const struct mb_stopwatch total = mb_stopwatch_start();
    struct mb_idle idle;
    int stopped = 0;

    barrier(r->ctx->world);
    for (int a = 0; a < MB_BIO_ACCESSES && !stopped; a++) {
        if (r->ctx->rank == 0)
            mb_bio_print_table_head(r);
        for (int i = 0; i < d->npart && !stopped; i++) {
            const int n = r->b->partitions[i];
            arm_wait(r, a, n, "all processes meeting before it");
            barrier(r->ctx->world);
            /* Processes outside the partition wait, armed by rank 0's heartbeat (core/idle.h;
             * rank 0 belongs to every partition). */
            mb_idle_begin(&idle, r->ctx->wd, r->ctx->world, n < r->ctx->size,
                          r->comm[i] == MPI_COMM_NULL);
            if (r->comm[i] != MPI_COMM_NULL)
                partition_pass(r, d, i, a);
            else
                mb_idle_wait(&idle, "b_eff_io partition pass (this process outside the partition)");
            arm_wait(r, a, n, "all processes meeting after it");
            mb_idle_end(&idle);
            /* An I/O error ends the run here, where every process is (no collective that a
             * failed process skipped is left waiting). */
            stopped = world_stopped(r);
        }
    }
    barrier(r->ctx->world);
    mb_watchdog_disarm(r->ctx->wd);
    d->t_total = mb_stopwatch_read(&total);
}
