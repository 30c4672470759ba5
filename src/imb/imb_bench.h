/* SPDX-License-Identifier: BSD-3-Clause */
/* One IMB benchmark = one row of its family's const table (imb_table.c for IMB-MPI1,
 * imb_ext_table.c for IMB-EXT) + one kernel (docs/architecture.md, property 1). The driver
 * (imb_driver.c) owns warm-up, barriers, the clock, repetition counts and the aggregate /
 * non-aggregate modes; kernels never read the clock. */
#ifndef MB_IMB_BENCH_H
#define MB_IMB_BENCH_H

#include "core/buffers.h"
#include "core/error.h"
#include "core/options.h"
#include "core/suite.h"
#include "imb/imb_config.h"
#include "imb/imb_offcache.h"

#include <mpi.h>
#include <stddef.h>

struct mb_imb_io_buffers;

/* Benchmark classes (IMB guide 3.3.1, 4.2.1): they choose the table layout and the
 * throughput. MB_IMB_OTHER is the guide's "Other" column (Window, Open_Close): times as a
 * collective, any process count. */
enum mb_imb_class {
    MB_IMB_SINGLE,
    MB_IMB_PARALLEL,
    MB_IMB_COLLECTIVE,
    MB_IMB_SYNC,
    MB_IMB_OTHER,
    /* Intel IMB 2021.11's ParallelTransferMsgRate (Uniband, Biband): pairs r, r + Q/2 on an
     * even Q, bandwidth and message rate from t_max (IMB_output.c). */
    MB_IMB_MSGRATE
};

/* The mode of one block (guide 4.2.2.2): MPI-1 benchmarks have none; the aggregate ones run
 * twice, with completion assured once after all M = n_sample transfers, then after each. */
enum mb_imb_mode { MB_IMB_MODE_NONE = 0, MB_IMB_AGGREGATE = 1, MB_IMB_NON_AGGREGATE = 2 };

/* Buffer demand per process: mult * X, times Q when per_rank (guide 7.1, Table 20); with
 * split, the process's share of X instead (IMB-IO: X is divided among the Q processes in
 * units of sizeof(assign_type), guide 4.2.4.3 Figure 15). */
struct mb_imb_bufsize {
    unsigned char mult;
    unsigned char per_rank;
    unsigned char split;
};

/* What a kernel sees for one message length. */
struct mb_imb_args {
    MPI_Comm comm;           /* the group running the benchmark */
    int rank, size;          /* in the group */
    int left, right;         /* periodic chain neighbours */
    size_t bytes;            /* X, a multiple of the element size */
    int count;               /* X in elements */
    char *sbuf, *rbuf;       /* first buffer of the rotation */
    size_t sregion, rregion; /* bytes allocated behind sbuf and rbuf (the block's largest) */
    size_t sused, rused;     /* bytes of those regions this length's layout uses */
    struct mb_slots slots;
    int *counts, *displs; /* per-rank counts and displacements, in elements */
    size_t second;        /* Exchange: offset of the second receive buffer */
    int check;            /* check mode: buffers are laid out so that every byte can be checked */
    MPI_Comm parent;      /* all processes of all groups (windows of Multi mode) */
    MPI_Win win;          /* the window (setup and open_length hooks), or MPI_WIN_NULL */
    long long win_bytes;  /* MPI_WIN_SIZE of win as the library reports it; -1 without one */
    MPI_Info info;        /* info for windows (--info), or MPI_INFO_NULL */
    MPI_File fh;          /* the block's file (setup hook), or MPI_FILE_NULL */
    /* The communicator of the barriers before a timed loop: the group; for IMB-IO the file's
     * (setup hook), as IMB 3.1 synchronises on File_comm (IMB_read.c, IMB_write.c) - for
     * private files MPI_COMM_SELF, so that those processes start their loops unsynchronised. */
    MPI_Comm sync;
    void *state; /* what the setup hook keeps for its teardown */
    /* IMB-IO: this process's share of X and where it starts in each X-byte tile of the
     * file (guide 4.2.4.3-4.2.4.6); the whole of X for the single-process benchmarks. */
    size_t portion;
    MPI_Offset offset;
    int group_no; /* the group's number in Multi mode (file names "_g<group>"), else -1 */
    int world_rank;
    /* For hooks that serve several rows: the row, the settings, and the extent of the
     * block's timed loops over the lengths it runs (the bytes of its file a process's loops
     * reach, mb_imb_io_file_bytes, and the largest repetition count). */
    const struct mb_imb_bench *bench;
    const struct mb_imb_config *cfg;
    enum mb_imb_mode mode; /* the block's (IMB-IO: the file outlives an aggregate block) */
    int selftest;
    long long span;
    long max_reps;
    /* Where a failure the block can stop on is recorded (the first one wins), for the driver
     * to agree on between lengths (families with can_stop): IMB-IO's failed I/O call - a full
     * disk ends the run with an agreed error, never an MPI_Abort of the job
     * (docs/adr/io-space-check.md) - and IMB-EXT's window the MPI library refused. */
    struct mb_error *failure;
    /* IMB-IO under -buf_scope run: the run's buffers, whose send buffer carries a read
     * benchmark's file content (IMB_init_file.c); NULL otherwise. */
    struct mb_imb_io_buffers *io_buffers;
    /* The root of rooted collectives stays at rank 0 (Intel IMB 2021.11's -root_shift off, the
     * IMB-NBC default) instead of moving to i % Q in repetition i (IMB 3.1). */
    int fixed_root;
};

