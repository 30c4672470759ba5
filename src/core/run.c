/* SPDX-License-Identifier: BSD-3-Clause */
/* The library entry point: argv[0]/subcommand dispatch, parsing on rank 0 and agreement on
 * the outcome, output files, then the suite (docs/architecture.md, properties 8 and 10). */
#include "core/error.h"
#include "core/launcher.h"
#include "core/report_json.h"
#include "core/run_id.h"
#include "core/sink.h"
#include "core/suite.h"
#include "core/timing.h"
#include "core/userfile.h"
#include "mb_version.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- dispatch ---------------------------------------------------------------------- */

static void toplevel_usage(FILE *out)
{
    fprintf(out, "Usage: mpirun -np N mpibench <suite> [options]\n"
                 "   or: mpirun -np N <original name> [options]\n\nSuites:\n");
    for (size_t i = 0; i < mb_suite_count(); i++) {
        const struct mb_suite *s = mb_suite_at(i);
        fprintf(out, "  %-16s %-10s %s%s\n", s->name, s->legacy ? s->legacy : "", s->title,
                s->run ? "" : " (not implemented yet)");
    }
    fprintf(out, "\nWithout mpirun:\n");
    mb_program.tools_usage(out);
    fprintf(out,
            "\n'mpibench <suite> --help' or 'mpibench help <suite>' describes a suite's options,"
            "\n'mpibench plot --help' and 'mpibench compare --help' the tools.\n");
}

static char *join_args(int argc, char **argv)
{
    size_t len = 1;
    char *s;

    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    s = mb_xmalloc(len);
    s[0] = '\0';
    for (int i = 0; i < argc; i++) {
        if (i)
            strcat(s, " ");
        strcat(s, argv[i]);
    }
    return s;
}

enum { TOP_RUN, TOP_HELP, TOP_VERSION };

/* Rank 0: which suite argv asks for; *first = index of its first argument. */
static int dispatch(int argc, char **argv, int *suite, int *first, int *top, struct mb_config *cfg,
                    struct mb_error *err)
{
    const char *prog = mb_basename(argc > 0 ? argv[0] : "mpibench");

    *top = TOP_RUN;
    *first = 1;
    *suite = mb_suite_find(prog, 1);
    if (*suite >= 0) {
        cfg->prog = mb_xstrdup(prog);
        return 0;
    }
    cfg->prog = mb_xstrdup("mpibench");
    if (argc < 2)
        return mb_usage(err, "no suite given; try 'mpibench --help'");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        *top = TOP_HELP;
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        *top = TOP_VERSION;
        return 0;
    }
    *suite = mb_suite_find(argv[1], 0);
    if (*suite < 0)
        return mb_usage(err, "unknown suite '%s'; try 'mpibench --help'", argv[1]);
    *first = 2;
    return 0;
}

/* ---- outputs ------------------------------------------------------------------------ */

struct outputs {
    FILE *text_copy;
    struct mb_sink json;
    char *text_path, *json_path, *text_name, *json_name;
    int made_dir;
};

static char *path_join(const char *dir, const char *name)
{
    char *p = mb_xmalloc(strlen(dir) + strlen(name) + 2);
    sprintf(p, "%s/%s", dir, name);
    return p;
}

/* "the --json file 'x'": how write errors name an output. */
static char *quoted(const char *what, const char *path)
{
    char *s = mb_xmalloc(strlen(what) + strlen(path) + 3);
    sprintf(s, "%s'%s'", what, path);
    return s;
}

static void outputs_free(struct outputs *o)
{
    free(o->text_path);
    free(o->json_path);
    free(o->text_name);
    free(o->json_name);
    memset(o, 0, sizeof *o);
}

/* A run that does not start: the files this run created go (checked by identity, never a
 * file of the user's), a file that existed stays as it was (never truncated yet). */
static void outputs_discard(struct outputs *o, const char *dir, const struct mb_files *files)
{
    mb_files_remove_created(files); /* while open: their inode numbers stay theirs */
    if (o->text_copy)
        fclose(o->text_copy);
    if (o->json.f)
        fclose(o->json.f);
    if (o->made_dir)
        rmdir(dir);
    outputs_free(o);
}

