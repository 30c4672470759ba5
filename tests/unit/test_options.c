/* SPDX-License-Identifier: BSD-3-Clause */
/* Command-line parsing: strict numbers, the IMB option table (guide 5.1.2), benchmark names,
 * -msglen and -input files with file:line errors, and validation. */
#include "beff/beff.h"
#include "beff/beff_config.h"
#include "beff/beff_options.h"
#include "beffio/beffio_config.h"
#include "beffio/beffio_options.h"
#include "core/config.h"
#include "core/listfile.h"
#include "core/options.h"
#include "core/suite.h"
#include "imb/imb_bench.h"
#include "imb/imb_options.h"

/* The IMB settings block of a configuration. */
#define IMBC(cfg) ((struct mb_imb_config *)(cfg).settings)
#include "imb/imb_plan.h"
#include "unit.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

static const char *write_file(const char *content)
{
    static char path[64];
    FILE *f;
    snprintf(path, sizeof path, "/tmp/mb-unit-%ld.txt", (long)getpid());
    f = fopen(path, "w");
    fputs(content, f);
    fclose(f);
    return path;
}

/* Parses argv (after the program name) the way rank 0 does; returns the status. */
static int parse(struct mb_config *cfg, struct mb_error *err, int argc, char **argv)
{
    struct mb_option_set sets[2] = {mb_imb_option_set, {mb_common_options, mb_n_common_options, 0}};
    mb_config_defaults(cfg);
    mb_config_settings(cfg, &mb_imb_family_mpi1.settings);
    memset(err, 0, sizeof *err);
    return mb_options_parse(sets, 2, mb_imb_positional, argc, argv, 1, cfg, err);
}

#define ARGV(...)                                                                                  \
    (char *[])                                                                                     \
    {                                                                                              \
        "IMB-MPI1", __VA_ARGS__                                                                    \
    }
#define ARGC(...)            ((int)(sizeof((char *[]){"IMB-MPI1", __VA_ARGS__}) / sizeof(char *)))
#define PARSE(cfg, err, ...) parse(cfg, err, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

