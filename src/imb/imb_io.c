/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB-IO kernels (IMB guide 4.2.4-4.2.5) and the per-block file (5.2.3.2, 5.2.3.4).
 *
 * One transfer of X bytes is shared by the group: each process moves its portion (X split
 * into Q pieces of whole ints, IMB's rank portion) - to a common file through a tiled view
 * (indv), explicit offsets (expl) or the shared pointer (shared, ordered when collective), or
 * to its own file (priv; the S_ benchmarks are one process with its own file). Transfer i
 * uses the i-th X-byte tile of the file, so the transfers of one loop are disjoint
 * (4.2.2.2.2). Writes assure completion with sync / barrier / sync (4.2.2.2.1).
 *
 * One file per benchmark and process count, as IMB 3.1 (IMB.c calls IMB_init_file once before
 * the loop over the modes): a blocking write's aggregate block creates it with its size preset
 * (MPI_File_set_size, IMB_init_file.c) and the non-aggregate block that follows writes into
 * the same file (docs/adr/program-imb-io-files.md).
 *
 * The files are the user's disk: they are created exclusively through core/scratch.h (an
 * existing file is never taken over without --force), registered for removal on every exit
 * path, and removed after the benchmark's last block unless -keep. Every MPI-IO call returns its
 * error (the files use MPI_ERRORS_RETURN); a failure, or a transfer that moved fewer bytes than
 * asked (a full disk), is recorded in a->failure with a message naming the file, and the driver
 * ends the run with that agreed run-time error between two lengths - never an MPI_Abort, so
 * that the main job goes on with its next phase (docs/adr/io-space-check.md). After a failure
 * the calls go on as the loop counts say (each process makes the same collective calls) but
 * only the first failure is kept. */
#include "core/error.h"
#include "core/scratch.h"
#include "imb/imb_bench.h"
#include "imb/imb_io_buffers.h"
#include "imb/imb_settings.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The pattern of a file the read benchmarks read: byte p of the file is
 * mb_pattern_byte(FILE_RANK, p), whatever process wrote it. */
enum { FILE_RANK = -1 };

/* The blocking transfers, called through pointers to the MPI functions as IMB 3.1 calls them
 * (IMB_write.c and IMB_read.c pick GEN_File_write = MPI_File_write, MPI_File_write_all, ...).
 * Taking a function's address makes the dynamic linker bind it when the program is loaded (a
 * GLOB_DAT relocation of a position-independent executable), where a direct call is bound
 * lazily at its first call - and that first call fell into the first timed loop of 50 that
 * used the function: on MPICH 4.0 a 0-byte MPI_File_read took 0.07-0.2 us per call there
 * instead of IMB 3.1's 0.03 (docs/figures.md, "IMB-IO's first calls"). The pointers live in
 * the block's state, filled at setup, so that no compiler turns them back into direct calls.
 * The non-blocking calls, MPI_File_sync and MPI_Waitall stay direct calls, as in IMB 3.1;
 * MPI_Get_count, which IMB 3.1 does not call, goes through a pointer too. */
struct io_calls {
    int (*write)(MPI_File, const void *, int, MPI_Datatype, MPI_Status *);
    int (*write_at)(MPI_File, MPI_Offset, const void *, int, MPI_Datatype, MPI_Status *);
    int (*write_shared)(MPI_File, const void *, int, MPI_Datatype, MPI_Status *);
    int (*write_all)(MPI_File, const void *, int, MPI_Datatype, MPI_Status *);
    int (*write_at_all)(MPI_File, MPI_Offset, const void *, int, MPI_Datatype, MPI_Status *);
    int (*write_ordered)(MPI_File, const void *, int, MPI_Datatype, MPI_Status *);
    int (*read)(MPI_File, void *, int, MPI_Datatype, MPI_Status *);
    int (*read_at)(MPI_File, MPI_Offset, void *, int, MPI_Datatype, MPI_Status *);
    int (*read_shared)(MPI_File, void *, int, MPI_Datatype, MPI_Status *);
    int (*read_all)(MPI_File, void *, int, MPI_Datatype, MPI_Status *);
    int (*read_at_all)(MPI_File, MPI_Offset, void *, int, MPI_Datatype, MPI_Status *);
    int (*read_ordered)(MPI_File, void *, int, MPI_Datatype, MPI_Status *);
    int (*get_count)(const MPI_Status *, MPI_Datatype, int *); /* io_done's, not IMB 3.1's */
};