/* IMB-IO's files (guide 5.2.3.2): none, one per group opened by the group's communicator,
 * or one per process opened by MPI_COMM_SELF (the S_ benchmarks and P_[ACTION]_priv). */
enum mb_imb_file { MB_IMB_NO_FILE, MB_IMB_SHARED_FILE, MB_IMB_PRIVATE_FILES };

/* IMB-IO access (guide 4.2.4): read or write; a tiled view of disjoint blocks (indv on a
 * shared file); the shared file pointer (shared; ordered when collective). */
struct mb_imb_io {
    unsigned char read, tiled, shared_ptr;
};

struct mb_imb_bench {
    const char *name;
    /* A benchmark whose original is Intel IMB 2021.11 (IMB-MPI1's additions to 3.1, every
     * IMB-NBC row): without -warm_up it warms every length up as 2021.11 does, and its
     * Mbytes/sec is 2021.11's, 10^6 bytes a second (IMB_output.c, MEGA), where 3.1's is 2^20. */
    int imb2021;
    /* Runs only when named (or given to -include), as the original's benchmarks without the
     * DEFAULT flag: IMB-MPI1's 2021.11 additions - so that a run without names prints exactly
     * what IMB 3.1 printed - and IMB-NBC's _pure variants. */
    int nondefault;
    enum mb_imb_class cls;
    int exact_procs;   /* 2 for the single transfer benchmarks; 0 = any Q */
    double time_scale; /* reported time per sample: 0.5 for PingPong (dt/2) */
    double bw_factor;  /* messages per sample counted in Mbytes/sec (3.3.3); 0 = none */
    size_t elem_size;  /* 1 (MPI_BYTE) or sizeof(float) for reductions */
    int sizeless;      /* Barrier: one row, no #bytes */
    struct mb_imb_bufsize sbuf, rbuf;
    unsigned char rbuf_check_mult; /* check mode receive demand if larger (Exchange) */
    /* One-sided transfers may target disjoint sections (guide 4.2.2.2): with -win_disp
     * sections the buffers hold one X-byte section per repetition and iteration i uses
     * section i; by default they have IMB 3.1's one buffer (or off-cache rotation). */
    int sections;
    int aggregate;         /* runs in aggregate, then non-aggregate mode (guide Table 1 "x") */
    int aggregate_only;    /* one block, in aggregate mode (IMB-IO reads, non-blocking I/O) */
    enum mb_imb_file file; /* IMB-IO: the block's scratch file(s) */
    struct mb_imb_io io;
    int nonaggr_reps; /* one block with the non-aggregate repetition count (Window) */
    /* Optional, collective over the group: before the first and after the last message
     * length of a block (a window over the block's buffers, a file). */
    void (*setup)(struct mb_imb_args *a);
    void (*teardown)(struct mb_imb_args *a);
    /* The setup runs before the block's buffers are allocated, and whether they fit or not
     * (IMB-IO: IMB 3.1 IMB.c line 184 initialises the file before the buffers; the 1 MiB
     * buffer its IMB_init_file frees raises glibc's mmap threshold, which decides where the
     * buffers allocated after it go - docs/adr/program-imb-io-buffers.md). */
    int setup_first;
    /* Optional, collective over the group, never timed: before the first and after the last
     * timed loop of each message length that runs (IMB-EXT's window of the length's buffers,
     * a->sused / a->rused bytes, as IMB 3.1 creates and frees it for every length). */
    void (*open_length)(struct mb_imb_args *a);
    void (*close_length)(struct mb_imb_args *a);
    /* Optional: assure completion (guide 4.2.2.2.1) - after every transfer in non-aggregate
     * mode, after all of them in aggregate mode. */
    void (*complete)(const struct mb_imb_args *a);
    /* Optional, collective over the group, never timed: after a timed loop of n transfers
     * that wrote a file, check that the file holds them (IMB-IO writes: a full disk must end
     * the run, not become a bandwidth). */
    void (*written)(const struct mb_imb_args *a, long n);
    /* Optional: set counts/displs/second (or the I/O share) for this message length. */
    void (*prepare)(struct mb_imb_args *a);
    /* Optional, collective over the group: before every timed loop and the check sample,
     * put the file positions back to the start of the length's view (IMB-IO; guide 5.2.8.3
     * "closing and re-opening the particular file(s)"). */
    void (*reset)(struct mb_imb_args *a);
    /* One sample of the pattern; iter picks the buffer and the root (i % Q). */
    void (*kernel)(const struct mb_imb_args *a, long iter);
    /* Optional, for aggregate mode: samples first .. first+n-1 in one call - the same
     * transfers as n kernel calls, without an indirect call per transfer, which at 0 bytes
     * is a measurable part of an MPI_Put (docs/adr/imb-ext-one-sided.md). */
    void (*batch)(const struct mb_imb_args *a, long first, long n);
    /* Non-blocking I/O (guide 4.2.5, 5.2.8.3): the kernel is the blocking equivalent that
     * gives t_pure; istart initiates transfers first .. first+n-1 and iwait completes them,
     * with the CPU exploited in between. With one_by_one (split collectives: one outstanding
     * per file) the driver starts, exploits and waits per transfer, otherwise it starts all
     * n, exploits n times and waits for all. */
    void (*istart)(const struct mb_imb_args *a, long first, long n);
    void (*iwait)(const struct mb_imb_args *a);
    int one_by_one;
    /* Intel IMB 2021.11's IMB-NBC (src_c/IMB_bcast.c IMB_ibcast ...): the non-blocking call
     * of repetition iter into *req; the driver waits for it (the kernel above is the call and
     * its wait, for the repetition policy and the check). With overlap the row is 2021.11's
     * overlap measurement - start and wait timed one repetition at a time (t_pure), then the
     * same with CPU work sized to this process's t_pure between them (t_ovrl, t_CPU); without,
     * it is a _pure variant, the first part alone. */
    void (*nbc_start)(const struct mb_imb_args *a, long iter, MPI_Request *req);
    /* IMB-MPI4 (src_c/IMB_bcast.c IMB_bcast_persist ...): instead of nbc_start, the persistent
     * request of repetition iter's operation; the driver creates it once before each loop (iter
     * 0: 2021.11 binds the first buffer and root 0), starts and waits for it every repetition and
     * frees it after the loop. */
    void (*persist_init)(const struct mb_imb_args *a, long iter, MPI_Request *req);
    int overlap;
    /* Check mode: number of received items that differ from what was sent in iteration iter. */
    size_t (*check)(const struct mb_imb_args *a, long iter);
};

