/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Info entries the user gives - IMB-EXT's and IMB-IO's --info KEY=VALUE, b_eff_io's -i
 * hint file and the hint files of core/scratch.h - are checked here, on rank 0 while the
 * command line is read, so that an entry the MPI library would refuse is a usage error
 * (status 2, naming the option or file and line) and never an MPI_Info_set that aborts the
 * job (MPI_ERR_INFO_KEY / MPI_ERR_INFO_VALUE, exit 31 or 33 with Open MPI). */
#ifndef MB_INFO_H
#define MB_INFO_H

#include <stddef.h>

/* The longest key and value accepted: one less than MPI_MAX_INFO_KEY and MPI_MAX_INFO_VAL.
 * Open MPI 4.1 counts the terminating NUL in both constants (36 and 256: MPI_Info_set refuses
 * a 36-character key and a 256-character value); MPICH 4 does not (255 and 1024 characters
 * pass). The one rule fits both: nothing accepted here is refused by either library. */
size_t mb_info_key_max(void);
size_t mb_info_value_max(void);

/* Whether the key (its first key_len bytes) and the NUL-terminated value may go to
 * MPI_Info_set: a key of 1 to mb_info_key_max() characters with no blank or control
 * character, a value of 1 to mb_info_value_max() characters, not blank only, with no control
 * character. Returns 0, or -1 with the reason in why ("the value is empty", "the key is longer
 * than 35 characters (MPI_MAX_INFO_KEY - 1)"); the caller names the entry and the option. */
int mb_info_check(const char *key, size_t key_len, const char *value, char *why, size_t len);

#endif