/* The end of a run: a failed write or close is a run-time error naming the file. */
static void outputs_close(struct outputs *o)
{
    if (o->text_copy)
        mb_sink_close(o->text_copy, o->text_name);
    if (o->json.f)
        mb_sink_close(o->json.f, o->json_name);
    outputs_free(o);
}

/* Rank 0, after validation and before the suite's prepare hook (whose protocol files may go
 * into it): create --output-dir unless it exists as a directory. */
static int outputs_make_dir(struct outputs *o, const struct mb_config *cfg, struct mb_error *err)
{
    const char *dir = cfg->common.output_dir;
    struct stat st;

    memset(o, 0, sizeof *o);
    if (!dir)
        return 0;
    if (mkdir(dir, 0777) == 0 || (errno == EEXIST && cfg->common.output_dir_made))
        o->made_dir = 1;
    else if (errno != EEXIST)
        return mb_usage(err, "cannot create --output-dir '%s': %s", dir, strerror(errno));
    else if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return mb_usage(err, "cannot create --output-dir '%s': it exists and is not a directory",
                        dir);
    return 0;
}

/* Rank 0, after the suite's prepare hook: open the output files, and empty those that
 * existed only once all are open. On failure nothing is left behind (outputs_discard) and
 * no file of the user's changed. */
static int outputs_open(struct outputs *o, const struct mb_config *cfg, const char *base,
                        struct mb_error *err)
{
    const char *dir = cfg->common.output_dir;

    if (dir) {
        char name[128];
        snprintf(name, sizeof name, "%s.txt", base);
        o->text_path = path_join(dir, name);
        o->text_name = quoted("the text copy ", o->text_path);
        o->text_copy = mb_userfile_write(cfg->files, o->text_path, "", "the text copy", err);
        if (!o->text_copy)
            goto fail;
        if (!cfg->common.json_path) {
            snprintf(name, sizeof name, "%s.jsonl", base);
            o->json_path = path_join(dir, name);
        }
    }
    if (cfg->common.json_path)
        o->json_path = mb_xstrdup(cfg->common.json_path);
    if (o->json_path) {
        o->json_name = quoted("the --json file ", o->json_path);
        o->json.name = o->json_name;
        o->json.run_id = cfg->common.run_id;
        o->json.suite = base;
        o->json.f =
            mb_userfile_write(cfg->files, o->json_path, "--json file ", "the --json file", err);
        if (!o->json.f)
            goto fail;
    }
    if ((o->text_copy && mb_userfile_truncate(o->text_copy, o->text_path, "", err) != 0) ||
        (o->json.f && mb_userfile_truncate(o->json.f, o->json_path, "--json file ", err) != 0))
        goto fail;
    return 0;
fail:
    return 2;
}

static void print_help(const struct mb_suite *s, const char *prog, const struct mb_config *cfg,
                       FILE *out)
{
    struct mb_option_set sets[MB_MAX_SETS];
    size_t n = mb_suite_option_sets(s, sets);
    /* Called by an original name (IMB-EXT) or as a subcommand (mpibench imb-ext). */
    const int sub = strcmp(prog, "mpibench") == 0;

    fprintf(out, "Usage: mpirun -np N %s%s%s [options]%s%s\n%s (mpibench %s)\n\n", prog,
            sub ? " " : "", sub ? s->name : "", s->operands ? " " : "",
            s->operands ? s->operands : "", s->title, MB_VERSION);
    if (s->usage)
        s->usage(s, out);
    fprintf(out, "Options:\n");
    mb_options_help(sets, n, cfg, out);
}

int mpibench_help(const char *word, FILE *out)
{
    struct mb_config cfg;
    int i;

    if (!word) {
        toplevel_usage(out);
        return 0;
    }
    /* A subcommand (imb-mpi1) or an original name (IMB-MPI1), each printed as that name's own
     * --help prints it: the same rows, defaults and synopsis, without MPI_Init. */
    i = mb_suite_find(word, 0);
    if (i < 0 && (i = mb_suite_find(word, 1)) < 0)
        return -1;
    mb_config_defaults(&cfg);
    cfg.prog = mb_xstrdup(mb_suite_find(word, 0) >= 0 ? "mpibench" : word);
    cfg.suite = i;
    mb_config_settings(&cfg, mb_suite_at((size_t)i)->settings);
    print_help(mb_suite_at((size_t)i), cfg.prog, &cfg, out);
    mb_config_free(&cfg);
    return 0;
}