/* An IMB family (IMB-MPI1, IMB-EXT, IMB-IO) is one row: its table, its methodology constants
 * (guide 5.2.1 Table 19 for settings.h, settings_io.h for IO) and its program (the suite row
 * and the settings, whose owner is this row), as IMB 2021's src_cpp registers a suite once.
 * One driver serves them all; a new family is a new row beside its table, named in
 * mb_imb_families (imb_suite.c) and in the program's list of suites (src/program.c). */
struct mb_imb_family {
    const char *name; /* "IMB-MPI1": records, messages, watchdog labels */
    const char *part; /* header title: "MPI-1 part" */
    const struct mb_imb_bench *benchmarks;
    size_t n;
    int npmin;                    /* default smallest process count (5.1.1) */
    long msgspersample;           /* MSGSPERSAMPLE */
    long msgs_nonaggr;            /* MSGS_NONAGGR */
    long overall_vol_mb;          /* OVERALL_VOL in MB */
    int maxmsglog;                /* largest standard length 2^maxmsglog */
    long long warm_x;             /* warm-up length sizeof(assign_type) (5.2.6) */
    size_t len_unit;              /* lengths in multiples of this (IMB-EXT: floats); 0 = none */
    int warmups;                  /* N_WARMUP; 0 for IO */
    const char *list_break_after; /* help text: wrap the benchmark list after this name */
    int io;                       /* IMB-IO: files, "io portion" header lines */
    /* A block can stop on a failure its processes agree on (args.failure): IMB-IO's I/O
     * calls, IMB-EXT's window creation. The driver agrees on it after the block's setup and
     * between lengths; the run then ends with status 1 and the failure's message. */
    int can_stop;
    /* Where the message buffers come from unless -alloc says otherwise: MPI_Alloc_mem for
     * IMB-EXT and IMB-IO as IMB 3.1 (IMB_mem_manager.c, IMB_alloc_buf under EXT || MPIIO);
     * IMB-MPI1's malloc there is mpibench's mmap here (docs/adr/program-imb-buffers.md). */
    enum mb_buf_source buffers;
    /* Its program: `mpibench <suite.name>` and the original name suite.legacy, with the IMB
     * hooks (imb_suite.h); its settings: struct mb_imb_config, the IMB rows every family has,
     * then rows of its own. Both have this family as owner. */
    struct mb_suite suite;
    struct mb_settings_type settings;
    const char *examples; /* --help's examples, one command a line */
    /* The family needs MPI-4's persistent collectives (IMB-MPI4): refused with one message on a
     * library without them (mb_imb_have_mpi4). */
    int needs_mpi4;
    /* The family's original is Intel IMB 2021.11 (IMB-NBC, IMB-MPI4), not IMB 3.1: its defaults
     * (mb_imb_defaults: -iter_policy dynamic, -sync on, -root_shift off), MPI_Init, and the
     * header names that methodology. */
    int imb2021;
};