struct io_state {
    struct io_calls call;
    char path[MB_SCRATCH_PATH_MAX];
    int creator;       /* this process created the file and removes it */
    MPI_Comm fcomm;    /* the file's communicator: the group, or MPI_COMM_SELF */
    int amode;         /* IMB's, for Open_Close's timed open */
    int reopen;        /* the untimed opens: amode without MPI_MODE_CREATE (the file exists) */
    MPI_Datatype view; /* the tiled filetype, or MPI_DATATYPE_NULL */
    MPI_Request *reqs;
    MPI_Status *stats;
    long nreq;
};

static struct io_state *state_of(const struct mb_imb_args *a)
{
    return a->state;
}

/* ---- errors -------------------------------------------------------------------------- */

/* Records the first failure of this process, "rank R: what happened". */
__attribute__((cold, format(printf, 2, 3))) static void io_failed(const struct mb_imb_args *a,
                                                                  const char *fmt, ...)
{
    char text[sizeof a->failure->msg];
    va_list ap;

    if (a->failure->kind != MB_ERR_NONE)
        return;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    mb_error_set(a->failure, MB_ERR_RUNTIME, "rank %d: %s", a->world_rank, text);
}

__attribute__((cold)) static void io_fail(const struct mb_imb_args *a, int rc, const char *what)
{
    char text[MPI_MAX_ERROR_STRING + 128];

    mb_scratch_mpi_message(rc, text, sizeof text);
    io_failed(a, "%s on '%s' failed: %s", what, state_of(a)->path, text);
}

__attribute__((cold)) static void io_short(const struct mb_imb_args *a, const char *what, int got,
                                           size_t want)
{
    io_failed(a, "%s on '%s' moved %d of %zu bytes (is the file system full?)", what,
              state_of(a)->path, got, want);
}

/* A finished transfer: the call succeeded and moved the whole portion. */
static inline void io_done(const struct mb_imb_args *a, int rc, const MPI_Status *st,
                           const char *what)
{
    int got = 0;

    if (__builtin_expect(rc != MPI_SUCCESS, 0)) {
        io_fail(a, rc, what);
        return;
    }
    /* A 0-byte transfer cannot come up short, and there the count is what costs: MPICH's
     * MPI_Get_count made a 0-byte write or read 0.05-0.1 us slower than IMB 3.1's loop, which
     * ignores the status (IMB_write.c, IMB_read.c), i.e. twice its time. */
    if (a->portion == 0)
        return;
    state_of(a)->call.get_count(st, MPI_BYTE, &got);
    if (__builtin_expect((size_t)got != a->portion, 0))
        io_short(a, what, got, a->portion);
}

static inline void io_ok(const struct mb_imb_args *a, int rc, const char *what)
{
    if (__builtin_expect(rc != MPI_SUCCESS, 0))
        io_fail(a, rc, what);
}

/* ---- the block's file ------------------------------------------------------------------ */

/* IMB_init_file (IMB 3.1 IMB_init_file.c): the process that created the file presets its
 * size with MPI_File_set_size to the bytes the block's loops reach (a->span; for the standard
 * lengths IMB's own total, 16 MiB), and for the read benchmarks writes their content, bytes
 * [0, bytes) of the pattern in 1 MiB pieces - through MPI-IO on MPI_COMM_SELF, before anyone
 * else opens the file, as the original does. The selftest corrupts byte 0, which the check
 * transfer reads.
 *
 * The pieces go through a buffer only for a read benchmark, as in IMB 3.1: under -buf_scope
 * run the run's send buffer, grown to the first piece and freed after the last
 * (IMB_alloc_buf, IMB_del_s_buf) - freeing a 1 MiB mapping raises glibc's mmap threshold, which
 * decides where the next buffers go; under -buf_scope block a buffer of its own. */
static unsigned char *content_buffer(const struct mb_imb_args *a, size_t n)
{
    struct mb_imb_io_buffers *kept = a->io_buffers;

    if (!kept)
        return mb_xmalloc(n);
    if (!mb_imb_io_buffers_grow(kept, mb_imb_io_buffer_len((long long)n), 0))
        return NULL;
    return (unsigned char *)kept->s;
}

