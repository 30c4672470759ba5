/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI initialisation a run asks for (thread_level.h). */
#include "core/thread_level.h"

#include "core/options.h"
#include "core/suite.h"

#include <mpi.h>
#include <string.h>

static const char *const words[] = {"single", "funneled", "serialized", "multiple"};

int mb_thread_level_parse(const char *word)
{
    for (int i = 0; i < (int)(sizeof words / sizeof words[0]); i++)
        if (strcmp(word, words[i]) == 0)
            return i;
    return -2;
}

const char *mb_thread_level_word(int level)
{
    return level >= 0 && level < (int)(sizeof words / sizeof words[0]) ? words[level] : "?";
}

int mb_thread_level_mpi(int level)
{
    switch (level) {
    case MB_THREAD_FUNNELED:
        return MPI_THREAD_FUNNELED;
    case MB_THREAD_SERIALIZED:
        return MPI_THREAD_SERIALIZED;
    case MB_THREAD_MULTIPLE:
        return MPI_THREAD_MULTIPLE;
    default:
        return MPI_THREAD_SINGLE;
    }
}

/* The value of a --thread-level / -thread_level word at argv[i], or NULL. */
static const char *option_value(int argc, char **argv, int i)
{
    static const char long_name[] = MB_THREAD_LEVEL_OPTION;
    const char *a = argv[i];

    if (strncmp(a, long_name, sizeof long_name - 1) == 0 && a[sizeof long_name - 1] == '=')
        return a + sizeof long_name;
    if ((strcmp(a, long_name) == 0 || strcmp(a, MB_THREAD_LEVEL_ALIAS) == 0) && i + 1 < argc)
        return argv[i + 1];
    return NULL;
}

int mb_thread_level_wanted(int argc, char **argv)
{
    int suite = argc > 0 ? mb_suite_find(mb_basename(argv[0]), 1) : -1;
    int first = 1, level;

    if (suite < 0 && argc > 1) {
        suite = mb_suite_find(argv[1], 0);
        first = 2;
    }
    level = suite >= 0
                ? mb_suite_thread_level(mb_suite_at((size_t)suite), argc - first, argv + first)
                : MB_THREAD_SINGLE;
    for (int i = 1; i < argc; i++) {
        const char *v = option_value(argc, argv, i);
        const int given = v ? mb_thread_level_parse(v) : -1;
        if (given >= 0)
            level = given;
    }
    return level;
}

int mb_thread_level_init(int level, int *argc, char ***argv)
{
    int provided;

    if (level <= MB_THREAD_SINGLE)
        return MPI_Init(argc, argv);
    return MPI_Init_thread(argc, argv, mb_thread_level_mpi(level), &provided);
}
