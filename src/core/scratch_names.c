/* SPDX-License-Identifier: BSD-3-Clause */
/* Scratch file names (core/scratch.h): a directory and a printf-formatted name joined into a
 * path that must fit, never truncated; the scratch-directory check of the I/O suites' options;
 * IMB-IO's naming scheme. */
#include "core/scratch.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int mb_scratch_pathf(char *out, size_t cap, struct mb_error *err, const char *dir, const char *fmt,
                     ...)
{
    size_t limit = cap < MB_SCRATCH_PATH_MAX ? cap : MB_SCRATCH_PATH_MAX;
    size_t off = 0, dlen = dir ? strlen(dir) : 0;
    char name[MB_SCRATCH_PATH_MAX];
    va_list ap;
    int n;

    if (cap > 0)
        out[0] = '\0';
    va_start(ap, fmt);
    n = vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    if (n < 0)
        return mb_error_set(err, MB_ERR_RUNTIME, "cannot format a scratch file name");
    if (n == 0)
        return mb_error_set(err, MB_ERR_USAGE, "empty scratch file name");
    off = dlen + (dlen > 0 && dir[dlen - 1] != '/');
    if (off + (size_t)n + 1 > limit)
        return mb_error_set(
            err, MB_ERR_USAGE,
            "scratch file path '%.*s%s%.60s...' is %zu characters long; at most %zu "
            "fit",
            (int)(dlen < 60 ? dlen : 60), dlen ? dir : "", off > dlen ? "/" : "", name,
            off + (size_t)n, limit > 0 ? limit - 1 : 0);
    memcpy(out, dir ? dir : "", dlen);
    if (off > dlen)
        out[dlen] = '/';
    memcpy(out + off, name, (size_t)n + 1);
    return 0;
}

int mb_scratch_join(char *out, size_t cap, const char *dir, const char *name, struct mb_error *err)
{
    return mb_scratch_pathf(out, cap, err, dir, "%s", name);
}

int mb_scratch_dir_check(const char *dir, const char *option, struct mb_error *err)
{
    struct stat st;

    if (stat(dir, &st) != 0)
        return mb_error_set(err, MB_ERR_USAGE, "invalid value '%s' for %s: %s", dir, option,
                            strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return mb_error_set(err, MB_ERR_USAGE, "invalid value '%s' for %s: not a directory", dir,
                            option);
    if (access(dir, W_OK | X_OK) != 0)
        return mb_error_set(err, MB_ERR_USAGE,
                            "invalid value '%s' for %s: cannot create files there (%s)", dir,
                            option, strerror(errno));
    return 0;
}

int mb_scratch_path(char *out, size_t cap, const char *dir, const char *base, int group, int rank,
                    struct mb_error *err)
{
    char g[16] = "", r[16] = "";

    if (group >= 0)
        snprintf(g, sizeof g, "_g%d", group);
    if (rank >= 0)
        snprintf(r, sizeof r, "_%d", rank);
    return mb_scratch_pathf(out, cap, err, dir, "%s%s%s", base, g, r);
}
