/* One option table drives parsing, --help and the "effective settings" block
 * (ARCHITECTURE property 5). Each suite contributes its own rows (IMB's -npmin style,
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
    MB_OPT_STRING, /* char *, duplicated */
    MB_OPT_CUSTOM  /* parsed by the row's parse function */
};

struct mb_option {
    const char *name;  /* as typed: "-npmin", "--json" */
    const char *alias; /* another accepted spelling, or NULL */
    enum mb_opt_kind kind;
    size_t offset; /* offsetof(struct mb_config, field) */
    double min, max;
    const char *metavar; /* "<NPmin>"; NULL for flags */
    const char *help;
    /* MB_OPT_CUSTOM: parse the value into cfg; return 0 or mb_usage(err, ...). */
    int (*parse)(struct mb_config *cfg, const char *value, struct mb_error *err);
    /* Optional: describe the effective value (custom rows, or rows whose zero means "default"). */
    void (*show)(const struct mb_config *cfg, char *buf, size_t len);
};

/* Handles an argument that is not an option (IMB: a benchmark name). */
typedef int (*mb_positional_fn)(struct mb_config *cfg, const char *arg, struct mb_error *err);

struct mb_option_set {
    const struct mb_option *rows;
    size_t n;
    /* Presta's single-letter grammar (presta.md §1.1): a two-character row "-o" also matches
     * "-o100" (value attached), and an unknown "-x..." is reported as "Invalid flag -x!". */
    int letters;
};

/* Parses argv[first..argc-1] against the sets (searched in order). Returns 0 or 2 (err set). */
int mb_options_parse(const struct mb_option_set *sets, size_t nsets, mb_positional_fn positional,
                     int argc, char **argv, int first, struct mb_config *cfg, struct mb_error *err);

/* Prints one line per option: name, metavar and help text. */
void mb_options_help(const struct mb_option_set *sets, size_t nsets, FILE *out);

/* Formats the effective value of an option ("on", "4194304", "(default)"). */
void mb_option_value(const struct mb_option *opt, const struct mb_config *cfg, char *buf,
                     size_t len);

/* Strict number parsing shared by the table and by custom parsers and list files:
 * the whole text must be a number (no trailing garbage), within [min, max]. Return 0 or -1
 * with a short reason ("not an integer", "out of range") in *why. */
int mb_parse_long(const char *text, long long min, long long max, long long *out, const char **why);
int mb_parse_double(const char *text, double min, double max, double *out, const char **why);

/* The program's basename, for messages. */
const char *mb_basename(const char *path);

#endif
