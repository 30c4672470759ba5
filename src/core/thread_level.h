/* SPDX-License-Identifier: BSD-3-Clause */
/* How MPI is initialised: plain MPI_Init or MPI_Init_thread with a level, chosen per suite
 * before MPI_Init from the command line (docs/adr/imb-thread-level.md).
 *
 * The level a library is asked for changes what it measures: Open MPI 4.1 takes a lock on
 * every message once MPI_THREAD_MULTIPLE is asked for, which makes a small-message PingPong
 * about a quarter slower. The IMB 3.x programs ask for MPI_THREAD_MULTIPLE (IMB 3.1 IMB.c,
 * line 132; the IMB 3.1 guide's list of changes in 3.0 names the call); b_eff 3.6, b_eff_io
 * 2.1 and Presta 1.2 call MPI_Init. Each suite's row says what its original asks for, and
 * --thread-level (IMB 2019's -thread_level) chooses another. */
#ifndef MB_THREAD_LEVEL_H
#define MB_THREAD_LEVEL_H

/* In the order of the MPI levels; MB_THREAD_SINGLE means plain MPI_Init, as IMB 2019's
 * "-thread_level single" does. */
/* The option's spellings: mpibench's and IMB 2019's. */
#define MB_THREAD_LEVEL_OPTION "--thread-level"
#define MB_THREAD_LEVEL_ALIAS  "-thread_level"

enum mb_thread_level {
    MB_THREAD_SINGLE = 0,
    MB_THREAD_FUNNELED,
    MB_THREAD_SERIALIZED,
    MB_THREAD_MULTIPLE,
    MB_THREAD_DEFAULT = -1 /* --thread-level not given: the suite's row decides */
};

/* "single", "funneled", "serialized", "multiple" -> the level, anything else -> -2. */
int mb_thread_level_parse(const char *word);
const char *mb_thread_level_word(int level);
int mb_thread_level_mpi(int level); /* MPI_THREAD_SINGLE, ... */

/* Before MPI_Init, from the words alone: the level the run asks for - the suite's (argv[0]'s
 * original name, or `mpibench SUITE`) unless --thread-level / -thread_level names a valid
 * one. An invalid value falls back to the suite's level here; the option parser reports it
 * after MPI_Init as every bad argument is reported. */
int mb_thread_level_wanted(int argc, char **argv);

/* MPI_Init, or MPI_Init_thread when the level asks for more than MPI_THREAD_SINGLE. */
int mb_thread_level_init(int level, int *argc, char ***argv);

#endif
