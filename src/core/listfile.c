/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/listfile.h"
#include "core/userfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *s)
{
    char *end;

    while (isspace((unsigned char)*s))
        s++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

int mb_listfile_read(struct mb_files *files, const char *path, const char *what,
                     mb_list_entry_fn fn, void *user, struct mb_error *err)
{
    char role[96];
    FILE *f;
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    size_t entries = 0;
    int rc = 0;

    snprintf(role, sizeof role, "the file of %s", what);
    f = mb_userfile_read(files, path, role, err);
    if (!f)
        return 2;
    for (;;) {
        ssize_t n;
        char *entry;
        char *hash;

        errno = 0;
        n = getline(&line, &cap, f);
        if (n < 0)
            break;
        lineno++;
        if (n > MB_LISTFILE_MAX_LINE) {
            rc = mb_usage(err, "%s:%ld: a line of %zd bytes, more than the %d allowed", path,
                          lineno, n, MB_LISTFILE_MAX_LINE);
            break;
        }
        if (memchr(line, '\0', (size_t)n)) {
            rc = mb_usage(err, "%s:%ld: binary data where %s were expected", path, lineno, what);
            break;
        }
        hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        entry = trim(line);
        if (*entry == '\0')
            continue;
        rc = fn(user, entry, err);
        if (rc != 0) {
            /* Prefix the entry's own message with where it was found. */
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%.300s:%ld: %.700s", path, lineno, err->msg);
            snprintf(err->msg, sizeof err->msg, "%s", msg);
            break;
        }
        entries++;
    }
    if (rc == 0 && ferror(f))
        rc = mb_usage(err, "cannot read '%s': %s", path, strerror(errno ? errno : EIO));
    else if (rc == 0 && entries == 0)
        rc = mb_usage(err, "'%s' contains no %s", path, what);
    free(line);
    fclose(f);
    return rc;
}