/* A row of Intel IMB 2021.11's IMB-NBC or IMB-MPI4 and its _pure variant (the tables
 * imb_nbc_table.c, imb_mpi4_table.c): name, class, kernel (its blocking form), check, element
 * size, send and receive demand (struct mb_imb_bufsize's mult and per_rank each), prepare hook, the
 * hook that starts a repetition (nbc_start or persist_init) and its function, and whether the first
 * row is in the default run (the _pure variant never is). */
#define MB_IMB_2021_PAIR(label, klass, kern, chk, elem, smult, sper, rmult, rper, prep, hook,      \
                         hookfn, in_default)                                                       \
    {.name = label,                                                                                \
     .imb2021 = 1,                                                                                 \
     .nondefault = !(in_default),                                                                  \
     .cls = klass,                                                                                 \
     .time_scale = 1,                                                                              \
     .elem_size = elem,                                                                            \
     .sizeless = (klass) == MB_IMB_SYNC,                                                           \
     .sbuf = {smult, sper, 0},                                                                     \
     .rbuf = {rmult, rper, 0},                                                                     \
     .prepare = prep,                                                                              \
     .kernel = kern,                                                                               \
     .hook = hookfn,                                                                               \
     .overlap = 1,                                                                                 \
     .check = chk},                                                                                \
    {                                                                                              \
        .name = label "_pure", .imb2021 = 1, .nondefault = 1, .cls = klass, .time_scale = 1,       \
        .elem_size = elem, .sizeless = (klass) == MB_IMB_SYNC, .sbuf = {smult, sper, 0},           \
        .rbuf = {rmult, rper, 0}, .prepare = prep, .kernel = kern, .hook = hookfn, .check = chk    \
    }