static void content_done(const struct mb_imb_args *a, unsigned char *buf)
{
    if (a->io_buffers)
        mb_imb_io_buffers_drop_send(a->io_buffers);
    else
        free(buf);
}

static void init_file(const struct mb_imb_args *a, const char *path, long long bytes)
{
    enum { CHUNK = 1 << 20 };
    unsigned char *buf = NULL;
    struct mb_error err = {0};
    char text[MPI_MAX_ERROR_STRING + 128];
    MPI_File fh;
    int rc;

    if (mb_scratch_open(MPI_COMM_SELF, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh, &err) !=
        MPI_SUCCESS) {
        io_failed(a, "%s", err.msg);
        return;
    }
    rc = MPI_File_set_size(fh, (MPI_Offset)bytes);
    if (rc != MPI_SUCCESS) {
        mb_scratch_mpi_message(rc, text, sizeof text);
        io_failed(a, "cannot set the size of '%s' to %lld bytes: %s", path, bytes, text);
        bytes = 0; /* no content either; the file is closed below */
    }
    if (a->bench->io.read && bytes > 0) {
        buf = content_buffer(a, bytes < CHUNK ? (size_t)bytes : CHUNK);
        if (!buf) {
            io_failed(a, "cannot allocate %lld bytes for the content of '%s'",
                      bytes < CHUNK ? bytes : (long long)CHUNK, path);
            bytes = 0;
        }
    }
    for (long long pos = 0; buf && pos < bytes;) {
        const int n = bytes - pos < CHUNK ? (int)(bytes - pos) : CHUNK;
        MPI_Status st;
        int got = 0;
        mb_fill_bytes(buf, (size_t)n, FILE_RANK, (size_t)pos);
        if (a->selftest && pos == 0)
            buf[0] ^= 0x5A;
        rc = MPI_File_write(fh, buf, n, MPI_BYTE, &st);
        if (rc != MPI_SUCCESS) {
            mb_scratch_mpi_message(rc, text, sizeof text);
            io_failed(a, "cannot write the content of '%s': %s", path, text);
            break;
        }
        MPI_Get_count(&st, MPI_BYTE, &got);
        if (got != n) {
            io_failed(a,
                      "MPI_File_write on '%s' (its content) moved %d of %d bytes (is the file "
                      "system full?)",
                      path, got, n);
            break;
        }
        pos += n;
    }
    if (MPI_File_close(&fh) != MPI_SUCCESS)
        io_failed(a, "cannot write the content of '%s': MPI_File_close failed", path);
    if (buf)
        content_done(a, buf);
}

/* Whether this block is the benchmark's first on its processes (it creates the file) and its
 * last (it removes the file): the blocking writes run an aggregate block, then a
 * non-aggregate one (imb_plan.c, add_items), which uses the same file. */
static int first_block(const struct mb_imb_args *a)
{
    return a->mode != MB_IMB_NON_AGGREGATE;
}

static int last_block(const struct mb_imb_args *a)
{
    return !(a->bench->aggregate && a->mode == MB_IMB_AGGREGATE);
}

/* Setup (guide 5.2.3.2): the name (IMB_out, _g<group> in Multi mode, _<rank> per process),
 * exclusive creation by the process that owns it, the preset size and the read content, then -
 * when all processes know the file exists - the open with RDWR (| UNIQUE_OPEN for private
 * files; IMB 3.1 adds CREATE, which only Open_Close's timed open keeps) over the file's
 * communicator. A non-aggregate block takes over the file of
 * the aggregate block before it, which this process created and registered (it checks that
 * the file at the path is still that one); had that block no file (its buffers did not fit),
 * it creates one as a first block does. */
