#include "core/suite.h"

#include "core/error.h"
#include "mb_version.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The suites implemented elsewhere; each is one row below. */
extern const struct mb_suite mb_suite_imb_mpi1;
extern const struct mb_suite mb_suite_run;

/* Suites not built yet answer "not implemented yet" (run == NULL). */
static const struct mb_suite suite_imb_ext = {
    .name = "imb-ext", .legacy = "IMB-EXT", .title = "IMB-EXT one-sided communication"};
static const struct mb_suite suite_imb_io = {
    .name = "imb-io", .legacy = "IMB-IO", .title = "IMB-IO MPI-IO benchmarks"};
static const struct mb_suite suite_beff = {
    .name = "beff", .legacy = "b_eff", .title = "b_eff effective communication bandwidth"};
static const struct mb_suite suite_beffio = {
    .name = "beffio", .legacy = "b_eff_io", .title = "b_eff_io effective I/O bandwidth"};
static const struct mb_suite suite_com = {
    .name = "presta-com", .legacy = "com", .title = "Presta com bandwidth/latency"};
static const struct mb_suite suite_laten = {
    .name = "presta-laten", .legacy = "laten", .title = "Presta laten latency"};
static const struct mb_suite suite_rma = {
    .name = "presta-rma", .legacy = "rma", .title = "Presta rma one-sided"};
static const struct mb_suite suite_allred = {
    .name = "presta-allred", .legacy = "allred", .title = "Presta allred Allreduce"};
static const struct mb_suite suite_globalop = {
    .name = "presta-globalop", .legacy = "globalop", .title = "Presta globalop global operations"};

static const struct mb_suite *const suites[] = {
    &mb_suite_run, &mb_suite_imb_mpi1, &suite_imb_ext,  &suite_imb_io,
    &suite_beff,   &suite_beffio,      &suite_com,      &suite_laten,
    &suite_rma,    &suite_allred,      &suite_globalop,
};
enum { N_SUITES = sizeof suites / sizeof suites[0] };

/* --help and --version are requests, not settings of the run. */
static int is_action(const struct mb_option *o)
{
    return o->kind == MB_OPT_FLAG && (o->offset == offsetof(struct mb_config, common.help) ||
                                      o->offset == offsetof(struct mb_config, common.version));
}

static void show_timeout(const struct mb_config *cfg, char *buf, size_t len)
{
    if (cfg->common.timeout > 0)
        snprintf(buf, len, "%g s per measurement", cfg->common.timeout);
    else
        snprintf(buf, len, "off");
}

#define COMMON(field) offsetof(struct mb_config, common.field)
const struct mb_option mb_common_options[] = {
    {"--json", NULL, MB_OPT_STRING, COMMON(json_path), 0, 0, "FILE",
     "also write the results as JSON Lines to FILE (schema: docs/results.schema.json)", NULL, NULL},
    {"--output-dir", NULL, MB_OPT_STRING, COMMON(output_dir), 0, 0, "DIR",
     "also write the text output (and, without --json, the JSON) into DIR", NULL, NULL},
    {"--check", "-check", MB_OPT_FLAG, COMMON(check), 0, 0, NULL,
     "check every received buffer; adds a defects column (results not valid as benchmark data)",
     NULL, NULL},
    {"--check-selftest", NULL, MB_OPT_FLAG, COMMON(selftest), 0, 0, NULL,
     "with --check: deliberately corrupt sent data to prove the check finds it", NULL, NULL},
    {"--timeout", NULL, MB_OPT_DOUBLE, COMMON(timeout), 1e-3, 1e9, "SEC",
     "abort the job (exit 1) if one measurement takes longer than SEC seconds", NULL, show_timeout},
    {"--quiet", NULL, MB_OPT_FLAG, COMMON(quiet), 0, 0, NULL, "no text output on stdout", NULL,
     NULL},
    {"--dry-run", NULL, MB_OPT_FLAG, COMMON(dry_run), 0, 0, NULL,
     "print the run plan and exit without measuring", NULL, NULL},
    {"--help", NULL, MB_OPT_FLAG, COMMON(help), 0, 0, NULL, "print this help and exit", NULL, NULL},
    {"--version", NULL, MB_OPT_FLAG, COMMON(version), 0, 0, NULL, "print the version and exit",
     NULL, NULL},
};
const size_t mb_n_common_options = sizeof mb_common_options / sizeof mb_common_options[0];
#undef COMMON