/* The families, each defined beside its table (imb_table.c, imb_ext_table.c,
 * imb_io_table.c, imb_nbc_table.c). */
extern const struct mb_imb_family mb_imb_family_mpi1, mb_imb_family_ext, mb_imb_family_io,
    mb_imb_family_nbc, mb_imb_family_mpi4;
/* Whether the library this was built with has MPI-4's persistent collectives (imb_mpi4.c). */
extern const int mb_imb_have_mpi4;
/* IMB-MPI1's benchmarks in the guide's list order (3.2), NULL-terminated (-order guide). */
extern const char *const mb_imb_mpi1_guide_order[];
/* Every family, NULL-terminated; settings name theirs by index into this list (a pointer
 * would differ between processes). */
extern const struct mb_imb_family *const mb_imb_families[];
/* The index of f in mb_imb_families (-1 if it is not there). */
int mb_imb_family_index(const struct mb_imb_family *f);

/* Table index of a benchmark name in a family (case-insensitive), or -1. */
int mb_imb_find(const struct mb_imb_family *f, const char *name);
/* The same for a name that may carry the "Multi-" prefix (any case); *multi says whether it
 * did. "Multi-" alone names nothing (-1). */
int mb_imb_find_named(const struct mb_imb_family *f, const char *name, int *multi);

/* The processes a benchmark needs at least, for the note of a block it cannot run: its exact
 * count (single transfers), else a pair (Uniband, Biband). */
static inline int mb_imb_procs_needed(const struct mb_imb_bench *b)
{
    return b->exact_procs ? b->exact_procs : 2;
}

/* A row measured by Intel IMB 2021.11's per-repetition loops (imb_nbc_driver.c): IMB-NBC's
 * and IMB-MPI4's. */
static inline int mb_imb_nbc_row(const struct mb_imb_bench *b)
{
    return b->nbc_start || b->persist_init;
}

/* The root of a rooted collective in repetition iter: i % Q (IMB 3.1), or rank 0 throughout
 * (Intel IMB 2021.11's -root_shift off). */
static inline int mb_imb_root(const struct mb_imb_args *a, long iter)
{
    return a->fixed_root ? 0 : (int)(iter % a->size);
}

/* Kernels and checks, one pair per benchmark (imb_p2p.c, imb_coll.c). */
#define MB_IMB_KERNEL(fn)                                                                          \
    void mb_imb_##fn(const struct mb_imb_args *a, long iter);                                      \
    size_t mb_imb_check_##fn(const struct mb_imb_args *a, long iter)
MB_IMB_KERNEL(pingpong);
MB_IMB_KERNEL(pingping);
/* Intel IMB 2021.11's Uniband and Biband: -window_size transfers per pair and iteration; the
 * setup hook takes the block's request array, the teardown frees it. */
MB_IMB_KERNEL(uniband);
MB_IMB_KERNEL(biband);
void mb_imb_window_setup(struct mb_imb_args *a);
void mb_imb_window_teardown(struct mb_imb_args *a);
/* Intel IMB 2021.11's ...SpecificSource variants: the receive names the partner. */
void mb_imb_pingpong_specific(const struct mb_imb_args *a, long iter);
void mb_imb_pingping_specific(const struct mb_imb_args *a, long iter);
MB_IMB_KERNEL(sendrecv);
MB_IMB_KERNEL(exchange);
MB_IMB_KERNEL(bcast);
MB_IMB_KERNEL(allgather);
MB_IMB_KERNEL(allgatherv);
MB_IMB_KERNEL(scatter);
MB_IMB_KERNEL(scatterv);
MB_IMB_KERNEL(gather);
MB_IMB_KERNEL(gatherv);
MB_IMB_KERNEL(alltoall);
MB_IMB_KERNEL(alltoallv);
MB_IMB_KERNEL(reduce);
MB_IMB_KERNEL(reduce_scatter);
MB_IMB_KERNEL(allreduce);
MB_IMB_KERNEL(barrier);
MB_IMB_KERNEL(unidir_put);
MB_IMB_KERNEL(unidir_get);
MB_IMB_KERNEL(bidir_put);
MB_IMB_KERNEL(bidir_get);
MB_IMB_KERNEL(accumulate);
MB_IMB_KERNEL(window);
#undef MB_IMB_KERNEL

