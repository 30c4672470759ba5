/* SPDX-License-Identifier: BSD-3-Clause */
/* The main job, `mpibench run` (docs/main-job.md): a characterisation of the machine it is started
 * on in minutes - Presta com and laten, the core IMB-MPI1 tables, IMB-EXT Unidir, IMB-NBC's
 * overlap, b_eff,
 * b_eff_io and IMB-IO's S_ benchmarks, one after the other in the same MPI job - written to
 * an output directory that is never reused: each suite's text and protocol files, one
 * results.jsonl with every record, summary.txt ending with the headline numbers, the plots
 * and index.html. docs/main-job.md describes the result. */
#include "core/error.h"
#include "core/interrupt.h"
#include "core/progress.h"
#include "core/scratch.h"
#include "core/sink.h"
#include "core/suite.h"
#include "core/thread_level.h"
#include "core/timing.h"
#include "job/job_plan.h"
#include "results/headline.h"
#include "results/html.h"
#include "results/plot.h"
#include "results/records.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { MB_JOB_PATH = 4096 };

struct mb_job_config {
    int quick, full, sim;
    char *io_dir;       /* --io-dir: where the I/O phases' scratch directory is made */
    double progress;    /* --progress: seconds between progress lines in a phase, 0: none */
    char *skip;         /* --skip PROG[,PROG...]: phases not to run */
    unsigned skip_mask; /* bit i: phase i is named by --skip (resolved by its parse) */
    /* Resolved by validation on rank 0; plain bytes, so they travel with the block. */
    int mode;
    char dir[MB_JOB_PATH];     /* the output directory, never an earlier run's */
    char scratch[MB_JOB_PATH]; /* the fresh scratch directory the I/O phases use */
};

#define JOB(field) offsetof(struct mb_job_config, field)

static int check_io_dir(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    (void)cfg;
    return mb_scratch_dir_check(value, "--io-dir", err);
}

/* --skip: every name must be a phase's program (mb_job_phase_at(i)->prog, any case). */
static int check_skip(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    struct mb_job_config *j = cfg->settings;
    const char *w = value;

    j->skip_mask = 0;
    for (;;) {
        const size_t len = strcspn(w, ",");
        size_t i = 0;
        while (i < mb_job_phase_count() && !(strlen(mb_job_phase_at(i)->prog) == len &&
                                             strncasecmp(mb_job_phase_at(i)->prog, w, len) == 0))
            i++;
        if (i == mb_job_phase_count())
            return mb_usage(err,
                            "invalid value '%s' for --skip: '%.*s' is not a phase (com, laten, "
                            "IMB-MPI1, IMB-EXT, IMB-NBC, b_eff, b_eff_io, IMB-IO)",
                            value, (int)len, w);
        j->skip_mask |= 1u << i;
        if (w[len] == '\0')
            return 0;
        w += len + 1;
    }
}

static const struct mb_option rows[] = {
    {.name = "--quick",
     .kind = MB_OPT_FLAG,
     .offset = JOB(quick),
     .help = "about 30 s: fewer repetitions and sizes in every phase"},
    {.name = "--full",
     .kind = MB_OPT_FLAG,
     .offset = JOB(full),
     .help = "every suite with its official rules (b_eff_io alone takes 30 minutes)"},
    {.name = "--sim",
     .kind = MB_OPT_FLAG,
     .offset = JOB(sim),
     .help = "for thousands of processes or a simulation of them: one sample per row, Presta "
             "com on 32 B and 1 MiB, IMB's collectives on all processes only, 0 and 8 bytes"},
    {.name = "--io-dir",
     .kind = MB_OPT_STRING,
     .offset = JOB(io_dir),
     .metavar = "DIR",
     .help = "where the I/O phases make their scratch directory (default: inside the output "
             "directory); removed at the end",
     .parse = check_io_dir,
     .per_run = 1},
    {.name = "--progress",
     .kind = MB_OPT_DOUBLE,
     .offset = JOB(progress),
     .min = 0,
     .max = 3600,
     .metavar = "SEC",
     .help = "during a phase, a line on stderr every SEC seconds naming what is measured "
             "(default 30; 0: none)",
     .per_run = 1},
    {.name = "--skip",
     .kind = MB_OPT_STRING,
     .offset = JOB(skip),
     .metavar = "PROG[,PROG...]",
     .help = "do not run these phases (com, laten, IMB-MPI1, IMB-EXT, IMB-NBC, map, b_eff, "
             "b_eff_io, IMB-IO); they are listed as skipped",
     .parse = check_skip},
};

/* A line at least every 30 s: a phase may run quiet for minutes (b_eff_io's partitions). */
static void job_defaults(void *block, const void *owner)
{
    (void)owner;
    ((struct mb_job_config *)block)->progress = 30;
}

