/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/run_id.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int allowed(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           strchr("._:+-", c) != NULL;
}

void mb_run_id_make(char *buf, size_t len)
{
    char host[64] = "host", stamp[32];
    const time_t now = time(NULL);
    struct tm tm;

    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "host");
    host[sizeof host - 1] = '\0';
    /* A host name is letters, digits, '-' and '.' (RFC 1123); anything else becomes '-'. */
    for (char *p = host; *p; p++)
        if (!allowed(*p))
            *p = '-';
    gmtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
    snprintf(buf, len, "%s-%.40s-%ld", stamp, host, (long)getpid());
}

int mb_run_id_check(struct mb_config *cfg, const char *value, struct mb_error *err)
{
    (void)cfg;
    if (strlen(value) > MB_RUN_ID_MAX)
        return mb_usage(err, "invalid value for --run-id: longer than %d characters",
                        MB_RUN_ID_MAX);
    for (const char *p = value; *p; p++)
        if (!allowed(*p))
            return mb_usage(err,
                            "invalid value '%s' for --run-id: only letters, digits and . _ : + - "
                            "are allowed",
                            value);
    return 0;
}