/* The aggregate-mode batches of the one-sided kernels (imb_ext.c). */
void mb_imb_unidir_put_batch(const struct mb_imb_args *a, long first, long n);
void mb_imb_unidir_get_batch(const struct mb_imb_args *a, long first, long n);
void mb_imb_bidir_put_batch(const struct mb_imb_args *a, long first, long n);
void mb_imb_bidir_get_batch(const struct mb_imb_args *a, long first, long n);
void mb_imb_accumulate_batch(const struct mb_imb_args *a, long first, long n);

/* IMB-EXT's windows (over the receive buffers for Put and Accumulate, over the send buffers
 * for Get): the block's, which serves the warm-up and with -win_scope block every length, and
 * the length's, created and freed around its timed loops by default; and their completion,
 * MPI_Win_fence (imb_ext.c). */
void mb_imb_ext_setup_put(struct mb_imb_args *a);
void mb_imb_ext_setup_get(struct mb_imb_args *a);
void mb_imb_ext_setup_groups(struct mb_imb_args *a);
void mb_imb_ext_open_length(struct mb_imb_args *a);
void mb_imb_ext_close_length(struct mb_imb_args *a);
void mb_imb_ext_teardown(struct mb_imb_args *a);
void mb_imb_ext_fence(const struct mb_imb_args *a);

/* IMB-IO (imb_io.c): the block's file, the length's share and view, write completion, the
 * blocking kernels, the non-blocking starts and waits, Open_Close and the checks. */
void mb_imb_io_setup(struct mb_imb_args *a);
void mb_imb_io_teardown(struct mb_imb_args *a);
void mb_imb_io_prepare(struct mb_imb_args *a);
void mb_imb_io_reset(struct mb_imb_args *a);
void mb_imb_io_sync(const struct mb_imb_args *a);
void mb_imb_io_written(const struct mb_imb_args *a, long n);
#define MB_IMB_IO_KERNEL(fn) void mb_imb_io_##fn(const struct mb_imb_args *a, long iter)
MB_IMB_IO_KERNEL(write);
MB_IMB_IO_KERNEL(write_at);
MB_IMB_IO_KERNEL(write_shared);
MB_IMB_IO_KERNEL(write_all);
MB_IMB_IO_KERNEL(write_at_all);
MB_IMB_IO_KERNEL(write_ordered);
MB_IMB_IO_KERNEL(read);
MB_IMB_IO_KERNEL(read_at);
MB_IMB_IO_KERNEL(read_shared);
MB_IMB_IO_KERNEL(read_all);
MB_IMB_IO_KERNEL(read_at_all);
MB_IMB_IO_KERNEL(read_ordered);
MB_IMB_IO_KERNEL(open_close);
#undef MB_IMB_IO_KERNEL
#define MB_IMB_IO_START(fn) void mb_imb_io_##fn(const struct mb_imb_args *a, long first, long n)
MB_IMB_IO_START(iwrite);
MB_IMB_IO_START(iwrite_at);
MB_IMB_IO_START(iwrite_shared);
MB_IMB_IO_START(iread);
MB_IMB_IO_START(iread_at);
MB_IMB_IO_START(iread_shared);
MB_IMB_IO_START(write_all_begin);
MB_IMB_IO_START(write_at_all_begin);
MB_IMB_IO_START(write_ordered_begin);
MB_IMB_IO_START(read_all_begin);
MB_IMB_IO_START(read_at_all_begin);
MB_IMB_IO_START(read_ordered_begin);
#undef MB_IMB_IO_START
void mb_imb_io_waitall(const struct mb_imb_args *a);
void mb_imb_io_write_all_end(const struct mb_imb_args *a);
void mb_imb_io_write_at_all_end(const struct mb_imb_args *a);
void mb_imb_io_write_ordered_end(const struct mb_imb_args *a);
void mb_imb_io_read_all_end(const struct mb_imb_args *a);
void mb_imb_io_read_at_all_end(const struct mb_imb_args *a);
void mb_imb_io_read_ordered_end(const struct mb_imb_args *a);
size_t mb_imb_io_check_write(const struct mb_imb_args *a, long iter);
size_t mb_imb_io_check_write_shared(const struct mb_imb_args *a, long iter);
size_t mb_imb_io_check_read(const struct mb_imb_args *a, long iter);
size_t mb_imb_io_check_read_shared(const struct mb_imb_args *a, long iter);
size_t mb_imb_io_check_none(const struct mb_imb_args *a, long iter);