static const struct mb_option_set job_set = {rows, sizeof rows / sizeof rows[0], 0};
static const struct mb_settings_type job_settings = {
    .size = sizeof(struct mb_job_config), .defaults = job_defaults, .sets = {&job_set}};

/* ---- validation (rank 0) ------------------------------------------------------------- */

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 || errno != ENOENT;
}

/* Creates dir unless dry; 0 made (or free, when dry), 1 taken (it exists), -1 another error. */
static int take(const char *dir, int dry)
{
    if (dry)
        return exists(dir) ? 1 : 0;
    if (mkdir(dir, 0777) == 0)
        return 0;
    return errno == EEXIST ? 1 : -1;
}

/* Whether dir is a directory with no entries; 0 also when it cannot be read. first gets the
 * name of one entry, for the message. */
static int empty_dir(const char *dir, char *first, size_t len)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int empty = d != NULL;

    first[0] = '\0';
    while (d && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(first, len, "%s", e->d_name);
            empty = 0;
            break;
        }
    if (d)
        closedir(d);
    return empty;
}

/* The output directory never mixes two runs (docs/adr/main-job-rules.md). The default,
 * mpibench-results, is never reused: when it exists, mpibench-results-YYYYmmdd-HHMMSS (then
 * -2, -3, ...) is taken instead; each name is taken with mkdir, so that two runs started in the
 * same second never share one (an existing name, EEXIST, moves on to the next). A --output-dir
 * the user names is used as named or refused, never replaced by another name (a script that
 * reads DIR afterwards would read an earlier run's results): created when it does not exist,
 * used when it is an empty directory, refused with status 2 when it holds anything or exists as
 * anything but a directory (a file, a FIFO, /dev/full). With --dry-run nothing is created. */
static int pick_output_dir(struct mb_config *cfg, char *out, struct mb_error *err)
{
    const char *given = cfg->common.output_dir;
    const char *base = given ? given : "mpibench-results";
    const int dry = cfg->common.dry_run;
    char *dir = mb_xmalloc(strlen(base) + 40), stamp[32], first[256];
    const time_t now = time(NULL);
    struct stat st;
    struct tm tm;
    size_t len;
    int rc;

    strcpy(dir, base);
    while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
        dir[strlen(dir) - 1] = '\0';
    len = strlen(dir);
    if (len + 40 + 64 >= MB_JOB_PATH) {
        free(dir);
        return mb_usage(err, "invalid value '%s' for --output-dir: too long", base);
    }
    localtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    rc = take(dir, dry);
    if (rc == 1 && given) {
        if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
            rc = mb_usage(err, "cannot create --output-dir '%s': it exists and is not a directory",
                          base);
        else if (!empty_dir(dir, first, sizeof first))
            rc = first[0]
                     ? mb_usage(err,
                                "invalid value '%s' for --output-dir: the directory exists "
                                "and is not empty ('%s' is in it); name a new or an empty "
                                "directory, or leave --output-dir out for a new "
                                "mpibench-results-<timestamp>",
                                base, first)
                     : mb_usage(err, "cannot use --output-dir '%s': %s", base, strerror(errno));
        else
            rc = 0; /* an empty directory of the user's: used, and kept on a refusal */
        if (rc == 0) {
            cfg->common.output_dir_made = 0;
            strcpy(out, dir);
        }
        free(dir);
        return rc;
    }
    for (int k = 1; rc == 1 && k < 1000; k++) {
        if (k == 1)
            sprintf(dir + len, "-%s", stamp);
        else
            sprintf(dir + len, "-%s-%d", stamp, k);
        rc = take(dir, dry);
    }
    if (rc != 0) {
        rc = rc == 1 ? mb_usage(err, "cannot find an unused name for --output-dir '%s'", base)
                     : mb_usage(err, "cannot create --output-dir '%s': %s", dir, strerror(errno));
        free(dir);
        return rc;
    }
    cfg->common.output_dir_made = !dry;
    strcpy(out, dir);
    free(dir);
    return 0;
}

static int job_validate(struct mb_config *cfg, const struct mb_provenance *prov,
                        struct mb_error *err)
{
    struct mb_job_config *j = cfg->settings;
    char stamp[32];
    const time_t now = time(NULL);
    struct tm tm;

