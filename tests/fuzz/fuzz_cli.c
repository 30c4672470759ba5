/* SPDX-License-Identifier: BSD-3-Clause */
/* Fuzz target: one command line, and one list file it may name, through the parsing and
 * validation rank 0 does before anything runs (core/options.c, the suites' option rows and
 * validate hooks, core/listfile.c, number parsing, Presta's letters, IMB's -map, -msglen,
 * -input, Presta -f and --sizes, b_eff_io -i). Any input must end in 0 or a usage error
 * (status 2), never in a crash, an overflow the sanitizers see, or a leak.
 *
 * Input: byte 0 picks the suite (modulo the suite count), byte 1 the job size (1..64), then
 * fields separated by NUL bytes: every field but the last is one argument, the last is the
 * content of the file "F" in the working directory (so an argument "F" names it). Built with
 * libFuzzer (-fsanitize=fuzzer) when the compiler has it, else driven by fuzz_driver.c. */
#include "core/config.h"
#include "core/suite.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_ARGS = 64 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void write_list_file(const char *text, size_t len)
{
    FILE *f = fopen("F", "w");

    if (!f)
        abort();
    fwrite(text, 1, len, f);
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text, *argv[MAX_ARGS + 2];
    int argc = 1;
    size_t start = 2;
    const struct mb_suite *suite;
    struct mb_option_set sets[MB_MAX_SETS];
    struct mb_provenance prov;
    struct mb_config cfg;
    struct mb_error err = {MB_ERR_NONE, ""};
    size_t nsets;

    if (size < 2)
        return 0;
    suite = mb_suite_at(data[0] % mb_suite_count());
    if (!suite->settings)
        return 0; /* the run suite has no options of its own to parse */
    /* A copy with a NUL after the end: every field is a C string. */
    text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    argv[0] = (char *)(suite->legacy ? suite->legacy : suite->name);
    for (size_t i = 2; i < size && argc <= MAX_ARGS; i++)
        if (text[i] == '\0') {
            argv[argc++] = text + start;
            start = i + 1;
        }
    argv[argc] = NULL;
    write_list_file(text + start, size - start);

    memset(&prov, 0, sizeof prov);
    prov.nprocs = 1 + data[1] % 64;
    prov.mem_per_proc = 1ULL << 30;
    mb_config_defaults(&cfg);
    cfg.suite = data[0] % (int)mb_suite_count(); /* as run.c sets it before validation */
    cfg.nprocs = prov.nprocs;
    cfg.prog = strdup(argv[0]);
    mb_config_settings(&cfg, suite->settings);
    nsets = mb_suite_option_sets(suite, sets);
    if (mb_options_parse(sets, nsets, suite->positional, argc, argv, 1, &cfg, &err) == 0 &&
        !cfg.common.help && !cfg.common.version)
        suite->validate(&cfg, &prov, &err);
    /* Every refusal carries a message. */
    if (err.kind != MB_ERR_NONE && err.msg[0] == '\0')
        abort();
    mb_config_free(&cfg);
    free(text);
    return 0;
}