int main(void)
{
    struct mb_config cfg;
    struct mb_error err;
    long long v;
    double d;
    const char *why;

    /* Strict numbers. */
    EXPECT(mb_parse_long("42", 1, 100, &v, &why) == 0 && v == 42);
    EXPECT(mb_parse_long("+7", 1, 100, &v, &why) == 0 && v == 7);
    EXPECT(mb_parse_long("007", 1, 100, &v, &why) == 0 && v == 7);
    /* Decimal only: no blanks around it, no hexadecimal, no exponent. */
    EXPECT(mb_parse_long(" 7", 1, 100, &v, &why) != 0 && strcmp(why, "not an integer") == 0);
    EXPECT(mb_parse_long("7 ", 1, 100, &v, &why) != 0 && strcmp(why, "not an integer") == 0);
    EXPECT(mb_parse_long("7\n", 1, 100, &v, &why) != 0 && strcmp(why, "not an integer") == 0);
    EXPECT(mb_parse_long("0x10", 1, 100, &v, &why) != 0 && strcmp(why, "not an integer") == 0);
    EXPECT(mb_parse_long("1e2", 1, 1000, &v, &why) != 0 && strcmp(why, "not an integer") == 0);
    EXPECT(mb_parse_long("-", -5, 100, &v, &why) != 0 && strcmp(why, "not an integer") == 0);
    EXPECT(mb_parse_long("+-1", -5, 100, &v, &why) != 0 && strcmp(why, "not an integer") == 0);
    EXPECT(mb_parse_long("  ", 1, 100, &v, &why) != 0 && strcmp(why, "empty value") == 0);
    EXPECT(mb_parse_long("4x", 1, 100, &v, &why) != 0 && strcmp(why, "not an integer") == 0);
    EXPECT(mb_parse_long("", 1, 100, &v, &why) != 0 && strcmp(why, "empty value") == 0);
    EXPECT(mb_parse_long("0", 1, 100, &v, &why) != 0 && strcmp(why, "must be positive") == 0);
    EXPECT(mb_parse_long("-1", 0, 100, &v, &why) != 0 && strcmp(why, "must not be negative") == 0);
    EXPECT(mb_parse_long("101", 1, 100, &v, &why) != 0 && strcmp(why, "out of range") == 0);
    EXPECT(mb_parse_long("99999999999999999999", 1, LLONG_MAX, &v, &why) != 0);
    EXPECT(mb_parse_double("1.5", 1e-6, 10, &d, &why) == 0 && d == 1.5);
    EXPECT(mb_parse_double("nan", 0, 10, &d, &why) != 0);
    EXPECT(mb_parse_double("inf", 0, 1e9, &d, &why) != 0);
    EXPECT(mb_parse_double("1e3", 0, 1e9, &d, &why) == 0 && d == 1000);
    EXPECT(mb_parse_double("0", 1e-6, 10, &d, &why) != 0 && strcmp(why, "must be positive") == 0);
    EXPECT(mb_parse_double("1e-1", 0, 10, &d, &why) == 0 && d == 0.1);
    EXPECT(mb_parse_double(".5", 0, 10, &d, &why) == 0 && d == 0.5);
    EXPECT(mb_parse_double("5.", 0, 10, &d, &why) == 0 && d == 5);
    EXPECT(mb_parse_double("-2.5E+1", -100, 10, &d, &why) == 0 && d == -25);
    /* No hexadecimal floats, inf or nan, blanks or a dangling exponent. */
    EXPECT(mb_parse_double("0x1p-3", 0, 10, &d, &why) != 0 && strcmp(why, "not a number") == 0);
    EXPECT(mb_parse_double("0xa", 0, 100, &d, &why) != 0 && strcmp(why, "not a number") == 0);
    EXPECT(mb_parse_double("nan", 0, 10, &d, &why) != 0 && strcmp(why, "not a number") == 0);
    EXPECT(mb_parse_double("-inf", -1e9, 10, &d, &why) != 0 && strcmp(why, "not a number") == 0);
    EXPECT(mb_parse_double("infinity", 0, 1e9, &d, &why) != 0);
    EXPECT(mb_parse_double(" 1.5", 0, 10, &d, &why) != 0 && strcmp(why, "not a number") == 0);
    EXPECT(mb_parse_double("1.5 ", 0, 10, &d, &why) != 0 && strcmp(why, "not a number") == 0);
    EXPECT(mb_parse_double("1e", 0, 10, &d, &why) != 0 && strcmp(why, "not a number") == 0);
    EXPECT(mb_parse_double(".", 0, 10, &d, &why) != 0 && strcmp(why, "not a number") == 0);
    EXPECT(mb_parse_double("1e400", 0, 1e300, &d, &why) != 0 && strcmp(why, "out of range") == 0);

    /* The guide's 5.1.2 examples parse. */
    EXPECT(PARSE(&cfg, &err, "-multi", "0", "PingPong", "Barrier", "-map", "2x7") == 0);
    EXPECT(IMBC(cfg)->multi == 0 && IMBC(cfg)->map_rows == 2 && IMBC(cfg)->map_cols == 7);
    EXPECT(IMBC(cfg)->n_selected == 2);
    EXPECT(MB_IMB_SEL_INDEX(IMBC(cfg)->selected[0]) ==
           mb_imb_find(&mb_imb_family_mpi1, "PingPong"));
    EXPECT(MB_IMB_SEL_INDEX(IMBC(cfg)->selected[1]) == mb_imb_find(&mb_imb_family_mpi1, "Barrier"));
    mb_config_free(&cfg);
    EXPECT(PARSE(&cfg, &err, "pingpong", "-off_cache", "-1") == 0);
    EXPECT(IMBC(cfg)->off_cache_mb == -1 && IMBC(cfg)->n_selected == 1);
    mb_config_free(&cfg);
    EXPECT(PARSE(&cfg, &err, "-npmin", "512", "alltoallv", "-iter", "20", "-time", "1.5", "-mem",
                 "2") == 0);
    EXPECT(IMBC(cfg)->npmin == 512 && IMBC(cfg)->msgspersample == 20 &&
           IMBC(cfg)->time_limit == 1.5 && IMBC(cfg)->mem_gb == 2);
    mb_config_free(&cfg);
    EXPECT(PARSE(&cfg, &err, "-iter", "1000,40,150", "-off_cache", "16,128") == 0);
    EXPECT(IMBC(cfg)->msgspersample == 1000 && IMBC(cfg)->overall_vol_mb == 40 &&
           IMBC(cfg)->msgs_nonaggr == 150 && IMBC(cfg)->off_cache_mb == 16 &&
           IMBC(cfg)->off_cache_line == 128);
    mb_config_free(&cfg);
    /* Names: case-insensitive, comma lists, Multi- prefix, duplicates run once. */
    EXPECT(PARSE(&cfg, &err, "ALLREDUCE,reduce", "Multi-Bcast", "allreduce", "--check") == 0);
    EXPECT(IMBC(cfg)->n_selected == 3 && cfg.common.check == 1);
    EXPECT(IMBC(cfg)->selected[2] == MB_IMB_SEL(mb_imb_find(&mb_imb_family_mpi1, "Bcast"), 1));
    mb_config_free(&cfg);
    /* --opt=value for the double-dash options. */
    EXPECT(PARSE(&cfg, &err, "--timeout=2.5", "--json=out.json") == 0);
    EXPECT(cfg.common.timeout == 2.5 && strcmp(cfg.common.json_path, "out.json") == 0);
    mb_config_free(&cfg);

    /* Errors name the argument. */
    EXPECT(PARSE(&cfg, &err, "-npmin") == 2);
    EXPECT_STR_CONTAINS(err.msg, "missing value for -npmin");
    mb_config_free(&cfg);
    EXPECT(PARSE(&cfg, &err, "-npmi", "2") == 2);
    EXPECT_STR_CONTAINS(err.msg, "unknown option '-npmi'");
    mb_config_free(&cfg);
    EXPECT(PARSE(&cfg, &err, "PingPang") == 2);
    EXPECT_STR_CONTAINS(err.msg, "unknown benchmark 'PingPang'");
    mb_config_free(&cfg);
    EXPECT(PARSE(&cfg, &err, "-map", "3x") == 2);
    EXPECT_STR_CONTAINS(err.msg, "'3x' for -map");
    mb_config_free(&cfg);

    /* -msglen files: comments and blank lines; errors carry file:line. */
    {
        const char *path = write_file("# lengths\n0\n\n  100   # bytes\n1000\n");
        char arg[80];
        snprintf(arg, sizeof arg, "%s", path);
        EXPECT(PARSE(&cfg, &err, "-msglen", arg) == 0);
        EXPECT(IMBC(cfg)->n_lengths == 3 && IMBC(cfg)->lengths[0] == 0 &&
               IMBC(cfg)->lengths[1] == 100 && IMBC(cfg)->lengths[2] == 1000);
        mb_config_free(&cfg);
        write_file("0\n12\nfoo\n");
        EXPECT(PARSE(&cfg, &err, "-msglen", arg) == 2);
        EXPECT_STR_CONTAINS(err.msg, ":3: 'foo' is not a message length");
        EXPECT_STR_CONTAINS(err.msg, path);
        mb_config_free(&cfg);
        write_file("0\n-12\n");
        EXPECT(PARSE(&cfg, &err, "-msglen", arg) == 2);
        EXPECT_STR_CONTAINS(err.msg, ":2: negative message length -12");
        mb_config_free(&cfg);
        write_file("3000000000\n");
        EXPECT(PARSE(&cfg, &err, "-msglen", arg) == 2);
        EXPECT_STR_CONTAINS(err.msg, ":1: message length 3000000000 exceeds");
        mb_config_free(&cfg);
        write_file("# nothing\n");
        EXPECT(PARSE(&cfg, &err, "-msglen", arg) == 2);
        EXPECT_STR_CONTAINS(err.msg, "contains no message lengths");
        mb_config_free(&cfg);
        /* -input: benchmark names, the guide's IMB_SELECT example style. */
        write_file("#\n# IMB benchmark selection file\n#\nPingPong\n#Sendrecv\nAllreduce\n");
        EXPECT(PARSE(&cfg, &err, "-input", arg) == 0);
        EXPECT(IMBC(cfg)->n_selected == 2);
        mb_config_free(&cfg);
        write_file("PingPong\nWindow\n");
        EXPECT(PARSE(&cfg, &err, "-input", arg) == 2);
        EXPECT_STR_CONTAINS(err.msg, ":2: unknown benchmark 'Window'");
        mb_config_free(&cfg);
        unlink(path);
        EXPECT(PARSE(&cfg, &err, "-msglen", arg) == 2);
        EXPECT_STR_CONTAINS(err.msg, "cannot open");
        mb_config_free(&cfg);
    }

    /* Validation: -map must cover the processes; -mem and -off_cache resolve to bytes. */
    {
        struct mb_provenance prov = {0};
        prov.mem_per_proc = 8ull << 30;
        EXPECT(PARSE(&cfg, &err, "-map", "2x7") == 0);
        cfg.nprocs = 12;
        EXPECT(mb_imb_validate(&cfg, &prov, &err) == 2);
        EXPECT_STR_CONTAINS(err.msg, "-map 2x7 maps 14 processes, but 12 were started");
        mb_config_free(&cfg);
        EXPECT(PARSE(&cfg, &err, "-map", "2x7", "-mem", "2", "-off_cache", "2.5,128") == 0);
        cfg.nprocs = 14;
        memset(&err, 0, sizeof err);
        EXPECT(mb_imb_validate(&cfg, &prov, &err) == 0);
        EXPECT(IMBC(cfg)->mem_cap == 2ull << 30);
        EXPECT(IMBC(cfg)->cache_bytes == (unsigned long long)(2.5 * 1048576) &&
               IMBC(cfg)->cache_line == 128);
        mb_config_free(&cfg);
        EXPECT(PARSE(&cfg, &err, "-off_cache", "-1") == 0);
        cfg.nprocs = 2;
        EXPECT(mb_imb_validate(&cfg, &prov, &err) == 0);
        EXPECT(IMBC(cfg)->cache_bytes > 0 && IMBC(cfg)->cache_line > 0);
        EXPECT(IMBC(cfg)->mem_cap == 4ull << 30); /* default: half the memory per process */
        mb_config_free(&cfg);
    }
    /* b_eff: the results every process keeps count with the buffers against the node's
     * memory (570 MB at --random 10000 --repetitions 20; 3.3 MB at the defaults). */
    {
        struct mb_provenance prov = {0};
        struct mb_beff_config *b;
        prov.mem_per_proc = 256ull << 20;
        mb_config_defaults(&cfg);
        mb_config_settings(&cfg, &mb_beff_settings);
        cfg.nprocs = 2;
        b = cfg.settings;
        b->memory_mb = 1;
        b->random = 10000;
        b->repetitions = 20;
        memset(&err, 0, sizeof err);
        EXPECT(mb_beff_validate(&cfg, &prov, &err) == 2);
        EXPECT_STR_CONTAINS(err.msg, "--random 10000 and --repetitions 20 keep 5");
        EXPECT(mb_beff_data_bytes(20, mb_beff_pattern_cap(10000)) > 500ull << 20);
        EXPECT(mb_beff_data_bytes(3, mb_beff_pattern_cap(30)) < 4ull << 20);
        b->random = 30;
        b->repetitions = 3;
        memset(&err, 0, sizeof err);
        EXPECT(mb_beff_validate(&cfg, &prov, &err) == 0);
        mb_config_free(&cfg);
    }
    /* b_eff_io -i: at most MB_BIO_MAX_HINTS lines (each hint is a kilobyte on every process). */
    for (int lines = MB_BIO_MAX_HINTS; lines <= MB_BIO_MAX_HINTS + 1; lines++) {
        const char *path = write_file("");
        FILE *f = fopen(path, "w");
        struct mb_bio_config *b;
        for (int i = 0; i < lines; i++)
            fputs("all all all all striping_unit 1048576\n", f);
        fclose(f);
        mb_config_defaults(&cfg);
        mb_config_settings(&cfg, &mb_bio_settings);
        b = cfg.settings;
        b->info_path = mb_xstrdup(path);
        memset(&err, 0, sizeof err);
        if (lines == MB_BIO_MAX_HINTS) {
            EXPECT(mb_bio_hints_read(&cfg, &err) == 0);
            EXPECT(b->n_hints == MB_BIO_MAX_HINTS);
        } else {
            EXPECT(mb_bio_hints_read(&cfg, &err) == 2);
            EXPECT_STR_CONTAINS(err.msg, ":10001: more than 10000 hints (-i)");
        }
        mb_config_free(&cfg);
        unlink(path);
    }
    {
        /* A word-choice row (MB_OPT_WORD): the index of the word, the value shown by its
         * word, and one error that names the option and lists every word. */
        static const char *const words[] = {"first", "second", "third", NULL};
        const struct mb_option row = {.name = "-pick",
                                      .kind = MB_OPT_WORD,
                                      .offset = offsetof(struct mb_imb_config, cpu_rule),
                                      .words = words};
        const struct mb_option_set set = {&row, 1, 0};
        char shown[64];
        mb_config_defaults(&cfg);
        mb_config_settings(&cfg, &mb_imb_family_mpi1.settings);
        memset(&err, 0, sizeof err);
        EXPECT(mb_options_parse(&set, 1, NULL, 3, (char *[]){"x", "-pick", "third"}, 1, &cfg,
                                &err) == 0);
        EXPECT_EQ_LL(IMBC(cfg)->cpu_rule, 2);
        mb_option_value(&row, &cfg, shown, sizeof shown);
        EXPECT(strcmp(shown, "third") == 0);
        EXPECT(mb_options_parse(&set, 1, NULL, 3, (char *[]){"x", "-pick", "Third"}, 1, &cfg,
                                &err) == 2);
        EXPECT_STR_CONTAINS(err.msg,
                            "invalid value 'Third' for -pick: expected first, second or third");
        EXPECT_EQ_LL(IMBC(cfg)->cpu_rule, 2);
        mb_config_free(&cfg);
    }
    return unit_report("test_options");
}