    (void)prov;
    if (j->quick && j->full)
        return mb_usage(err, "--quick and --full exclude each other");
    if (j->sim && (j->quick || j->full))
        return mb_usage(err, "--sim and %s exclude each other", j->quick ? "--quick" : "--full");
    j->mode = j->quick  ? MB_JOB_QUICK
              : j->full ? MB_JOB_FULL
              : j->sim  ? MB_JOB_SIM
                        : MB_JOB_DEFAULT;
    /* One sample per row unless --samples says otherwise: every sample of a Presta measurement
     * is three barriers over the active processes, which at thousands of simulated processes
     * cost more host time than the pairs' messages (docs/adr/job-sim-mode.md). */
    if (j->mode == MB_JOB_SIM && cfg->common.samples <= 0)
        cfg->common.samples = 1;
    if (cfg->common.timeout <= 0)
        cfg->common.timeout = j->mode == MB_JOB_FULL ? 600 : 120;
    /* Every check that can refuse the run comes before the output directory is made. */
    if (j->io_dir && strlen(j->io_dir) + 64 + 64 >= sizeof j->scratch)
        return mb_usage(err, "invalid value '%s' for --io-dir: too long", j->io_dir);
    if (pick_output_dir(cfg, j->dir, err) != 0)
        return MB_EXIT_USAGE;
    /* The run's own outputs (run.txt, results.jsonl) go there too - except for --dry-run,
     * which only shows the plan and makes no directory. */
    free(cfg->common.output_dir);
    cfg->common.output_dir = cfg->common.dry_run ? NULL : mb_xstrdup(j->dir);
    if (!cfg->common.json_path && !cfg->common.dry_run) {
        cfg->common.json_path = mb_xmalloc(strlen(j->dir) + 16);
        sprintf(cfg->common.json_path, "%s/results.jsonl", j->dir);
    }
    /* A fresh directory for the scratch files: nothing of the user's is touched. */
    localtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    if (j->io_dir)
        snprintf(j->scratch, sizeof j->scratch, "%s/mpibench-io-%s-%ld", j->io_dir, stamp,
                 (long)getpid());
    else
        snprintf(j->scratch, sizeof j->scratch, "%s/io-scratch", j->dir);
    return 0;
}

static void job_usage(const struct mb_suite *s, FILE *out)
{
    (void)s;
    fprintf(out,
            "A characterisation of this machine in a few minutes (--quick: about 30 s; --full:\n"
            "the official rules of every suite): Presta com and laten, IMB-MPI1 PingPong\n"
            "PingPing Sendrecv Bcast Allreduce Alltoall Barrier, IMB-EXT Unidir_Put/Get, IMB-NBC\n"
            "Ibcast/Iallreduce/Ialltoall, on two or more hosts the map of every pair of hosts\n"
            "(mpibench map), b_eff, b_eff_io and IMB-IO S_Write_indv/S_Read_indv, in one MPI\n"
            "job. Results go to\n"
            "--output-dir DIR, which must be new or empty (default ./mpibench-results; when\n"
            "that exists, a new one with a timestamp: an earlier run is never overwritten):\n"
            "each suite's text (PROG.txt) and JSON (PROG.jsonl) and protocol files,\n"
            "results.jsonl with every record, summary.txt, the plots (plots/*.png, *.svg) and\n"
            "index.html. --timeout (default 120 s per measurement) and --check apply to every\n"
            "phase. Compare groups of runs (several a side measure the run-to-run noise;\n"
            "scripts/runs.sh makes them), each run a results directory:\n"
            "  mpibench compare OLD-1 OLD-2 ... -- NEW-1 NEW-2 ...\n\n");
}

/* ---- running (all ranks) ------------------------------------------------------------- */

/* A phase's exit status, or what it is short of one. */
enum {
    PHASE_SKIPPED = -1,
    PHASE_PENDING = -2,
    PHASE_CUT = -3,         /* running, as the pages written before it say */
    PHASE_INTERRUPTED = -4, /* the pages an interrupt writes */
    PHASE_NOT_RUN = -5      /* after an interrupted one */
};
struct phase_end {
    int status; /* the phase's exit status, or PHASE_* */
    double seconds;
    double estimate; /* mb_job_phase_estimate */
    char why[1024];  /* rank 0: why a phase that ran failed (mpibench_run_why), or "" */
};

/* Why phase i does not run on nprocs processes: the plan's reason, or --skip, or NULL. */
/* The hosts the job's processes run on, on every rank: rank 0's provenance counted them. */
static int job_hosts(const struct mb_ctx *ctx)
{
    int hosts = ctx->rank == 0 ? ctx->prov->nhosts : 0;

    MB_MPI(MPI_Bcast(&hosts, 1, MPI_INT, 0, ctx->world));
    return hosts;
}

static const char *phase_skip(const struct mb_job_config *j, size_t i, int nprocs, int nhosts)
{
    const char *why = mb_job_skip_reason(mb_job_phase_at(i), nprocs, nhosts);

    return why ? why : (j->skip_mask >> i) & 1u ? "--skip names it" : NULL;
}