static size_t option_sets(const struct mb_suite *s, struct mb_option_set sets[2])
{
    sets[0] = s->options ? *s->options : (struct mb_option_set){NULL, 0};
    sets[1] = (struct mb_option_set){mb_common_options, mb_n_common_options};
    return 2;
}

void mb_settings_text(const struct mb_suite *s, const struct mb_config *cfg,
                      const struct mb_out *out)
{
    struct mb_option_set sets[2];
    size_t n = option_sets(s, sets);

    mb_printf(out, "# Effective settings:\n");
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < sets[k].n; i++) {
            const struct mb_option *o = &sets[k].rows[i];
            char value[256];
            if (is_action(o))
                continue;
            mb_option_value(o, cfg, value, sizeof value);
            mb_printf(out, "#   %-18s: %s\n", o->name, value);
        }
}

void mb_settings_json(const struct mb_suite *s, const struct mb_config *cfg, struct mb_jobj *o)
{
    struct mb_option_set sets[2];
    size_t n = option_sets(s, sets);
    struct mb_jobj inner;
    char *text;

    mb_jobj_init(&inner);
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < sets[k].n; i++) {
            char value[256];
            if (is_action(&sets[k].rows[i]))
                continue;
            mb_option_value(&sets[k].rows[i], cfg, value, sizeof value);
            mb_jobj_str(&inner, sets[k].rows[i].name, value);
        }
    text = mb_jobj_take(&inner);
    mb_jobj_raw(o, "settings", text);
    free(text);
}

void mb_json_header(const struct mb_ctx *ctx, const struct mb_config *cfg)
{
    struct mb_jobj o;

    if (!ctx->json)
        return;
    mb_jobj_begin(&o, "header");
    mb_jobj_str(&o, "suite", ctx->suite->legacy ? ctx->suite->legacy : ctx->suite->name);
    mb_jobj_str(&o, "command_line", cfg->cmdline);
    mb_provenance_json(ctx->prov, &o);
    mb_jobj_bool(&o, "check_mode", cfg->common.check);
    mb_settings_json(ctx->suite, cfg, &o);
    mb_jobj_write(&o, ctx->json);
}

void mb_json_summary(const struct mb_ctx *ctx, int status, long long rows, long long defects,
                     double seconds, unsigned long long peak_rss)
{
    struct mb_jobj o;

    if (!ctx->json)
        return;
    mb_jobj_begin(&o, "summary");
    mb_jobj_int(&o, "exit_status", status);
    mb_jobj_int(&o, "rows", rows);
    mb_jobj_int(&o, "defects", defects);
    mb_jobj_num(&o, "elapsed_sec", seconds);
    mb_jobj_int(&o, "peak_rss_bytes", (long long)peak_rss);
    mb_jobj_write(&o, ctx->json);
}

/* ---- dispatch ---------------------------------------------------------------------- */

static int find_suite(const char *word, int by_legacy)
{
    for (int i = 0; i < N_SUITES; i++) {
        const char *name = by_legacy ? suites[i]->legacy : suites[i]->name;
        if (name && strcmp(name, word) == 0)
            return i;
    }
    return -1;
}

