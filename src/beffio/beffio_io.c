/* SPDX-License-Identifier: BSD-3-Clause */
/* b_eff_io's kernels: the five pattern types on MPI-IO, the stamps that make every chunk
 * checkable, and the files, all as in the b_eff_io 2.1 source. No clock here: beffio_driver.c
 * times.
 *
 * The files are the user's disk. Where b_eff_io 2.1 removed "leftovers" by opening any file of
 * a scratch name with MPI_MODE_DELETE_ON_CLOSE, mpibench never touches a file it did not
 * create: the owner creates each name exclusively through core/scratch.h (validation has
 * already refused existing names unless --force), registers it for removal on every exit
 * path, and removes it after the read pass closes it (unless -keep), inside the timed close
 * as the original's delete-on-close is. Every MPI-IO error - and a transfer that moved less
 * than asked, a file shorter than written - is recorded in r->fail with a message naming the
 * call, the file and the system's reason (b_eff_io 2.1 ends the job there): the driver agrees
 * on it between patterns and stops the run, which ends with status 1 and no value - a full
 * disk is an error, never a bandwidth - and never with MPI_Abort, so that the main job goes
 * on with its next phase (docs/adr/io-space-check.md). */
#include "beffio/beffio_hints.h"
#include "beffio/beffio_options.h"
#include "beffio/beffio_run.h"
#include "core/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Records the first failure of this process, "rank R: what happened". */
void mb_bio_record(struct mb_bio_run *r, const char *fmt, ...)
{
    char text[sizeof r->fail.msg];
    va_list ap;

    if (r->fail.kind != MB_ERR_NONE)
        return;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    mb_error_set(&r->fail, MB_ERR_RUNTIME, "rank %d: %s", r->ctx->rank, text);
}

__attribute__((cold)) static void io_fail(struct mb_bio_run *r, const struct mb_bio_file *f, int rc,
                                          const char *what)
{
    char text[MPI_MAX_ERROR_STRING + 128];

    mb_scratch_mpi_message(rc, text, sizeof text);
    mb_bio_record(r, "%s on '%s' failed: %s", what, f->path, text);
}

/* Whether the call succeeded (else its failure is recorded). */
static int io_ok(struct mb_bio_run *r, const struct mb_bio_file *f, int rc, const char *what)
{
    if (__builtin_expect(rc == MPI_SUCCESS, 1))
        return 1;
    io_fail(r, f, rc, what);
    return 0;
}

/* Type 1 uses the shared file pointer unless -noshared (then it is a second type 0). */
int mb_bio_shared_pointer(const struct mb_bio_config *b, int type)
{
    return type == MB_BIO_SHARED && !b->noshared;
}

static int scattered(const struct mb_bio_config *b, int type)
{
    return type == MB_BIO_SCATTER || (type == MB_BIO_SHARED && b->noshared);
}

void mb_bio_file_name(struct mb_bio_run *r, struct mb_bio_file *f, int index, int type)
{
    struct mb_error err = {MB_ERR_NONE, ""};
    const MPI_Comm comm = r->comm[index];

    memset(f, 0, sizeof *f);
    f->fh = MPI_FILE_NULL;
    MB_MPI(MPI_Comm_rank(comm, &f->rank));
    MB_MPI(MPI_Comm_size(comm, &f->n));
    f->comm = type == MB_BIO_SEPARATE ? MPI_COMM_SELF : comm;
    f->owner = type == MB_BIO_SEPARATE || f->rank == 0;
    if (mb_bio_scratch_name(f->path, sizeof f->path, r->b->dir, index, f->n, type,
                            type == MB_BIO_SEPARATE ? f->rank : -1, &err) != 0)
        mb_die("%s", err.msg);
}

/* Before the write pass's open: the owner creates the name (exclusively unless --force). A
 * name that cannot be made (a full disk, a directory removed or made read-only, a file of
 * someone else's there) is recorded; the driver agrees on it before anyone opens the name. */
void mb_bio_file_create(struct mb_bio_run *r, const struct mb_bio_file *f)
{
    struct mb_error err = {MB_ERR_NONE, ""};

    if (f->owner && mb_scratch_create(f->path, r->b->force ? MB_SCRATCH_FORCE : 0, &err) != 0)
        mb_bio_record(r, "%s", err.msg);
}

/* As b_eff_io 2.1: write and rewrite open read-write, read read-only; all with UNIQUE_OPEN
 * unless -nounique. The file exists (created above), so no MPI_MODE_CREATE: a file removed
 * behind the run's back is an error, not a new untracked file. */
void mb_bio_file_open(struct mb_bio_run *r, struct mb_bio_file *f, int access, int type)
{
    struct mb_error err = {MB_ERR_NONE, ""};
    const int amode = (access == MB_BIO_READ ? MPI_MODE_RDONLY : MPI_MODE_RDWR) |
                      (r->b->nounique ? 0 : MPI_MODE_UNIQUE_OPEN);
    MPI_Info info = mb_bio_open_info(r->b, f->n, access, type);

    if (mb_scratch_open(f->comm, f->path, amode, info, &f->fh, &err) != MPI_SUCCESS)
        mb_bio_record(r, "%s", err.msg);
    mb_bio_info_free(&info);
    f->disp = 0;
    f->wrote = 0;
}