static void clock_text(char *buf, size_t len, double s)
{
    const long t = s > 0 && s < 1e9 ? lround(s) : 0;
    snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

/* The phase's command line: its original name and arguments, then what the job sets. Only
 * rank 0 reads a command line; every rank builds it the same way. */
struct phase_words {
    char timeout[32], procs[16], samples[24];
};

static int phase_argv(const struct mb_job_phase *p, const struct mb_config *cfg, char **argv,
                      struct phase_words *w)
{
    const struct mb_job_config *j = cfg->settings;
    int n = 0;

    snprintf(w->procs, sizeof w->procs, "%d", cfg->nprocs);
    if (p->subcommand)
        argv[n++] = "mpibench";
    argv[n++] = (char *)p->prog;
    for (int k = 0; k < MB_JOB_MAX_ARGS && p->args[j->mode][k]; k++)
        argv[n++] =
            strcmp(p->args[j->mode][k], "{P}") == 0 ? w->procs : (char *)p->args[j->mode][k];
    argv[n++] = "--quiet";
    argv[n++] = "--output-dir";
    argv[n++] = (char *)j->dir;
    snprintf(w->timeout, sizeof w->timeout, "%g", cfg->common.timeout);
    argv[n++] = "--timeout";
    argv[n++] = w->timeout;
    /* One run id for the whole job: every phase's records carry the job's (docs/main-job.md). */
    argv[n++] = "--run-id";
    argv[n++] = cfg->common.run_id;
    if (cfg->common.check)
        argv[n++] = "--check";
    /* The job's samples per row to the phases measured as timed loops; b_eff's samples are its
     * repetitions and b_eff_io's rows one pass each, as their arguments set them
     * (docs/adr/samples.md). */
    if (p->samples) {
        snprintf(w->samples, sizeof w->samples, "%ld", mb_config_samples(cfg));
        argv[n++] = "--samples";
        argv[n++] = w->samples;
        if (cfg->common.raw_samples)
            argv[n++] = "--raw-samples";
        if (cfg->common.spread)
            argv[n++] = "--spread";
    }
    /* One process, one MPI initialisation: every phase runs at the job's thread level and
     * says so, whatever its original program asked for (core/thread_level.h). */
    argv[n++] = MB_THREAD_LEVEL_OPTION;
    argv[n++] = (char *)mb_thread_level_word(mb_config_thread_level(cfg));
    if (p->io_flag) {
        argv[n++] = (char *)p->io_flag;
        argv[n++] = (char *)j->scratch;
    }
    argv[n] = NULL;
    return n;
}

static char *phase_file(const struct mb_config *cfg, const struct mb_job_phase *p, const char *ext)
{
    const struct mb_job_config *j = cfg->settings;
    char *s = mb_xmalloc(strlen(j->dir) + strlen(p->prog) + strlen(ext) + 3);
    sprintf(s, "%s/%s.%s", j->dir, p->prog, ext);
    return s;
}

/* Rank 0: the phase's JSON records go into the job's results file, line by line as they
 * are (each one record, written at once), and into the records the summary is made of. */
static void collect(const struct mb_ctx *ctx, const struct mb_config *cfg,
                    const struct mb_job_phase *p, struct mb_records *all)
{
    char *path = phase_file(cfg, p, "jsonl"), msg[1200];
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0, cut;
    ssize_t got;

    if (f) {
        while ((got = getline(&line, &cap, f)) > 0)
            if (ctx->json && line[got - 1] == '\n')
                mb_sink_write(ctx->json->f, ctx->json->name, line, (size_t)got);
        free(line);
        fclose(f);
        if (mb_records_load(all, path, &cut, msg, sizeof msg) != 0)
            mb_eprintf("%s: note: %s", cfg->prog, msg);
    }
    free(path);
}

static void phase_json(const struct mb_ctx *ctx, size_t i, const struct mb_job_phase *p,
                       const char *skipped, const struct phase_end *e)
{
    struct mb_jobj o;
    char name[64];

    if (!ctx->json)
        return;
    mb_jobj_begin(&o, "job_phase", ctx->json);
    mb_jobj_int(&o, "phase", (long long)i + 1);
    mb_jobj_str(&o, "program", p->prog);
    mb_jobj_str(&o, "title", p->title);
    mb_jobj_str(&o, "skipped", skipped);
    if (skipped) {
        mb_jobj_null(&o, "exit_status");
    } else {
        mb_jobj_int(&o, "exit_status", e->status);
        mb_jobj_num(&o, "elapsed_sec", e->seconds);
    }
    snprintf(name, sizeof name, "%s.txt", p->prog);
    /* A phase refused before it started (status 2) wrote no text file. */
    mb_jobj_str(&o, "text_file", skipped || e->status == MB_EXIT_USAGE ? NULL : name);
    if (!skipped && e->status > 0)
        mb_jobj_str(&o, "error", e->why[0] ? e->why : "see the phase's messages on stderr");
    mb_jobj_write(&o, ctx->json);
}

static const char *status_word(int st)
{
    return st == PHASE_SKIPPED       ? "skipped"
           : st == PHASE_PENDING     ? "pending"
           : st == PHASE_CUT         ? "not finished"
           : st == PHASE_INTERRUPTED ? "INTERRUPTED"
           : st == PHASE_NOT_RUN     ? "not run"
           : st == 0                 ? "ok"
           : st == 1                 ? "FAILED (1)"
                                     : "FAILED (2)";
}

/* summary.txt and the end of the job's text: phases, where the I/O ran, the headlines. */
static void summary(const struct mb_out *out, const struct mb_ctx *ctx, const struct mb_config *cfg,
                    const struct phase_end *ends, const struct mb_headline_set *h, const char *fs)
{
    const struct mb_job_config *j = cfg->settings;

    mb_printf(out, "\n# mpibench run (%s) on %d processes, %d host%s; results in %s\n",
              mb_job_mode_name(j->mode), ctx->prov->nprocs, ctx->prov->nhosts,
              ctx->prov->nhosts == 1 ? "" : "s", j->dir);
    mb_printf(out, "# I/O scratch directory : %s (%s; removed)\n", j->scratch, fs);
    mb_printf(out, "#\n# %-3s %-72s %-12s %8s %9s\n", "", "phase", "status", "seconds", "estimate");
    for (size_t i = 0; i < mb_job_phase_count(); i++) {
        char secs[32] = "-", est[32] = "-";
        if (ends[i].status >= 0)
            snprintf(secs, sizeof secs, "%.1f", ends[i].seconds);
        if (ends[i].status != PHASE_SKIPPED)
            snprintf(est, sizeof est, "%.0f", ends[i].estimate);
        mb_printf(out, "# %zu/%zu %-72s %-12s %8s %9s\n", i + 1, mb_job_phase_count(),
                  mb_job_phase_at(i)->title, status_word(ends[i].status), secs, est);
        if (ends[i].status > 0 && ends[i].why[0])
            mb_printf(out, "#     %s\n", ends[i].why);
    }
    mb_printf(out, "\nHeadline numbers:\n");
    for (size_t i = 0; i < h->n; i++) {
        char line[256];
        mb_headline_line(&h->h[i], line, sizeof line);
        mb_printf(out, "%s", line);
    }
}

/* index.html's table of phases: status, the reason of a failed one, seconds and the plan's
 * estimate, the phase's text. malloc'd. */
static char *phases_html(const struct phase_end *ends)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        mb_die("cannot make the table of phases: %s", strerror(errno));
    fputs("<h2>Phases</h2>\n<table id=\"phases\">\n<tr><th>phase</th><th>status</th>"
          "<th>seconds</th><th>estimate</th><th>text</th></tr>\n",
          f);
    for (size_t i = 0; i < mb_job_phase_count(); i++) {
        const struct mb_job_phase *p = mb_job_phase_at(i);
        fputs("<tr><td>", f);
        mb_html_text(f, p->title);
        fputs("</td><td>", f);
        mb_html_text(f, status_word(ends[i].status));
        /* A failed phase's reason, as summary.txt has it under the phase's row. */
        if (ends[i].status > 0 && ends[i].why[0]) {
            fputs("<br><span class=\"why\">", f);
            mb_html_text(f, ends[i].why);
            fputs("</span>", f);
        }
        if (ends[i].status >= 0)
            fprintf(f, "</td><td class=\"num\">%.1f", ends[i].seconds);
        else
            fputs("</td><td class=\"num\">-", f);
        if (ends[i].status != PHASE_SKIPPED)
            fprintf(f, "</td><td class=\"num\">%.0f", ends[i].estimate);
        else
            fputs("</td><td class=\"num\">-", f);
        if (ends[i].status >= 0 && ends[i].status != MB_EXIT_USAGE)
            fprintf(f, "</td><td><a href=\"%s.txt\">%s.txt</a></td></tr>\n", p->prog, p->prog);
        else
            fputs("</td><td>-</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    if (fclose(f) != 0)
        mb_die("cannot make the table of phases: %s", strerror(errno));
    return buf;
}

static void result_json(const struct mb_ctx *ctx, const struct mb_config *cfg,
                        const struct mb_headline_set *h, const char *fs, const char *plots)
{
    const struct mb_job_config *j = cfg->settings;
    struct mb_jobj o;

    if (!ctx->json)
        return;
    mb_jobj_begin(&o, "job_result", ctx->json);
    mb_jobj_str(&o, "mode", mb_job_mode_name(j->mode));
    mb_jobj_str(&o, "output_dir", j->dir);
    mb_jobj_str(&o, "io_dir", j->scratch);
    mb_jobj_str(&o, "io_filesystem", fs);
    for (size_t i = 0; i < h->n; i++)
        mb_jobj_num(&o, h->h[i].key, h->h[i].present ? h->h[i].value : NAN);
    mb_jobj_str(&o, "plots", plots);
    mb_jobj_write(&o, ctx->json);
}

/* The job's pages, and the names of their variants for an interrupt (written, read back and
 * removed again before the phase: what the signal handler writes over the pages). */
static const char *const page_names[2] = {"summary.txt", "index.html"};
static const char *const cut_names[2] = {".summary.txt.interrupt", ".index.html.interrupt"};

/* summary.txt and index.html (rank 0) from the headlines and plots so far, under names. */
static void write_pages(const struct mb_ctx *ctx, const struct mb_config *cfg,
                        const struct phase_end *ends, const struct mb_records *all,
                        const struct mb_headline_set *h, const struct mb_plot_list *plots,
                        const char *fs, const char *const names[2])
{
    const struct mb_job_config *j = cfg->settings;
    char *path = mb_xmalloc(strlen(j->dir) + 32), msg[1200], *html;
    FILE *f;

    sprintf(path, "%s/%s", j->dir, names[0]);
    f = fopen(path, "w");
    if (!f)
        mb_die("cannot write '%s': %s", path, strerror(errno));
    {
        const struct mb_out file = {{f, NULL}, 1, {"summary.txt", NULL}};
        /* The date and run id first: a summary read alone (mailed, attached to a ticket)
         * still says which run it is; results.jsonl carries the same id on every record. */
        mb_printf(&file, "# Date                  : %s\n", ctx->prov->iso_date);
        mb_printf(&file, "# Run id                : %s\n", cfg->common.run_id);
        mb_provenance_text(ctx->prov, &file);
        summary(&file, ctx, cfg, ends, h, fs);
    }
    mb_sink_close(f, path);
    html = phases_html(ends);
    sprintf(path, "%s/%s", j->dir, names[1]);
    if (mb_html_write(path, "plots/", all, h, plots, html, msg, sizeof msg) != 0)
        mb_die("%s", msg);
    free(html);
    free(path);
}

/* The pages and message an interrupt leaves (core/interrupt.h), rank 0; replaced before every
 * phase. */
struct cut_pages {
    char *path[2], *text[2], note[1400];
    size_t len[2];
};

static void cut_pages_free(struct cut_pages *c)
{
    mb_interrupt_clear();
    for (int k = 0; k < 2; k++) {
        free(c->path[k]);
        free(c->text[k]);
        c->path[k] = c->text[k] = NULL;
    }
}

/* The whole of path, malloc'd; then path is removed. */
static char *take_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;

    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        mb_die("cannot read '%s': %s", path, strerror(errno));
    buf = mb_xmalloc((size_t)n + 1);
    *len = fread(buf, 1, (size_t)n, f);
    fclose(f);
    remove(path);
    return buf;
}

/* Written before every phase as well as at the end, so that a job that is killed during a
 * phase - an MPI_Abort of a failing phase, a batch system's time limit - leaves summary.txt and
 * index.html, the phase it was in marked "not finished" and the later ones "pending". For an
 * interrupt (SIGINT, SIGTERM: a Ctrl-C, a batch system's cancel) the same pages with phase i
 * "INTERRUPTED" and the later ones "not run" are made in memory, with the message, for the
 * signal handler to write. */
static void progress_files(const struct mb_ctx *ctx, const struct mb_config *cfg,
                           const struct phase_end *ends, size_t i, const struct mb_records *all,
                           const char *fs, struct cut_pages *cut)
{
    const struct mb_job_config *j = cfg->settings;
    const size_t n = mb_job_phase_count();
    struct phase_end *alt = mb_xcalloc(n, sizeof *alt);
    struct mb_interrupt_page pages[2];
    struct mb_headline_set h;
    const struct mb_plot_list none = {0};

    mb_headlines(all, &h);
    write_pages(ctx, cfg, ends, all, &h, &none, fs, page_names);
    cut_pages_free(cut);
    memcpy(alt, ends, n * sizeof *alt);
    alt[i].status = PHASE_INTERRUPTED;
    for (size_t k = i + 1; k < n; k++)
        if (alt[k].status == PHASE_PENDING)
            alt[k].status = PHASE_NOT_RUN;
    write_pages(ctx, cfg, alt, all, &h, &none, fs, cut_names);
    for (int k = 0; k < 2; k++) {
        char *tmp = mb_xmalloc(strlen(j->dir) + 32);
        sprintf(tmp, "%s/%s", j->dir, cut_names[k]);
        cut->text[k] = take_file(tmp, &cut->len[k]);
        free(tmp);
        cut->path[k] = mb_xmalloc(strlen(j->dir) + 32);
        sprintf(cut->path[k], "%s/%s", j->dir, page_names[k]);
        pages[k] = (struct mb_interrupt_page){cut->path[k], cut->text[k], cut->len[k]};
    }
    snprintf(cut->note, sizeof cut->note,
             "\n%s: interrupted in phase %zu/%zu (%s); phases not run: %zu; the results so far "
             "are in %s (summary.txt, index.html)%s\n",
             cfg->prog, i + 1, n, mb_job_phase_at(i)->prog, n - i - 1, j->dir,
             j->io_dir ? "; the scratch directory under --io-dir is removed" : "");
    mb_interrupt_set(pages, 2, cut->note);
    free(alt);
}

/* Rank 0, after the phases: summary.txt, plots and index.html. A plot that cannot be drawn
 * (no gnuplot) is a note, not a failure of the measurements. */
static void finish_job(const struct mb_ctx *ctx, const struct mb_config *cfg,
                       const struct phase_end *ends, const struct mb_records *all, const char *fs)
{
    const struct mb_job_config *j = cfg->settings;
    struct mb_headline_set h;
    struct mb_plot_list plots = {0};
    char *path = mb_xmalloc(strlen(j->dir) + 32), msg[1200];
    const char *plot_note = "drawn";

    mb_headlines(all, &h);
    sprintf(path, "%s/plots", j->dir);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        mb_eprintf("%s: note: cannot create '%s': %s; no plots", cfg->prog, path, strerror(errno));
        plot_note = "not drawn";
    } else {
        const int rc = mb_plots_write(all, path, &plots, msg, sizeof msg);
        if (rc != 0) {
            mb_eprintf("%s: note: %s", cfg->prog, msg);
            plot_note = rc > 0 ? "scripts only" : "not drawn";
        }
    }
    result_json(ctx, cfg, &h, fs, plot_note);
    write_pages(ctx, cfg, ends, all, &h, &plots, fs, page_names);
    summary(&ctx->out, ctx, cfg, ends, &h, fs);
    mb_printf(&ctx->out, "\nPlots: %zu in %s/plots (%s); open %s/index.html\n", plots.n, j->dir,
              plot_note, j->dir);
    mb_printf(&ctx->out,
              "Compare with later runs: mpibench compare %s [more runs] -- NEW [more] (several "
              "runs a side see changes of 10 %%; one run a side only beyond 400 %%)\n",
              j->dir);
    free(path);
}