void mb_imb_io_setup(struct mb_imb_args *a)
{
    const struct mb_imb_bench *b = a->bench;
    const struct mb_imb_config *c = a->cfg;
    const int priv = b->file == MB_IMB_PRIVATE_FILES;
    struct io_state *st = mb_xcalloc(1, sizeof *st);
    struct mb_error err = {0};

    a->state = st;
    st->call = (struct io_calls){.write = MPI_File_write,
                                 .write_at = MPI_File_write_at,
                                 .write_shared = MPI_File_write_shared,
                                 .write_all = MPI_File_write_all,
                                 .write_at_all = MPI_File_write_at_all,
                                 .write_ordered = MPI_File_write_ordered,
                                 .read = MPI_File_read,
                                 .read_at = MPI_File_read_at,
                                 .read_shared = MPI_File_read_shared,
                                 .read_all = MPI_File_read_all,
                                 .read_at_all = MPI_File_read_at_all,
                                 .read_ordered = MPI_File_read_ordered,
                                 .get_count = MPI_Get_count};
    st->view = MPI_DATATYPE_NULL;
    st->fcomm = priv ? MPI_COMM_SELF : a->comm;
    /* The timer's barriers (IMB 3.1: N_BARR on File_comm, IMB_read.c and IMB_write.c; the
     * guide's 5.2.7: on MY_COMM), docs/adr/program-imb-io-timer-sync.md. */
    a->sync = c->io_barriers_guide ? a->comm : st->fcomm;
    st->amode = MPI_MODE_CREATE | MPI_MODE_RDWR | (priv ? MPI_MODE_UNIQUE_OPEN : 0);
    /* The setup's and every reset's open find the file the creator made: without
     * MPI_MODE_CREATE a file removed behind the run's back is an agreed error, not a new file
     * that nobody registered for removal (it was left behind). */
    st->reopen = st->amode & ~MPI_MODE_CREATE;
    st->creator = priv || a->rank == 0;
    if (mb_scratch_path(st->path, sizeof st->path, c->io_dir,
                        c->io_file ? c->io_file : MB_IMB_IO_FILENAME, a->group_no,
                        priv ? a->world_rank : -1, &err) != 0)
        mb_die("%s", err.msg);
    /* Only independent non-blocking rows hold a request per transfer; their arrays are part
     * of the length's demand (imb_plan.c), so they fit the -mem cap. */
    if (b->istart && !b->one_by_one) {
        st->reqs = mb_xcalloc((size_t)a->max_reps, sizeof *st->reqs);
        st->stats = mb_xcalloc((size_t)a->max_reps, sizeof *st->stats);
    }
    if (st->creator && (first_block(a) || !mb_scratch_is_ours(st->path))) {
        /* With -keep the previous benchmark's file of this name is still there: this run
         * created it and may overwrite it. */
        if (mb_scratch_create(st->path,
                              c->io_force || mb_scratch_is_ours(st->path) ? MB_SCRATCH_FORCE : 0,
                              &err) != 0)
            io_failed(a, "%s", err.msg);
        /* The tiles the block's loops reach (a private file: this process's portions);
         * Open_Close's file is only opened, as in IMB (no access: no IMB_init_file). */
        else if (!b->sizeless)
            init_file(a, st->path, a->span);
    }
    /* Every file exists before anyone opens it - unless a creator failed (a full disk, a
     * directory made read-only or removed since the check): then nobody opens, since an open
     * with MPI_MODE_CREATE would make a file no process registered for removal. The driver
     * agrees on the failure right after setup. */
    {
        int failed = a->failure->kind != MB_ERR_NONE;
        MB_MPI(MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, a->comm));
        if (failed)
            return;
    }
    /* A file removed since its creation: every process returns non-zero, rank 0 says why. */
    if (!priv &&
        mb_scratch_require_shared(st->path, a->comm,
                                  "files that several processes open together need a --dir "
                                  "that every process sees (a shared file system); in a "
                                  "node-local directory only the S_ and P_*_Priv benchmarks run",
                                  &err) != 0) {
        if (err.kind != MB_ERR_NONE)
            io_failed(a, "%s", err.msg);
        return;
    }
    if (b->sizeless)
        return; /* Open_Close opens the file in its kernel */
    if (mb_scratch_open(st->fcomm, st->path, st->reopen, a->info, &a->fh, &err) != MPI_SUCCESS)
        io_failed(a, "%s", err.msg);
}

void mb_imb_io_teardown(struct mb_imb_args *a)
{
    struct io_state *st = a->state;

    if (a->fh != MPI_FILE_NULL)
        io_ok(a, MPI_File_close(&a->fh), "MPI_File_close");
    if (st->view != MPI_DATATYPE_NULL)
        MB_MPI(MPI_Type_free(&st->view));
    /* Everyone has closed before the owner removes the file - after the benchmark's last
     * block; until then it stays registered for removal on every exit path. */
    MB_MPI(MPI_Barrier(a->comm));
    if (st->creator && last_block(a) && !a->cfg->io_keep)
        (void)mb_scratch_remove(st->path);
    free(st->reqs);
    free(st->stats);
    free(st);
    a->state = NULL;
}