void mb_bio_file_close(struct mb_bio_run *r, struct mb_bio_file *f, int access)
{
    (void)io_ok(r, f, MPI_File_close(&f->fh), "MPI_File_close");
    f->fh = MPI_FILE_NULL; /* also after a failed close: never closed twice */
    if (access == MB_BIO_READ && f->owner) {
        const enum mb_scratch_outcome o = mb_scratch_remove(f->path);
        if (o == MB_SCRATCH_FAILED)
            mb_bio_record(r, "cannot remove scratch file '%s': %s", f->path, strerror(errno));
    }
}

/* The view of a pattern (as in b_eff_io 2.1): type 0 a darray tile per pattern at the running
 * displacement; types 1 and 2 contiguous from 0, types 3 and 4 from the process's segment,
 * set at the type's first pattern. A pattern's hints go with its view, or else through
 * MPI_File_set_info. */
void mb_bio_view(struct mb_bio_run *r, struct mb_bio_file *f, const struct mb_bio_step *s)
{
    const struct mb_bio_pattern *q = &mb_bio_table[s->p];
    MPI_Info info = mb_bio_pattern_info(r->b, f->n, s->access, s->p);

    if (scattered(r->b, q->type)) {
        int gsizes[2] = {f->n, s->chunk}, distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_NONE},
            dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, psizes[2] = {f->n, 1};
        MPI_Datatype tile;
        MB_MPI(MPI_Type_create_darray(f->n, f->rank, 2, gsizes, distribs, dargs, psizes,
                                      MPI_ORDER_C, MPI_DOUBLE, &tile));
        MB_MPI(MPI_Type_commit(&tile));
        (void)io_ok(r, f, MPI_File_set_view(f->fh, f->disp, MPI_DOUBLE, tile, "native", info),
                    "MPI_File_set_view");
        MB_MPI(MPI_Type_free(&tile));
    } else if (q->part == MB_BIO_FIRST) {
        const MPI_Offset disp =
            q->type >= MB_BIO_SEGMENTED ? (MPI_Offset)f->rank * (MPI_Offset)s->lseg : 0;
        (void)io_ok(r, f, MPI_File_set_view(f->fh, disp, MPI_DOUBLE, MPI_DOUBLE, "native", info),
                    "MPI_File_set_view");
    } else if (info != MPI_INFO_NULL) {
        (void)io_ok(r, f, MPI_File_set_info(f->fh, info), "MPI_File_set_info");
    }
    mb_bio_info_free(&info);
}

/* b_eff_io 2.1's stamps: the first and last double of every chunk carry repetition, chunk, pattern
 * and pass; the other elements keep the buffer's -2i. */
static double stamp_value(long long rep, long long c, int p, int a, int last)
{
    return 1e7 * (double)rep + 1000.0 * (double)c + 10.0 * p + (a + (last ? 6 : 1));
}

void mb_bio_stamp(struct mb_bio_run *r, const struct mb_bio_step *s, long long rep, int selftest)
{
    double *w = r->wbuf;

    if (s->chunk <= 0)
        return;
    for (long long c = 0; c < s->elems; c += s->chunk) {
        w[c] = stamp_value(rep, c, s->p, s->access, 0);
        w[c + s->chunk - 1] = stamp_value(rep, c, s->p, s->access, 1);
    }
    /* --check-selftest: one chunk of the 1 MB shared-pointer pattern goes to disk with a wrong
     * stamp in the last pass that writes it (the rewrite with -rewrite); its read must report
     * it. */
    if (selftest && s->p == 11 && s->access == (r->b->rewrite ? MB_BIO_REWRITE : MB_BIO_WRITE) &&
        rep == 0)
        w[0] += 0.5;
}

/* --check: puts back -2i, so that the full check knows every element of the file. */
void mb_bio_unstamp(struct mb_bio_run *r, const struct mb_bio_step *s)
{
    if (s->chunk <= 0)
        return;
    for (long long c = 0; c < s->elems; c += s->chunk) {
        r->wbuf[c] = -2.0 * (double)c;
        r->wbuf[c + s->chunk - 1] = -2.0 * (double)(c + s->chunk - 1);
    }
}