static void toplevel_usage(FILE *out)
{
    fprintf(out, "Usage: mpirun -np N mpibench <suite> [options]\n"
                 "   or: mpirun -np N <original name> [options]\n\nSuites:\n");
    for (int i = 0; i < N_SUITES; i++)
        fprintf(out, "  %-16s %-10s %s%s\n", suites[i]->name,
                suites[i]->legacy ? suites[i]->legacy : "", suites[i]->title,
                suites[i]->run ? "" : " (not implemented yet)");
    fprintf(out, "\n'mpibench <suite> --help' describes a suite's options.\n");
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
    *suite = find_suite(prog, 1);
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
    *suite = find_suite(argv[1], 0);
    if (*suite < 0)
        return mb_usage(err, "unknown suite '%s'; try 'mpibench --help'", argv[1]);
    *first = 2;
    return 0;
}

/* ---- outputs ------------------------------------------------------------------------ */

struct outputs {
    FILE *text_copy, *json;
    char *text_path, *json_path;
    int made_dir;
};

static char *path_join(const char *dir, const char *name)
{
    char *p = mb_xmalloc(strlen(dir) + strlen(name) + 2);
    sprintf(p, "%s/%s", dir, name);
    return p;
}

static void outputs_discard(struct outputs *o, const char *dir)
{
    if (o->text_copy) {
        fclose(o->text_copy);
        unlink(o->text_path);
    }
    if (o->json) {
        fclose(o->json);
        unlink(o->json_path);
    }
    if (o->made_dir)
        rmdir(dir);
    free(o->text_path);
    free(o->json_path);
    memset(o, 0, sizeof *o);
}

/* Rank 0, after validation: create the output files. Nothing exists before this point, and
 * on failure nothing is left behind. */
static int outputs_open(struct outputs *o, const struct mb_config *cfg, const char *base,
                        struct mb_error *err)
{
    const char *dir = cfg->common.output_dir;

    memset(o, 0, sizeof *o);
    if (dir) {
        char name[128];
        if (mkdir(dir, 0777) == 0)
            o->made_dir = 1;
        else if (errno != EEXIST)
            return mb_usage(err, "cannot create --output-dir '%s': %s", dir, strerror(errno));
        snprintf(name, sizeof name, "%s.txt", base);
        o->text_path = path_join(dir, name);
        o->text_copy = fopen(o->text_path, "w");
        if (!o->text_copy) {
            mb_usage(err, "cannot write '%s': %s", o->text_path, strerror(errno));
            outputs_discard(o, dir);
            return 2;
        }
        if (!cfg->common.json_path) {
            snprintf(name, sizeof name, "%s.jsonl", base);
            o->json_path = path_join(dir, name);
        }
    }
    if (cfg->common.json_path)
        o->json_path = mb_xstrdup(cfg->common.json_path);
    if (o->json_path) {
        o->json = fopen(o->json_path, "w");
        if (!o->json) {
            mb_usage(err, "cannot write --json file '%s': %s", o->json_path, strerror(errno));
            outputs_discard(o, dir);
            return 2;
        }
    }
    return 0;
}

static void print_help(const struct mb_suite *s, const char *prog, FILE *out)
{
    struct mb_option_set sets[2];
    size_t n = option_sets(s, sets);

    fprintf(out, "Usage: mpirun -np N %s [options]%s\n%s (mpibench %s)\n\n", prog,
            s->positional ? " [benchmark ...]" : "", s->title, MB_VERSION);
    if (s->usage)
        s->usage(out);
    fprintf(out, "Options:\n");
    mb_options_help(sets, n, out);
}

/* ---- the entry point ---------------------------------------------------------------- */