static int job_run(const struct mb_ctx *ctx, const struct mb_config *cfg, struct mb_tally *tally)
{
    const struct mb_job_config *j = cfg->settings;
    const size_t n = mb_job_phase_count();
    struct phase_end *ends = mb_xcalloc(n, sizeof *ends);
    struct mb_records all = {0};
    double left_in_plan = 0; /* the estimates of the phases not yet run */
    struct cut_pages cut = {{NULL, NULL}, {NULL, NULL}, "", {0, 0}};
    const struct mb_stopwatch job_clock = mb_stopwatch_start();
    char fs[160] = "unknown file system";
    struct mb_scratch_signals signals;
    int worst = 0;
    const int nhosts = job_hosts(ctx);

    /* For the whole job, not only inside the I/O phases: an interrupt between phases must
     * remove the scratch directory too (every process: each removes its own files). */
    mb_scratch_signals_install(&signals);

    for (size_t i = 0; i < n; i++) {
        const struct mb_job_phase *p = mb_job_phase_at(i);
        ends[i].status = PHASE_PENDING;
        ends[i].estimate = mb_job_phase_estimate(p, (enum mb_job_mode)j->mode);
        if (!phase_skip(j, i, ctx->size, nhosts))
            left_in_plan += ends[i].estimate;
    }
    if (ctx->rank == 0) {
        all.path = mb_rs_strdup(cfg->common.json_path); /* what index.html names */
        struct mb_fs_info info;
        struct mb_error err = {MB_ERR_NONE, ""};
        /* Registered: removed on every exit path, not only at the end below. */
        if (mb_scratch_mkdir(j->scratch, &err) != 0)
            mb_die("%s", err.msg);
        if (mb_scratch_fs_info(j->scratch, &info, &err) == 0)
            snprintf(fs, sizeof fs, "file system %s, %.1f GB free", info.type,
                     (double)info.free_bytes / 1e9);
        mb_provenance_text(ctx->prov, &ctx->out);
        mb_settings_text(ctx->suite, cfg, &ctx->out);
        mb_printf(&ctx->out, "#\n# mpibench run (%s): %zu phases, results in %s\n",
                  mb_job_mode_name(j->mode), n, j->dir);
        mb_flush(&ctx->out);
    }
    for (size_t i = 0; i < n; i++) {
        const struct mb_job_phase *p = mb_job_phase_at(i);
        const char *skip = phase_skip(j, i, ctx->size, nhosts);
        char *argv[2 * MB_JOB_MAX_ARGS], el[48], left[48], est[48], what[160];
        struct phase_words words;
        const double elapsed = mb_stopwatch_read(&job_clock);

        /* What is left is what the plan says the phases not yet run take - never a projection of
         * how fast the earlier phases went: a scheduled phase (b_eff_io's -T) takes its time on
         * any machine, and phases have nothing else in common. */
        clock_text(el, sizeof el, elapsed);
        clock_text(left, sizeof left, left_in_plan);
        clock_text(est, sizeof est, ends[i].estimate);
        if (skip) {
            ends[i].status = PHASE_SKIPPED;
            if (ctx->rank == 0) {
                mb_printf(&ctx->out, "[%zu/%zu] %s: skipped, %s\n", i + 1, n, p->title, skip);
                phase_json(ctx, i, p, skip, &ends[i]);
            }
            continue;
        }
        if (ctx->rank == 0) {
            mb_printf(&ctx->out,
                      "[%zu/%zu] %s (elapsed %s; this phase about %s, all left about %s)\n", i + 1,
                      n, p->title, el, est, left);
            mb_flush(&ctx->out);
            ends[i].status = PHASE_CUT; /* until it returns */
            progress_files(ctx, cfg, ends, i, &all, fs, &cut);
            snprintf(what, sizeof what, "[%zu/%zu] %s:", i + 1, n, p->prog);
            if (j->progress > 0 && mb_progress_start(j->progress, what) != 0)
                mb_eprintf("%s: note: no progress lines: %s", cfg->prog, strerror(errno));
        }
        left_in_plan -= ends[i].estimate;
        const int argc = phase_argv(p, cfg, argv, &words);
        const struct mb_stopwatch phase_clock = mb_stopwatch_start();
        /* A phase that fails - refused (status 2: its scratch files do not fit), or ended by a
         * run-time error the processes agreed on (status 1: IMB-IO's disk filled up) - ends
         * normally on every process, and the job goes on with the next phase. */
        ends[i].status =
            mpibench_run_why(argc, argv, ctx->world, stdout, ends[i].why, sizeof ends[i].why);
        ends[i].seconds = mb_stopwatch_read(&phase_clock);
        worst = ends[i].status > worst ? ends[i].status : worst;
        if (ctx->rank == 0) {
            mb_progress_stop();
            collect(ctx, cfg, p, &all);
            phase_json(ctx, i, p, NULL, &ends[i]);
            if (ends[i].status == MB_EXIT_USAGE)
                mb_printf(&ctx->out, "      %s in %.1f s: %s\n", status_word(ends[i].status),
                          ends[i].seconds, ends[i].why[0] ? ends[i].why : "refused");
            else
                mb_printf(&ctx->out, "      %s in %.1f s: %s/%s.txt%s%s\n",
                          status_word(ends[i].status), ends[i].seconds, j->dir, p->prog,
                          ends[i].why[0] ? ": " : "", ends[i].why);
            mb_flush(&ctx->out);
        }
    }
    if (ctx->rank == 0) {
        if (mb_scratch_remove(j->scratch) != MB_SCRATCH_REMOVED)
            mb_eprintf("%s: note: the scratch directory '%s' is kept: %s", cfg->prog, j->scratch,
                       strerror(errno));
        cut_pages_free(&cut); /* summary.txt and index.html are final now */
        finish_job(ctx, cfg, ends, &all, fs);
    }
    mb_scratch_signals_restore(&signals);
    mb_records_free(&all);
    free(ends);
    tally->rows = (long long)n;
    tally->status = worst ? MB_EXIT_RUNTIME : MB_EXIT_OK;
    tally->status_what = "a phase failed (see above)";
    return MB_EXIT_OK;
}