/* The portion of this process (IMB_get_rank_portion): X in whole ints, split as evenly as
 * possible, the first (units mod Q) processes one int more; the last byte is X - 1. */
void mb_imb_io_prepare(struct mb_imb_args *a)
{
    const size_t unit = MB_IMB_IO_ASSIGN_SIZE, x = a->bytes;
    const size_t units = (x + unit - 1) / unit, q = (size_t)a->size, r = (size_t)a->rank;
    const size_t base = units / q, extra = units % q;
    size_t first = (r < extra ? r * (base + 1) : r * base + extra) * unit;
    size_t last = first + (r < extra ? base + 1 : base) * unit; /* one past */

    if (last > x)
        last = x;
    if (first > x)
        first = x;
    a->portion = last - first;
    a->offset = a->bench->file == MB_IMB_PRIVATE_FILES ? 0 : (MPI_Offset)first;
}

/* Before every timed loop (guide 5.2.8.3: close and re-open the file) the file is opened
 * afresh and gets the length's view (5.2.3.4: disp 0, etype MPI_BYTE, "native"; filetype
 * the tiled block for indv), which puts both file pointers at 0. */
void mb_imb_io_reset(struct mb_imb_args *a)
{
    struct io_state *st = a->state;
    struct mb_error err = {0};
    MPI_Datatype ftype = MPI_BYTE;

    if (a->fh != MPI_FILE_NULL)
        io_ok(a, MPI_File_close(&a->fh), "MPI_File_close");
    if (mb_scratch_open(st->fcomm, st->path, st->reopen, a->info, &a->fh, &err) != MPI_SUCCESS)
        io_failed(a, "%s", err.msg);
    if (st->view != MPI_DATATYPE_NULL)
        MB_MPI(MPI_Type_free(&st->view));
    if (a->bench->io.tiled && a->portion > 0) {
        /* One block of the portion at the process's offset in an X-byte tile. */
        int len = (int)a->portion;
        MPI_Aint disp = (MPI_Aint)a->offset;
        MPI_Datatype block, bt = MPI_BYTE;
        MB_MPI(MPI_Type_create_struct(1, &len, &disp, &bt, &block));
        MB_MPI(MPI_Type_create_resized(block, 0, (MPI_Aint)a->bytes, &st->view));
        MB_MPI(MPI_Type_commit(&st->view));
        MB_MPI(MPI_Type_free(&block));
        ftype = st->view;
    }
    /* Every open sets the view, as IMB 3.1's IMB_open_file does - also where it equals the
     * default view of a freshly opened file (disp 0, MPI_BYTE, MPI_BYTE, "native"). Not for the
     * view's sake: the call makes the MPI library bind the functions it shares with the
     * transfers (MPICH 4.0's MPI_Type_size_x) before the timed loop rather than inside the first
     * one (docs/figures.md, "IMB-IO's first calls"). */
    io_ok(a, MPI_File_set_view(a->fh, 0, MPI_BYTE, ftype, "native", a->info), "MPI_File_set_view");
}

/* Assure completion of writes (4.2.2.2.1): sync, barrier over the file's processes, sync. */
void mb_imb_io_sync(const struct mb_imb_args *a)
{
    io_ok(a, MPI_File_sync(a->fh), "MPI_File_sync");
    MB_MPI(MPI_Barrier(state_of(a)->fcomm));
    io_ok(a, MPI_File_sync(a->fh), "MPI_File_sync");
}

/* ---- blocking transfers (4.2.4.1-4.2.4.9) ---------------------------------------------- */

/* Explicit offset of transfer iter: the process's block in the iter-th tile. */
static inline MPI_Offset at(const struct mb_imb_args *a, long iter)
{
    return a->offset +
           (MPI_Offset)iter *
               (MPI_Offset)(a->bench->file == MB_IMB_PRIVATE_FILES ? a->portion : a->bytes);
}

