/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/info.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

size_t mb_info_key_max(void)
{
    return MPI_MAX_INFO_KEY - 1;
}

size_t mb_info_value_max(void)
{
    return MPI_MAX_INFO_VAL - 1;
}

/* Control characters (a tab and a newline too) never belong in a key or a hint value: a
 * newline would split the "key=value\n" lines the entries travel in, and the others reach
 * the library's (and the header's) text raw. */
static int has_control(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] == 0x7f)
            return 1;
    return 0;
}

int mb_info_check(const char *key, size_t key_len, const char *value, char *why, size_t len)
{
    const size_t vlen = strlen(value);

    if (key_len == 0)
        snprintf(why, len, "the key is empty");
    else if (key_len > mb_info_key_max())
        snprintf(why, len, "the key is longer than %zu characters (MPI_MAX_INFO_KEY - 1)",
                 mb_info_key_max());
    else if (has_control(key, key_len))
        snprintf(why, len, "the key contains a control character");
    else if (memchr(key, ' ', key_len))
        snprintf(why, len, "the key contains a blank");
    else if (strspn(value, " ") == vlen)
        snprintf(why, len, "the value is %s", vlen ? "blank" : "empty");
    else if (vlen > mb_info_value_max())
        snprintf(why, len, "the value is longer than %zu characters (MPI_MAX_INFO_VAL - 1)",
                 mb_info_value_max());
    else if (has_control(value, vlen))
        snprintf(why, len, "the value contains a control character");
    else
        return 0;
    return -1;
}