static int job_dry_run(const struct mb_ctx *ctx, const struct mb_config *cfg)
{
    const struct mb_job_config *j = cfg->settings;
    const int nhosts = ctx->prov->nhosts; /* rank 0's, the only one that prints */

    if (ctx->rank != 0)
        return 0;
    mb_printf(&ctx->out, "# mpibench run (%s): the phases and their command lines\n",
              mb_job_mode_name(j->mode));
    for (size_t i = 0; i < mb_job_phase_count(); i++) {
        const struct mb_job_phase *p = mb_job_phase_at(i);
        const char *skip = phase_skip(j, i, ctx->size, nhosts);
        char *argv[2 * MB_JOB_MAX_ARGS];
        struct phase_words words;
        const int argc = phase_argv(p, cfg, argv, &words);

        mb_printf(&ctx->out, "[%zu/%zu] %s (about %.0f s)%s%s\n     ", i + 1, mb_job_phase_count(),
                  p->title, mb_job_phase_estimate(p, (enum mb_job_mode)j->mode),
                  skip ? ": skipped, " : "", skip ? skip : "");
        for (int k = 0; k < argc; k++)
            mb_printf(&ctx->out, " %s", argv[k]);
        mb_printf(&ctx->out, "\n");
    }
    return 0;
}

const struct mb_suite mb_suite_run = {
    .name = "run",
    .title = "the main job: a few-minute characterisation of this machine",
    .samples = MB_JOB_SAMPLES,
    .settings = &job_settings,
    .validate = job_validate,
    .usage = job_usage,
    .dry_run = job_dry_run,
    .run = job_run,
};