static void print_version(FILE *out)
{
    fprintf(out, "mpibench %s (git %s)\n", MB_VERSION, MB_GIT_COMMIT);
}

/* Rank 0: parse the suite's command line and validate it. */
static void configure(const struct mb_ctx *ctx, int argc, char **argv, int first,
                      struct mb_config *cfg, struct mb_error *err)
{
    struct mb_option_set sets[MB_MAX_SETS];
    size_t nsets = mb_suite_option_sets(ctx->suite, sets);

    cfg->cmdline = join_args(argc, argv);
    cfg->common.suite_thread_level = mb_suite_thread_level(ctx->suite, argc - first, argv + first);
    if (mb_options_parse(sets, nsets, ctx->suite->positional, argc, argv, first, cfg, err) != 0 ||
        cfg->common.help || cfg->common.version)
        return;
    if (cfg->common.selftest)
        cfg->common.check = 1;
    if (!cfg->common.run_id) {
        char id[MB_RUN_ID_MAX + 1];
        mb_run_id_make(id, sizeof id);
        cfg->common.run_id = mb_xstrdup(id);
    }
    ctx->suite->validate(cfg, ctx->prov, err);
}

/* ---- the end of every run ------------------------------------------------------------- */

static void json_summary(const struct mb_ctx *ctx, const struct mb_run_end *e, const char *error)
{
    struct mb_jobj o;

    if (!ctx->json)
        return;
    mb_jobj_begin(&o, "summary", ctx->json);
    mb_jobj_int(&o, "exit_status", e->status);
    mb_jobj_int(&o, "rows", e->rows);
    mb_jobj_int(&o, "defects", e->defects);
    mb_jobj_num(&o, "elapsed_sec", e->seconds);
    mb_jobj_int(&o, "peak_rss_bytes", (long long)e->peak_rss);
    if (error)
        mb_jobj_str(&o, "error", error);
    mb_jobj_write(&o, ctx->json);
}

/* Collective: rank 0 saw every row, so its tally is everybody's verdict: defects
 * make the status 1 on every rank. Then the peak memory, the suite's footer, the summary
 * record and the one data-check message. */
static int finish(const struct mb_ctx *ctx, const struct mb_config *cfg,
                  const struct mb_tally *tally, const struct mb_stopwatch *wall)
{
    long long counts[3] = {tally->rows, tally->defects, tally->status};
    struct mb_run_end e;

    char nothing[600] = "";

    MB_MPI(MPI_Bcast(counts, 3, MPI_LONG_LONG, 0, ctx->world));
    e.rows = counts[0];
    e.defects = counts[1];
    /* A run that measured nothing did not do what it was asked - a pair benchmark on one
     * process, or each process a singleton under the wrong MPI's launcher: status 1, never a
     * success (docs/adr/measured-nothing.md). */
    if (e.rows == 0 && counts[2] == 0) {
        char why[480];
        snprintf(nothing, sizeof nothing, "nothing was measured (%s)",
                 mb_launcher_mismatch(why, sizeof why)
                     ? "each process a job of its own: the wrong launcher, see the warning above"
                     : "every benchmark was skipped, see above");
    }
    e.status = e.defects > 0 || counts[2] != 0 || nothing[0] ? MB_EXIT_RUNTIME : MB_EXIT_OK;
    e.peak_rss = mb_peak_rss(ctx->world);
    e.seconds = mb_stopwatch_read(wall);
    if (ctx->rank != 0)
        return e.status;
    if (ctx->suite->footer)
        ctx->suite->footer(ctx, cfg, &e);
    mb_flush(&ctx->out);
    json_summary(ctx, &e,
                 counts[2] != 0 ? (tally->status_what ? tally->status_what : "the run failed")
                 : nothing[0]   ? nothing
                                : NULL);
    if (e.defects > 0)
        mb_eprintf("%s: %s: %lld %s", cfg->prog, mb_error_label(MB_ERR_DEFECT), e.defects,
                   tally->defects_what ? tally->defects_what : "defects found");
    if (counts[2] != 0)
        mb_eprintf("%s: %s: %s", cfg->prog, mb_error_label(MB_ERR_RUNTIME),
                   tally->status_what ? tally->status_what : "the run failed");
    if (nothing[0])
        mb_eprintf("%s: %s: %s", cfg->prog, mb_error_label(MB_ERR_RUNTIME), nothing);
    return e.status;
}