/* After a timed write loop of n transfers (not timed): the last bytes this process wrote -
 * the end of its portion of transfer n - 1 - must read back as sent. The file's size is
 * preset (init_file), so a write that a full disk lost leaves a hole that reads as zeros and
 * no size shows it; and Open MPI 4.1's collective writes (fcoll) print a failed pwritev ("No
 * space left on device") on stderr but return success with the full count (core/scratch.h).
 * The data is visible here: the loop ended with sync / barrier / sync (mb_imb_io_sync). A
 * failed loop whose last transfer overwrote bytes an earlier loop wrote goes unseen (those
 * need no new space except on copy-on-write file systems); the first loop that should have
 * reached new blocks is caught. Shared-pointer rows are left out: where their blocks went is
 * not known here, and their short counts do reach the caller.
 * The bytes are read with POSIX pread on the file's path (a path mpibench created, core/
 * scratch.h), not through MPI-IO: IMB 3.1 reads nothing before its first read benchmark, whose
 * first loop with data pays the MPI library's first binding of its read path (MPICH's
 * S_Read_Indv at 1 KiB: about 10 us, 0.2 us a repetition); an MPI-IO read here would take
 * that cost out of mpibench's loop (docs/figures.md, "S_Read_Indv at 1 KiB on MPICH"). */
void mb_imb_io_written(const struct mb_imb_args *a, long n)
{
    enum { TAIL = 8 };
    const size_t k = a->portion < TAIL ? a->portion : TAIL;
    unsigned char tail[TAIL];
    off_t pos;
    ssize_t got = -1;
    int fd;

    if (a->bench->io.shared_ptr || k == 0 || n < 1)
        return;
    /* Where in the file: a tiled view puts transfer n - 1's block in tile n - 1 at the
     * process's offset; the other views are the file's bytes (at). */
    pos = a->bench->io.tiled ? (off_t)(n - 1) * (off_t)a->bytes + (off_t)a->offset
                             : (off_t)at(a, n - 1);
    pos += (off_t)(a->portion - k);
    fd = open(state_of(a)->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        /* Removed behind the run's back (or made unreadable): an error naming the file and
         * the system's reason, as a failed reopen's (mb_imb_io_reset). */
        io_failed(a, "cannot open '%s' to check the writes: %s", state_of(a)->path,
                  strerror(errno));
        return;
    }
    do
        got = pread(fd, tail, k, pos);
    while (got < 0 && errno == EINTR);
    close(fd);
    if (got != (ssize_t)k || memcmp(tail, a->sbuf + a->portion - k, k) != 0)
        io_failed(a,
                  "after %ld writes of %zu bytes the last ones are not in '%s' (is the file "
                  "system full?)",
                  n, a->portion, state_of(a)->path);
}