void mb_bio_transfer(struct mb_bio_run *r, struct mb_bio_file *f, const struct mb_bio_step *s)
{
    const int type = mb_bio_table[s->p].type;
    const int reading = s->access == MB_BIO_READ;
    double *buf = reading ? r->rbuf : r->wbuf;
    MPI_Status st;
    int rc, got = 0;
    const char *what;

    if (scattered(r->b, type) || type == MB_BIO_SEGCOLL) {
        what = reading ? "MPI_File_read_all" : "MPI_File_write_all";
        rc = reading ? MPI_File_read_all(f->fh, buf, s->elems, MPI_DOUBLE, &st)
                     : MPI_File_write_all(f->fh, buf, s->elems, MPI_DOUBLE, &st);
    } else if (type == MB_BIO_SHARED) {
        what = reading ? "MPI_File_read_ordered" : "MPI_File_write_ordered";
        rc = reading ? MPI_File_read_ordered(f->fh, buf, s->elems, MPI_DOUBLE, &st)
                     : MPI_File_write_ordered(f->fh, buf, s->elems, MPI_DOUBLE, &st);
    } else {
        what = reading ? "MPI_File_read" : "MPI_File_write";
        rc = reading ? MPI_File_read(f->fh, buf, s->elems, MPI_DOUBLE, &st)
                     : MPI_File_write(f->fh, buf, s->elems, MPI_DOUBLE, &st);
    }
    if (!io_ok(r, f, rc, what))
        return;
    MPI_Get_count(&st, MPI_DOUBLE, &got);
    if (__builtin_expect(got != s->elems, 0))
        mb_bio_record(r, "%s on '%s' moved %d of %d doubles (%s)", what, f->path, got, s->elems,
                      reading ? "the file is shorter than written" : "is the file system full?");
    f->wrote += (MPI_Offset)got * 8;
}

void mb_bio_sync(struct mb_bio_run *r, struct mb_bio_file *f)
{
    (void)io_ok(r, f, MPI_File_sync(f->fh), "MPI_File_sync");
}

/* After a write-pass pattern (outside its timing): the file must reach as far as the pattern
 * wrote. Open MPI 4.1's collective writes (fcoll) print a failed pwritev ("No space left on
 * device") on stderr but return success with the full count, so without this a full disk
 * became a bandwidth (core/scratch.h, mb_scratch_file_extent). Type 1 through the shared
 * pointer is left out: Open MPI's sharedfp components may keep the writes aside until the
 * file is closed (seen with IMB-IO's P_Write_Shared), and its short counts do reach the
 * caller (a full disk ends type 1 with "moved N of M doubles"). */
void mb_bio_check_size(struct mb_bio_run *r, const struct mb_bio_file *f,
                       const struct mb_bio_step *s)
{
    const int type = mb_bio_table[s->p].type;
    MPI_Offset least, largest;
    int me;

    if (scattered(r->b, type))
        least = f->disp; /* the tiles end where the next pattern's begin */
    else if (type == MB_BIO_SHARED)
        return;
    else if (type == MB_BIO_SEPARATE)
        least = f->wrote;
    else /* segmented: the last process's segment */
        least = (MPI_Offset)(f->n - 1) * (MPI_Offset)s->lseg + f->wrote;
    if (!io_ok(r, f, mb_scratch_file_extent(f->fh, f->comm, &largest), "MPI_File_get_size"))
        return;
    MB_MPI(MPI_Comm_rank(f->comm, &me));
    if (largest < least && me == 0)
        mb_bio_record(
            r,
            "the write pass of pattern %d left '%s' with %lld bytes, but %lld were written "
            "up to there (is the file system full?)",
            s->p, f->path, (long long)largest, (long long)least);
}

static void report(const struct mb_bio_run *r, const struct mb_bio_step *s, long long rep,
                   long long i, double got, double want, long long *shown)
{
    if (++*shown > r->b->max_errors)
        return;
    mb_eprintf("%s: data error on rank %d: %s pass, pattern %d (type %s, chunk %lld bytes), "
               "repetition %lld, element %lld: read %.1f, expected %.1f",
               r->cfg->prog, r->ctx->rank, mb_bio_access_name[s->access], s->p,
               mb_bio_type_name[mb_bio_table[s->p].type], (long long)s->chunk * 8, rep, i, got,
               want);
}

/* After a read: the stamps of every chunk as the last pass that wrote them left them (the
 * rewrite for type 0, or for every type with -rewrite); with --check every other element
 * too. Returns the wrong elements; prints at most -e per pattern (*shown counts). */
long long mb_bio_verify(struct mb_bio_run *r, const struct mb_bio_step *s, long long rep,
                        long long *shown)
{
    const int type = mb_bio_table[s->p].type;
    const int a_old = r->b->rewrite || type == MB_BIO_SCATTER ? MB_BIO_REWRITE : MB_BIO_WRITE;
    const double *b = r->rbuf;
    long long bad = 0;

    if (s->chunk <= 0)
        return 0;
    for (long long c = 0; c < s->elems; c += s->chunk) {
        const long long last = c + s->chunk - 1;
        const double first_want = stamp_value(rep, c, s->p, a_old, 0),
                     last_want = stamp_value(rep, c, s->p, a_old, 1);
        if (s->chunk > 1 && b[c] != first_want) {
            bad++;
            report(r, s, rep, c, b[c], first_want, shown);
        }
        if (b[last] != last_want) {
            bad++;
            report(r, s, rep, last, b[last], last_want, shown);
        }
        if (r->cfg->common.check)
            for (long long e = c + 1; e < last; e++)
                if (b[e] != -2.0 * (double)e) {
                    bad++;
                    report(r, s, rep, e, b[e], -2.0 * (double)e, shown);
                }
    }
    return bad;
}