int mpibench_run(int argc, char **argv, MPI_Comm comm, FILE *out)
{
    struct mb_ctx ctx;
    struct mb_config cfg;
    struct mb_error err = {MB_ERR_NONE, ""};
    struct mb_provenance prov;
    struct outputs outs = {0};
    int info[3] = {-1, 1, TOP_RUN}; /* suite, first argument, top-level request */
    int status;

    memset(&ctx, 0, sizeof ctx);
    mb_config_defaults(&cfg);
    MB_MPI(MPI_Comm_dup(comm, &ctx.world));
    MB_MPI(MPI_Comm_set_errhandler(ctx.world, MPI_ERRORS_RETURN));
    MB_MPI(MPI_Comm_rank(ctx.world, &ctx.rank));
    MB_MPI(MPI_Comm_size(ctx.world, &ctx.size));
    cfg.nprocs = ctx.size;

    /* Only rank 0 reads the command line (SPEC §0); the others learn the outcome. */
    if (ctx.rank == 0)
        dispatch(argc, argv, &info[0], &info[1], &info[2], &cfg, &err);
    status = mb_agree(&err, ctx.rank == 0 ? cfg.prog : "", ctx.world);
    if (status == 0)
        MB_MPI(MPI_Bcast(info, 3, MPI_INT, 0, ctx.world));
    if (status == 0 && info[2] != TOP_RUN) {
        if (ctx.rank == 0 && info[2] == TOP_HELP)
            toplevel_usage(out);
        else if (ctx.rank == 0)
            fprintf(out, "mpibench %s (git %s)\n", MB_VERSION, MB_GIT_COMMIT);
        goto done;
    }
    if (status == 0 && !suites[info[0]]->run) {
        if (ctx.rank == 0)
            mb_usage(&err, "suite '%s' (%s) is not implemented yet", suites[info[0]]->name,
                     cfg.prog);
        status = mb_agree(&err, cfg.prog, ctx.world);
    }
    if (status != 0)
        goto done;

    ctx.suite = suites[info[0]];
    mb_provenance_gather(&prov, ctx.world);
    ctx.prov = &prov;
    if (ctx.rank == 0) {
        struct mb_option_set sets[2];
        size_t nsets = option_sets(ctx.suite, sets);
        const char *base = ctx.suite->legacy ? ctx.suite->legacy : ctx.suite->name;
        cfg.suite = info[0];
        cfg.cmdline = join_args(argc, argv);
        if (mb_options_parse(sets, nsets, ctx.suite->positional, argc, argv, info[1], &cfg, &err) ==
                0 &&
            !cfg.common.help && !cfg.common.version) {
            if (cfg.common.selftest)
                cfg.common.check = 1;
            if (ctx.suite->validate(&cfg, &prov, &err) == 0)
                outputs_open(&outs, &cfg, base, &err);
        }
    }
    status = mb_agree(&err, cfg.prog, ctx.world);
    if (status != 0)
        goto free_prov;
    mb_config_bcast(&cfg, ctx.world);
    if (cfg.common.help || cfg.common.version) {
        if (ctx.rank == 0 && cfg.common.help)
            print_help(ctx.suite, cfg.prog, out);
        else if (ctx.rank == 0)
            fprintf(out, "mpibench %s (git %s)\n", MB_VERSION, MB_GIT_COMMIT);
        goto free_prov;
    }

    if (ctx.rank == 0) {
        if (!cfg.common.quiet)
            ctx.out.f[ctx.out.n++] = out;
        if (outs.text_copy)
            ctx.out.f[ctx.out.n++] = outs.text_copy;
        ctx.json = outs.json;
        ctx.wd = mb_watchdog_start(cfg.common.timeout, cfg.prog);
    }
    mb_json_header(&ctx, &cfg);
    status = cfg.common.dry_run ? ctx.suite->dry_run(&ctx, &cfg) : ctx.suite->run(&ctx, &cfg);
    mb_watchdog_stop(ctx.wd);
    if (outs.text_copy)
        fclose(outs.text_copy);
    if (outs.json)
        fclose(outs.json);
    free(outs.text_path);
    free(outs.json_path);

free_prov:
    mb_provenance_free(&prov);
done:
    mb_config_free(&cfg);
    fflush(out);
    MB_MPI(MPI_Comm_free(&ctx.world));
    return status;
}