#define IO_KERNEL(fn, ...)                                                                         \
    void mb_imb_io_##fn(const struct mb_imb_args *a, long iter)                                    \
    {                                                                                              \
        MPI_Status st;                                                                             \
        (void)iter;                                                                                \
        io_done(a, state_of(a)->call.fn(a->fh, __VA_ARGS__, (int)a->portion, MPI_BYTE, &st), &st,  \
                "MPI_File_" #fn);                                                                  \
    }
IO_KERNEL(write, a->sbuf)
IO_KERNEL(write_at, at(a, iter), a->sbuf)
IO_KERNEL(write_shared, a->sbuf)
IO_KERNEL(write_all, a->sbuf)
IO_KERNEL(write_at_all, at(a, iter), a->sbuf)
IO_KERNEL(write_ordered, a->sbuf)
IO_KERNEL(read, a->rbuf)
IO_KERNEL(read_at, at(a, iter), a->rbuf)
IO_KERNEL(read_shared, a->rbuf)
IO_KERNEL(read_all, a->rbuf)
IO_KERNEL(read_at_all, at(a, iter), a->rbuf)
IO_KERNEL(read_ordered, a->rbuf)
#undef IO_KERNEL

/* ---- non-blocking transfers (4.2.5) ------------------------------------------------------
 * Independent I/O: istart posts requests for transfers first .. first+n-1, iwait completes
 * them all. Collective I/O has no requests in MPI 3.1's split collectives: begin, then end,
 * one outstanding per file (the driver runs these rows one transfer at a time). */

#define IO_ISTART(fn, call)                                                                        \
    void mb_imb_io_##fn(const struct mb_imb_args *a, long first, long n)                           \
    {                                                                                              \
        struct io_state *st = a->state;                                                            \
        for (long i = 0; i < n; i++) {                                                             \
            const long iter = first + i;                                                           \
            MPI_Request *req = &st->reqs[i];                                                       \
            (void)iter;                                                                            \
            io_ok(a, call, #fn);                                                                   \
        }                                                                                          \
        st->nreq = n;                                                                              \
    }
IO_ISTART(iwrite, MPI_File_iwrite(a->fh, a->sbuf, (int)a->portion, MPI_BYTE, req))
IO_ISTART(iwrite_at,
          MPI_File_iwrite_at(a->fh, at(a, iter), a->sbuf, (int)a->portion, MPI_BYTE, req))
IO_ISTART(iwrite_shared, MPI_File_iwrite_shared(a->fh, a->sbuf, (int)a->portion, MPI_BYTE, req))
IO_ISTART(iread, MPI_File_iread(a->fh, a->rbuf, (int)a->portion, MPI_BYTE, req))
IO_ISTART(iread_at, MPI_File_iread_at(a->fh, at(a, iter), a->rbuf, (int)a->portion, MPI_BYTE, req))
IO_ISTART(iread_shared, MPI_File_iread_shared(a->fh, a->rbuf, (int)a->portion, MPI_BYTE, req))
#undef IO_ISTART

void mb_imb_io_waitall(const struct mb_imb_args *a)
{
    struct io_state *st = a->state;
    const int rc = MPI_Waitall((int)st->nreq, st->reqs, st->stats);

    for (long i = 0; i < st->nreq; i++)
        io_done(a, rc, &st->stats[i], "MPI_Waitall (non-blocking I/O)");
    st->nreq = 0;
}

#define IO_SPLIT(fn, begin_call, end_call)                                                         \
    void mb_imb_io_##fn##_begin(const struct mb_imb_args *a, long first, long n)                   \
    {                                                                                              \
        const long iter = first;                                                                   \
        (void)iter;                                                                                \
        (void)n;                                                                                   \
        io_ok(a, begin_call, "MPI_File_" #fn "_begin");                                            \
    }                                                                                              \
    void mb_imb_io_##fn##_end(const struct mb_imb_args *a)                                         \
    {                                                                                              \
        MPI_Status st;                                                                             \
        io_done(a, end_call, &st, "MPI_File_" #fn "_end");                                         \
    }
IO_SPLIT(write_all, MPI_File_write_all_begin(a->fh, a->sbuf, (int)a->portion, MPI_BYTE),
         MPI_File_write_all_end(a->fh, a->sbuf, &st))
IO_SPLIT(write_at_all,
         MPI_File_write_at_all_begin(a->fh, at(a, iter), a->sbuf, (int)a->portion, MPI_BYTE),
         MPI_File_write_at_all_end(a->fh, a->sbuf, &st))
IO_SPLIT(write_ordered, MPI_File_write_ordered_begin(a->fh, a->sbuf, (int)a->portion, MPI_BYTE),
         MPI_File_write_ordered_end(a->fh, a->sbuf, &st))
IO_SPLIT(read_all, MPI_File_read_all_begin(a->fh, a->rbuf, (int)a->portion, MPI_BYTE),
         MPI_File_read_all_end(a->fh, a->rbuf, &st))
IO_SPLIT(read_at_all,
         MPI_File_read_at_all_begin(a->fh, at(a, iter), a->rbuf, (int)a->portion, MPI_BYTE),
         MPI_File_read_at_all_end(a->fh, a->rbuf, &st))
IO_SPLIT(read_ordered, MPI_File_read_ordered_begin(a->fh, a->rbuf, (int)a->portion, MPI_BYTE),
         MPI_File_read_ordered_end(a->fh, a->rbuf, &st))
#undef IO_SPLIT

/* ---- Open_Close (4.2.4.10): open, a negligible write, close ---------------------------- */

void mb_imb_io_open_close(const struct mb_imb_args *a, long iter)
{
    struct io_state *st = a->state;
    struct mb_error err = {0};
    MPI_File fh;
    MPI_Status status;
    char dummy = 0;

    (void)iter;
    if (mb_scratch_open(a->comm, st->path, st->amode, a->info, &fh, &err) != MPI_SUCCESS) {
        io_failed(a, "%s", err.msg);
        return;
    }
    io_ok(a, MPI_File_write(fh, &dummy, 1, MPI_BYTE, &status), "MPI_File_write");
    io_ok(a, MPI_File_close(&fh), "MPI_File_close");
}

size_t mb_imb_io_check_none(const struct mb_imb_args *a, long iter)
{
    (void)a;
    (void)iter;
    return 0;
}

/* ---- checks (guide 7.2): the driver runs one untimed transfer 0 right after a reset ------ */

/* Writes: read this process's block of tile 0 back (the view hides the other blocks of a
 * tiled file; explicit and ordered blocks sit at the offset) and compare it with the send
 * pattern. */
size_t mb_imb_io_check_write(const struct mb_imb_args *a, long iter)
{
    MPI_Status st;
    const MPI_Offset pos = a->bench->io.tiled ? 0 : a->offset;

    (void)iter;
    io_done(a, MPI_File_read_at(a->fh, pos, a->rbuf, (int)a->portion, MPI_BYTE, &st), &st,
            "MPI_File_read_at (check)");
    return mb_check_bytes(a->rbuf, a->portion, a->rank, 0);
}

/* The portion of group rank r (as mb_imb_io_prepare computes it for this process). */
static size_t portion_of(const struct mb_imb_args *a, int r)
{
    struct mb_imb_args other = *a;
    other.rank = r;
    mb_imb_io_prepare(&other);
    return other.portion;
}

/* Where a block was placed is recognised by its first bytes (up to 16): a place matches when
 * at most a quarter of them differ, so that one wrong byte is counted as one defect rather
 * than as a block that cannot be found. */
enum { PROBE = 16 };

static size_t probe_len(size_t n)
{
    return n < PROBE ? n : PROBE;
}

static int probe_matches(const unsigned char *buf, size_t n, int rank, size_t first)
{
    const size_t len = probe_len(n);
    return mb_check_bytes(buf, len, rank, first) <= len / 4;
}

/* P_[I]Write_shared: the processes' blocks lie in tile 0 in an order nobody chose. Group rank
 * 0 reads the tile and takes it apart: at each position one block of a process not yet seen
 * must start (recognised by its first bytes) and continue to its end. Whatever cannot be
 * attributed counts as wrong. */
size_t mb_imb_io_check_write_shared(const struct mb_imb_args *a, long iter)
{
    MPI_Status st;
    const size_t x = a->bytes;
    unsigned char *seen, *buf = (unsigned char *)a->rbuf;
    size_t pos = 0, wrong = 0;

    (void)iter;
    if (a->rank != 0)
        return 0;
    {
        int got = 0;
        io_ok(a, MPI_File_read_at(a->fh, 0, a->rbuf, (int)x, MPI_BYTE, &st),
              "MPI_File_read_at (check)");
        MPI_Get_count(&st, MPI_BYTE, &got);
        if ((size_t)got != x)
            return x;
    }
    seen = mb_xcalloc((size_t)a->size, 1);
    while (pos < x) {
        int found = -1;
        for (int r = 0; r < a->size && found < 0; r++) {
            size_t len = seen[r] ? 0 : portion_of(a, r);
            if (len > 0 && len <= x - pos && probe_matches(buf + pos, len, r, 0))
                found = r;
        }
        if (found < 0) {
            wrong += x - pos;
            break;
        }
        const size_t len = portion_of(a, found);
        seen[found] = 1;
        wrong += mb_check_bytes(buf + pos, len, found, 0);
        pos += len;
    }
    free(seen);
    return wrong;
}

/* Reads: the portion must be the file's content at the block's place in tile 0. */
size_t mb_imb_io_check_read(const struct mb_imb_args *a, long iter)
{
    (void)iter;
    return mb_check_bytes(a->rbuf, a->portion, FILE_RANK, (size_t)a->offset);
}

/* P_[I]Read_shared: the block came from wherever the shared pointer was; it must be the file's
 * content at some place in tile 0 - found by its first bytes, then compared whole. */
size_t mb_imb_io_check_read_shared(const struct mb_imb_args *a, long iter)
{
    const size_t n = a->portion;

    (void)iter;
    if (n == 0)
        return 0;
    for (size_t pos = 0; pos + n <= a->bytes; pos++)
        if (probe_matches((const unsigned char *)a->rbuf, n, FILE_RANK, pos))
            return mb_check_bytes(a->rbuf, n, FILE_RANK, pos);
    return n;
}
