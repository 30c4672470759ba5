/* SPDX-License-Identifier: BSD-3-Clause */
/* A seeded random-input driver for fuzz_cli.c where libFuzzer is not available (gcc): the
 * seeds are the rows of tests/cli/bad_input.tsv (program, arguments, first file's content),
 * each mutated many times - bytes flipped, inserted or removed, arguments swapped with
 * others or with edge values (huge, negative, empty, NaN, long) - and fed to the target.
 *
 * Usage: fuzz_driver TABLE SEED ITERATIONS
 *    or: fuzz_driver TABLE --corpus DIR    (writes the seeds as files: libFuzzer's corpus)
 * Prints the number of inputs run; a crash is the failure (the sanitizer or abort says why).
 * The inputs depend on the seed only: running the same seed with fewer iterations replays. */
#include "core/suite.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_SEEDS = 1024, MAX_INPUT = 8192 };

struct input {
    size_t len;
    uint8_t b[MAX_INPUT];
};

struct rng {
    uint64_t s;
};

static uint64_t next(struct rng *r)
{
    /* xorshift64*: reproducible from the seed on every platform. */
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 2685821657736338717ULL;
}

static size_t below(struct rng *r, size_t n)
{
    return n ? (size_t)(next(r) % n) : 0;
}

static const char *const edges[] = {
    "",      "0",     "-1",  "1",       "2147483647", "2147483648", "-2147483649",
    "1e400", "nan",   "inf", "0x10",    "+5",         " 7",         "9999999999999999999999",
    "F",     "-",     "--",  "-msglen", "-input",     "-f",         "--sizes",
    "-i",    "-map",  "-t",  "-o",      "-iter",      "--json",     "--timeout",
    "4x8",   "1,2,3", ",",   "all",     "PingPong",   "Multi-",     "-npmin",
    "-mem",  "-T",    "-MB", "-p",      "c",          "-off_cache", "-time",
};
enum { N_EDGES = sizeof edges / sizeof edges[0] };

/* Appends s and a NUL. */
static void put_field(struct input *in, const char *s, size_t len)
{
    if (in->len + len + 1 > MAX_INPUT)
        return;
    memcpy(in->b + in->len, s, len);
    in->len += len;
    in->b[in->len++] = '\0';
}

static size_t suite_of(const char *prog)
{
    for (size_t i = 0; i < mb_suite_count(); i++) {
        const struct mb_suite *s = mb_suite_at(i);
        if ((s->legacy && strcmp(s->legacy, prog) == 0) || strcmp(s->name, prog) == 0)
            return i;
    }
    return 1;
}

/* One table row as an input: suite, size 3, the blank-separated arguments, the file text. */
static void seed_from_row(char *line, struct input *in)
{
    char *f[6] = {NULL};
    int n = 0;
    char *p = line, *tab;
    char file[MAX_INPUT / 2];
    size_t flen = 0;

    while (n < 6 && (tab = strchr(p, '\t')) != NULL) {
        *tab = '\0';
        f[n++] = p;
        p = tab + 1;
    }
    f[n++] = p;
    in->len = 0;
    in->b[in->len++] = (uint8_t)suite_of(f[1] ? f[1] : "");
    in->b[in->len++] = 3;
    for (char *a = strtok(f[2] ? f[2] : (char *)"", " "); a; a = strtok(NULL, " "))
        put_field(in, a, strlen(a));
    /* The first file's content after '=', "\n" as newline. */
    if (f[3] && (p = strchr(f[3], '=')) != NULL)
        for (p++; *p && *p != ';' && flen < sizeof file; p++) {
            if (p[0] == '\\' && p[1] == 'n') {
                file[flen++] = '\n';
                p++;
            } else
                file[flen++] = *p;
        }
    if (in->len + flen <= MAX_INPUT) {
        memcpy(in->b + in->len, file, flen);
        in->len += flen;
    }
}

static void mutate(struct rng *r, struct input *in)
{
    const int rounds = 1 + (int)below(r, 4);

    for (int k = 0; k < rounds; k++) {
        const size_t at = 2 + below(r, in->len > 2 ? in->len - 2 : 1);
        switch (below(r, 5)) {
        case 0: /* flip a byte */
            if (at < in->len)
                in->b[at] = (uint8_t)next(r);
            break;
        case 1: /* remove a byte */
            if (at < in->len) {
                memmove(in->b + at, in->b + at + 1, in->len - at - 1);
                in->len--;
            }
            break;
        case 2: /* insert an edge value as an argument */
        case 3: {
            const char *e = edges[below(r, N_EDGES)];
            const size_t len = strlen(e) + 1;
            if (in->len + len <= MAX_INPUT && at <= in->len) {
                memmove(in->b + at + len, in->b + at, in->len - at);
                memcpy(in->b + at, e, len);
                in->len += len;
            }
            break;
        }
        default: /* another suite or job size */
            in->b[below(r, 2)] = (uint8_t)next(r);
        }
    }
}

static int write_corpus(const char *dir, const struct input *seeds, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        FILE *f;
        snprintf(path, sizeof path, "%s/seed-%03zu", dir, i);
        if (!(f = fopen(path, "wb")) || fwrite(seeds[i].b, 1, seeds[i].len, f) != seeds[i].len ||
            fclose(f) != 0) {
            perror(path);
            return 1;
        }
    }
    printf("fuzz_driver: %zu seeds written to %s\n", n, dir);
    return 0;
}

int main(int argc, char **argv)
{
    static struct input seeds[MAX_SEEDS], in;
    size_t nseeds = 0;
    char line[MAX_INPUT];
    struct rng r;
    long iterations;
    FILE *t;

    if (argc != 4 || !(t = fopen(argv[1], "r"))) {
        fprintf(stderr, "usage: fuzz_driver TABLE SEED ITERATIONS | TABLE --corpus DIR\n");
        return 2;
    }
    while (nseeds < MAX_SEEDS && fgets(line, sizeof line, t))
        if (line[0] >= 'a' && line[0] <= 'z') {
            line[strcspn(line, "\n")] = '\0';
            seed_from_row(line, &seeds[nseeds++]);
        }
    fclose(t);
    if (strcmp(argv[2], "--corpus") == 0)
        return write_corpus(argv[3], seeds, nseeds);
    r.s = strtoull(argv[2], NULL, 10) | 1;
    iterations = strtol(argv[3], NULL, 10);
    for (long i = 0; i < iterations; i++) {
        in = seeds[below(&r, nseeds)];
        if (i >= (long)nseeds)
            mutate(&r, &in);
        LLVMFuzzerTestOneInput(in.b, in.len);
    }
    printf("fuzz_driver: %ld inputs from %zu seeds, no crash\n", iterations, nseeds);
    return 0;
}