/* ---- the entry point ---------------------------------------------------------------- */

/* Rank 0: why the run ends with a non-zero status, for a caller that reports it (the main
 * job's phases): the agreed usage error, else the run's run-time error, else its defects, as
 * one line. */
static void explain(const struct mb_error *err, const struct mb_tally *tally, int status, char *why,
                    size_t len)
{
    if (!why || len == 0)
        return;
    why[0] = '\0';
    if (status == 0)
        return;
    if (err->kind != MB_ERR_NONE)
        snprintf(why, len, "%s", err->msg);
    else if (tally->status != 0)
        snprintf(why, len, "%s", tally->status_what ? tally->status_what : "the run failed");
    else if (tally->defects > 0)
        snprintf(why, len, "%lld %s", tally->defects,
                 tally->defects_what ? tally->defects_what : "defects found");
    /* One line: an MPI library's error stack (MPICH) comes in several. */
    for (char *p = why; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
}

/* Rank 0's text (also --help) must reach its reader: stdout on a full device or closed is a
 * run-time error, not a silent success. Agreed, not mb_die: every process is here, and ending
 * them all by their exit status leaves no MPI_Abort racing the others' MPI_Finalize (Open MPI
 * 4.1's launcher once hung on that race after --help, and has crashed in its finalize after
 * an abort). A failure is the run's status only when nothing failed before it. */
static int flush_agreed(FILE *out, struct mb_error *err, int status, const char *prog,
                        MPI_Comm world)
{
    struct mb_error werr = {MB_ERR_NONE, ""};
    int rank, wstatus;

    MB_MPI(MPI_Comm_rank(world, &rank));
    if (rank != 0)
        fflush(out);
    else if (mb_sink_check(out, "standard output", werr.msg, sizeof werr.msg) != 0)
        werr.kind = MB_ERR_RUNTIME;
    wstatus = mb_agree(&werr, prog, world);
    if (wstatus == 0 || status != 0)
        return status;
    *err = werr;
    return wstatus;
}

int mpibench_run(int argc, char **argv, MPI_Comm comm, FILE *out)
{
    char why[480];

    /* Once per process, before anything else (the main job's phases call mpibench_run_why): the
     * wrong MPI's launcher makes every process a job of its own (core/launcher.h). */
    if (mb_launcher_mismatch(why, sizeof why))
        fprintf(stderr, "%s: warning: %s\n", argc > 0 ? mb_basename(argv[0]) : "mpibench", why);
    return mpibench_run_why(argc, argv, comm, out, NULL, 0);
}

int mpibench_run_why(int argc, char **argv, MPI_Comm comm, FILE *out, char *why, size_t why_len)
{
    struct mb_tally tally = {0, 0, NULL, 0, NULL, ""};
    struct mb_ctx ctx;
    struct mb_config cfg;
    struct mb_error err = {MB_ERR_NONE, ""};
    struct mb_provenance prov;
    struct outputs outs = {0};
    int info[3] = {-1, 1, TOP_RUN}; /* suite, first argument, top-level request */
    long long agreed[3];
    struct mb_config_msg msg = {NULL, 0};
    int status;

    memset(&ctx, 0, sizeof ctx);
    mb_config_defaults(&cfg);
    MB_MPI(MPI_Comm_dup(comm, &ctx.world));
    MB_MPI(MPI_Comm_set_errhandler(ctx.world, MPI_ERRORS_RETURN));
    MB_MPI(MPI_Comm_rank(ctx.world, &ctx.rank));
    MB_MPI(MPI_Comm_size(ctx.world, &ctx.size));
    cfg.nprocs = ctx.size;

    /* Only rank 0 reads the command line; the others learn the outcome. */
    if (ctx.rank == 0)
        dispatch(argc, argv, &info[0], &info[1], &info[2], &cfg, &err);
    for (int i = 0; i < 3; i++)
        agreed[i] = info[i];
    status = mb_agree_with(&err, ctx.rank == 0 ? cfg.prog : "", ctx.world, agreed, 3);
    for (int i = 0; i < 3; i++)
        info[i] = (int)agreed[i];
    if (status == 0 && info[2] != TOP_RUN) {
        if (ctx.rank == 0 && info[2] == TOP_HELP)
            toplevel_usage(out);
        else if (ctx.rank == 0)
            print_version(out);
        goto done;
    }
    if (status == 0 && !mb_suite_at((size_t)info[0])->run) {
        if (ctx.rank == 0)
            mb_usage(&err, "suite '%s' (%s) is not implemented yet",
                     mb_suite_at((size_t)info[0])->name, cfg.prog);
        status = mb_agree(&err, cfg.prog, ctx.world);
    }
    if (status != 0)
        goto done;

    ctx.suite = mb_suite_at((size_t)info[0]);
    mb_provenance_gather(&prov, ctx.world);
    ctx.prov = &prov;
    cfg.suite = info[0];
    mb_config_settings(&cfg, ctx.suite->settings);
    if (ctx.rank == 0) {
        configure(&ctx, argc, argv, info[1], &cfg, &err);
        if (err.kind == MB_ERR_NONE)
            mb_config_pack(&cfg, &msg);
    }
    status = mb_agree_with(&err, cfg.prog, ctx.world, &msg.len, 1);
    if (status != 0) {
        free(msg.buf);
        goto free_prov;
    }
    mb_config_bcast(&cfg, &msg, ctx.world);
    if (cfg.common.help || cfg.common.version) {
        if (ctx.rank == 0 && cfg.common.help)
            print_help(ctx.suite, cfg.prog, &cfg, out);
        else if (ctx.rank == 0)
            print_version(out);
        goto free_prov;
    }

    ctx.wd = mb_watchdog_start(cfg.common.timeout, cfg.prog, ctx.rank);
    /* The output directory first (protocol files may go into it), then the suite takes what
     * it needs before any output file exists (a refusal changes no file of the user's), then
     * rank 0 opens the outputs. */
    if (ctx.rank == 0)
        outputs_make_dir(&outs, &cfg, &err);
    status = mb_agree(&err, cfg.prog, ctx.world);
    if (status == 0 && !cfg.common.dry_run && ctx.suite->prepare)
        status = ctx.suite->prepare(&ctx, &cfg, &ctx.state);
    if (status == 0) {
        if (ctx.rank == 0)
            outputs_open(&outs, &cfg, ctx.suite->legacy ? ctx.suite->legacy : ctx.suite->name,
                         &err);
        status = mb_agree(&err, cfg.prog, ctx.world);
        if (status != 0 && ctx.state)
            ctx.suite->release(&ctx, ctx.state);
    }
    if (status != 0) {
        if (ctx.rank == 0)
            outputs_discard(&outs, cfg.common.output_dir, cfg.files);
        mb_watchdog_stop(ctx.wd);
        goto free_prov;
    }
    if (ctx.rank == 0) {
        if (!cfg.common.quiet) {
            ctx.out.name[ctx.out.n] = "standard output";
            ctx.out.f[ctx.out.n++] = out;
        }
        if (outs.text_copy) {
            ctx.out.name[ctx.out.n] = outs.text_name;
            ctx.out.f[ctx.out.n++] = outs.text_copy;
        }
        ctx.json = outs.json.f ? &outs.json : NULL;
    }
    mb_json_header(&ctx, &cfg);
    if (cfg.common.dry_run) {
        status = ctx.suite->dry_run(&ctx, &cfg);
    } else {
        const struct mb_stopwatch wall = mb_stopwatch_start();
        status = ctx.suite->run(&ctx, &cfg, &tally);
        if (status == MB_EXIT_OK)
            status = finish(&ctx, &cfg, &tally, &wall);
    }
    mb_watchdog_stop(ctx.wd);
    if (ctx.rank == 0)
        outputs_close(&outs);

free_prov:
    mb_provenance_free(&prov);
done:
    status = flush_agreed(out, &err, status, ctx.rank == 0 ? cfg.prog : "", ctx.world);
    if (ctx.rank == 0)
        explain(&err, &tally, status, why, why_len);
    mb_config_free(&cfg);
    MB_MPI(MPI_Comm_free(&ctx.world));
    return status;
}