void mb_imb_prepare_exchange(struct mb_imb_args *a);
void mb_imb_prepare_v(struct mb_imb_args *a);
void mb_imb_prepare_reduce_scatter(struct mb_imb_args *a);

/* IMB-NBC (imb_nbc.c): each benchmark's start and its blocking form (start, wait). Their checks
 * are the blocking collectives' (the data move alike). */
#define MB_IMB_NBC_KERNEL(fn)                                                                      \
    void mb_imb_##fn##_start(const struct mb_imb_args *a, long iter, MPI_Request *req);            \
    void mb_imb_##fn(const struct mb_imb_args *a, long iter)
MB_IMB_NBC_KERNEL(ibcast);
MB_IMB_NBC_KERNEL(iallgather);
MB_IMB_NBC_KERNEL(iallgatherv);
MB_IMB_NBC_KERNEL(igather);
MB_IMB_NBC_KERNEL(igatherv);
MB_IMB_NBC_KERNEL(iscatter);
MB_IMB_NBC_KERNEL(iscatterv);
MB_IMB_NBC_KERNEL(ialltoall);
MB_IMB_NBC_KERNEL(ialltoallv);
MB_IMB_NBC_KERNEL(ireduce);
MB_IMB_NBC_KERNEL(ireduce_scatter);
MB_IMB_NBC_KERNEL(iallreduce);
MB_IMB_NBC_KERNEL(ibarrier);
#undef MB_IMB_NBC_KERNEL
/* IMB-MPI4 (imb_mpi4.c): each benchmark's persistent request and its blocking form (create,
 * start, wait, free). */
#define MB_IMB_MPI4_KERNEL(fn)                                                                     \
    void mb_imb_##fn##_init(const struct mb_imb_args *a, long iter, MPI_Request *req);             \
    void mb_imb_##fn(const struct mb_imb_args *a, long iter)
MB_IMB_MPI4_KERNEL(bcast_persist);
MB_IMB_MPI4_KERNEL(allgather_persist);
MB_IMB_MPI4_KERNEL(allgatherv_persist);
MB_IMB_MPI4_KERNEL(gather_persist);
MB_IMB_MPI4_KERNEL(gatherv_persist);
MB_IMB_MPI4_KERNEL(scatter_persist);
MB_IMB_MPI4_KERNEL(scatterv_persist);
MB_IMB_MPI4_KERNEL(alltoall_persist);
MB_IMB_MPI4_KERNEL(alltoallv_persist);
MB_IMB_MPI4_KERNEL(reduce_persist);
MB_IMB_MPI4_KERNEL(reduce_scatter_persist);
MB_IMB_MPI4_KERNEL(allreduce_persist);
MB_IMB_MPI4_KERNEL(barrier_persist);
#undef MB_IMB_MPI4_KERNEL
/* Ireduce_scatter (2021.11 IMB_ireduce_scatter): every process receives X bytes, the reduction
 * of its X-byte block of the Q blocks each process sends. */
void mb_imb_prepare_ireduce_scatter(struct mb_imb_args *a);

/* Buffer of iteration iter (off-cache rotation). */
static inline char *mb_imb_sbuf(const struct mb_imb_args *a, long iter)
{
    return a->sbuf + mb_slot_offset(a->slots.sstride, a->slots.n, iter);
}
static inline char *mb_imb_rbuf(const struct mb_imb_args *a, long iter)
{
    return a->rbuf + mb_slot_offset(a->slots.rstride, a->slots.n, iter);
}

#endif
