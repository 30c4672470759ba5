/* SPDX-License-Identifier: BSD-3-Clause */
/* One option table drives parsing, --help and the "effective settings" block
 * (docs/architecture.md, property 5). Each suite contributes its own rows (IMB's -npmin style,
 * Presta's single letters) and the common rows (--json, --check, ...) are added to every suite.
 *
 * Why not getopt_long_only: IMB's flags are single-dash words that must match exactly
 * (getopt would accept abbreviations such as "-np" for "-npmin", i.e. silently take typos),
 * and their values may start with '-' ("-off_cache -1"). The table below matches whole words
 * only and reports unknown or incomplete flags by name. */
#ifndef MB_OPTIONS_H
#define MB_OPTIONS_H

#include "core/config.h"
#include "core/error.h"

#include <stddef.h>
#include <stdio.h>

enum mb_opt_kind {
    MB_OPT_FLAG,   /* int set to 1, takes no value */
    MB_OPT_LONG,   /* long within [min, max] */
    MB_OPT_DOUBLE, /* finite double within [min, max] */
    MB_OPT_STRING, /* char *, duplicated; then the row's parse function, if any, reads it */
    MB_OPT_CUSTOM, /* parsed by the row's parse function */
    MB_OPT_WORD,   /* int: the index of the value in the row's words (program|guide, ...) */
    MB_OPT_LIST,   /* hidden row (no name): a heap array the settings block owns, resolved
                      during validation; count_offset names its size_t length */
    MB_OPT_REFUSED /* a newer program's option the suite refuses by name: help names the
                      release that introduced it ("Intel IMB 2019"); not in --help or the
                      effective settings */
};

/* The block a row's offset points into: the suite's own settings (struct mb_imb_config, ...)
 * or the settings every suite shares (struct mb_common_config). */
enum mb_opt_block { MB_IN_SUITE = 0, MB_IN_COMMON = 1 };

struct mb_option {
    const char *name;  /* as typed: "-npmin", "--json"; NULL for a hidden MB_OPT_LIST row */
    const char *alias; /* another accepted spelling, or NULL */
    enum mb_opt_kind kind;
    size_t offset; /* offsetof(<the block's struct>, field) */
    double min, max;
    const char *metavar; /* "<NPmin>"; NULL for flags */
    const char *help;
    /* MB_OPT_CUSTOM: parse the value into cfg; MB_OPT_STRING: read what the stored string
     * names (a file). Return 0 or mb_usage(err, ...). */
    int (*parse)(struct mb_config *cfg, const char *value, struct mb_error *err);
    /* Optional: describe the effective value (custom rows, or rows whose zero means "default"). */
    void (*show)(const struct mb_config *cfg, char *buf, size_t len);
    /* Optional: the default for --help where it is not the same in every suite that shares the
     * row (IMB-IO's -npmin is 1, IMB-MPI1's 2); --help prints " (default VALUE)" after help. */
    void (*help_default)(const struct mb_config *cfg, char *buf, size_t len);
    enum mb_opt_block block;
    /* MB_OPT_LIST: offsetof the size_t element count, and the element size. */
    size_t count_offset, elem_size;
    /* MB_OPT_WORD: the values, NULL-terminated; the first is index 0 (the zeroed default
     * unless the suite's defaults say otherwise). */
    const char *const *words;
    /* 1: a setting that differs from run to run of the same measurement - where the output and
     * scratch files go, the run's id, a seed taken from the clock, what is shown - so that
     * `mpibench compare` does not hold it against a group of runs (results/compare_group.c). */
    int per_run;
};

/* The base address of the block a row points into. */
void *mb_option_base(const struct mb_option *o, const struct mb_config *cfg);

/* Handles an argument that is not an option (IMB: a benchmark name). */
typedef int (*mb_positional_fn)(struct mb_config *cfg, const char *arg, struct mb_error *err);

struct mb_option_set {
    const struct mb_option *rows;
    size_t n;
    /* Presta's single-letter grammar (Presta 1.2 source, util.c): a two-character row "-o" also
     * matches "-o100" (value attached), and an unknown "-x..." is reported as
     * "Invalid flag -x!". */
    int letters;
};

/* A suite's own settings block: its size, its defaults, and the option sets that describe it
 * - the rows the suite parses plus hidden MB_OPT_LIST rows for the arrays its validation
 * resolves. The parser, --help, the effective-settings block, mb_config_free and
 * mb_config_bcast all walk these sets, so a new setting is parsed, shown, freed and broadcast
 * by adding its row, and by nothing else. */
enum { MB_MAX_SETS = 7 };
struct mb_settings_type {
    size_t size;
    /* NULL: all zero; owner is the row below. */
    void (*defaults)(void *block, const void *owner);
    const struct mb_option_set *sets[MB_MAX_SETS - 1]; /* NULL-terminated; common rows added */
    /* The row this type belongs to where several suites share one settings struct and one
     * defaults function (an IMB family: imb/imb_bench.h); NULL otherwise. */
    const void *owner;
};

/* The row an argument names ("-npmin", "--json=FILE"), or NULL; *value_follows says whether
 * the next argument is its value. For reading a command line before it is parsed. */
const struct mb_option *mb_option_find(const struct mb_option_set *sets, size_t nsets,
                                       const char *arg, int *value_follows);

/* Parses argv[first..argc-1] against the sets (searched in order). Returns 0 or 2 (err set). */
int mb_options_parse(const struct mb_option_set *sets, size_t nsets, mb_positional_fn positional,
                     int argc, char **argv, int first, struct mb_config *cfg, struct mb_error *err);

/* Prints one line per option: name, metavar and help text, and the default of rows that have
 * help_default, taken from cfg (the suite's defaults). */
void mb_options_help(const struct mb_option_set *sets, size_t nsets, const struct mb_config *cfg,
                     FILE *out);

/* Formats the effective value of an option ("on", "4194304", "(default)"). */
void mb_option_value(const struct mb_option *opt, const struct mb_config *cfg, char *buf,
                     size_t len);

/* The one number parser of every suite and tool (docs/adr/strict-numbers.md), used by the
 * table, by custom parsers (-iter, -map, -N, allred's positionals, compare --threshold) and
 * by list files: the whole text must be a decimal number - an optional sign and digits; for
 * doubles also a decimal point and a decimal exponent (1e-3) - with no blank, no hexadecimal,
 * no inf or nan and nothing after it, within [min, max]. Return 0 or -1 with the reason in
 * *why, worded the same everywhere: "empty value", "not an integer", "not a number", "out of
 * range", "must be positive", "must not be negative". */
int mb_parse_long(const char *text, long long min, long long max, long long *out, const char **why);
int mb_parse_double(const char *text, double min, double max, double *out, const char **why);

/* The program's basename, for messages. */
const char *mb_basename(const char *path);

/* A protocol-file prefix (-f of b_eff and b_eff_io): NULL becomes "name", or "DIR/name" with
 * --output-dir DIR (which the run creates, so it is not checked). A given prefix must name a
 * file (no trailing '/') in an existing, writable directory, and not name a directory, FIFO or
 * device itself. Rank 0; 0 or mb_usage(err, ...). */
int mb_prefix_resolve(char **prefix, const char *name, const char *output_dir,
                      struct mb_error *err);

#endif
