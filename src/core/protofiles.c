/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/protofiles.h"
#include "core/sink.h"
#include "core/userfile.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The length of the last component of path. */
static size_t name_length(const char *path)
{
    const char *slash = strrchr(path, '/');
    return strlen(slash ? slash + 1 : path);
}

/* The name file k keeps when the run is cut short: the first free name of NAME.interrupted,
 * NAME.interrupted.2, ... (an earlier run's salvaged protocol is the user's file now). */
static int cut_name(const struct mb_protofiles *p, int k, char *to, size_t cap,
                    struct mb_error *err)
{
    struct stat st;
    int rc = mb_scratch_pathf(to, cap, err, NULL, "%s.interrupted", p->final[k]);

    for (int n = 2; rc == 0 && lstat(to, &st) == 0; n++)
        rc = n > 1000 ? mb_usage(err,
                                 "cannot keep an interrupted protocol: '%s.interrupted' "
                                 "and 999 numbered names after it exist",
                                 p->final[k])
                      : mb_scratch_pathf(to, cap, err, NULL, "%s.interrupted.%d", p->final[k], n);
    if (rc == 0 && name_length(to) > NAME_MAX)
        rc = mb_usage(err, "cannot keep an interrupted protocol as '%s': its name is too long", to);
    return rc;
}

/* Registers file k to be kept under its cut name, with the note saying why. */
static int keep_as_cut(struct mb_protofiles *p, int k, const char *prog, const char *why,
                       struct mb_error *err)
{
    char to[MB_SCRATCH_PATH_MAX], note[MB_SCRATCH_PATH_MAX + 256];
    const int rc = cut_name(p, k, to, sizeof to, err);

    if (rc != 0)
        return rc;
    snprintf(note, sizeof note, "%s: %s; the protocol so far is in '%s' ('%s' untouched)\n", prog,
             why, to, p->final[k]);
    return mb_scratch_salvage(p->temp[k], to, note, err);
}

int mb_protofiles_salvage(struct mb_protofiles *p, int k, const char *prog, struct mb_error *err)
{
    return keep_as_cut(p, k, prog, "interrupted", err);
}

void mb_protofiles_cut(struct mb_protofiles *p, int k, const char *prog, const char *why)
{
    struct mb_error err = {MB_ERR_NONE, ""};

    /* What the file holds so far reaches the disk before it is moved; a file that cannot be
     * kept (no free name, a write error) is removed with the others below. */
    if (p->f[k]) {
        const int bad = fclose(p->f[k]) != 0;
        p->f[k] = NULL;
        if (!bad && keep_as_cut(p, k, prog, why, &err) == 0)
            mb_scratch_salvage_now();
    }
    mb_protofiles_discard(p);
}

void mb_protofiles_discard(struct mb_protofiles *p)
{
    mb_scratch_salvage_clear();
    for (int k = 0; k < p->n; k++) {
        if (p->f[k])
            fclose(p->f[k]);
        mb_scratch_remove(p->temp[k]);
    }
    p->n = 0;
}

/* The temporary name of file k with suffix number s: PREFIX.EXT.tmp<pid>, and from s = 2 on
 * PREFIX.EXT.tmp<pid>.<s>. */
static int temp_name(struct mb_protofiles *p, int k, const char *prefix, const char *ext, int s,
                     struct mb_error *err)
{
    return s < 2 ? mb_scratch_pathf(p->temp[k], sizeof p->temp[k], err, NULL, "%s.%s.tmp%ld",
                                    prefix, ext, (long)getpid())
                 : mb_scratch_pathf(p->temp[k], sizeof p->temp[k], err, NULL, "%s.%s.tmp%ld.%d",
                                    prefix, ext, (long)getpid(), s);
}

/* The first suffix number under which none of the n temporary names exists. A run killed
 * outright (SIGKILL to every process, or a SimGrid simulation, where getpid() is the simulated
 * process's and the same in every run) leaves its temporary files behind, and a later process
 * can get the same pid: such a file is never touched (it may hold the only copy of what that
 * run wrote; mpibench cannot tell it from a user's file), and it does not stop the run
 * either. 0 when 1000 numbers are taken. */
static int free_suffix(struct mb_protofiles *p, const char *prefix, const char *const *ext, int n)
{
    struct mb_error ignored = {MB_ERR_NONE, ""};
    struct stat st;

    for (int s = 1; s <= 1000; s++) {
        int taken = 0;
        for (int k = 0; k < n && !taken; k++)
            taken =
                temp_name(p, k, prefix, ext[k], s, &ignored) == 0 && lstat(p->temp[k], &st) == 0;
        if (!taken)
            return s;
    }
    return 0;
}

int mb_protofiles_open(struct mb_protofiles *p, struct mb_files *files, const char *prefix,
                       const char *const *ext, int n, struct mb_error *err)
{
    int suffix;

    memset(p, 0, sizeof *p);
    n = n < MB_PROTO_MAX ? n : MB_PROTO_MAX;
    suffix = free_suffix(p, prefix, ext, n);
    for (int k = 0; k < n; k++) {
        int rc =
            mb_scratch_pathf(p->final[k], sizeof p->final[k], err, NULL, "%s.%s", prefix, ext[k]);
        if (rc == 0)
            rc = mb_userfile_target(files, p->final[k], "the protocol file ", "the protocol file",
                                    err);
        if (rc == 0 && suffix == 0)
            rc = mb_usage(err,
                          "cannot write the protocol file '%s': its temporary names '%s.%s.tmp%ld' "
                          "and 999 numbered ones after it exist (left by killed runs: remove them)",
                          p->final[k], prefix, ext[k], (long)getpid());
        if (rc == 0)
            rc = temp_name(p, k, prefix, ext[k], suffix, err);
        if (rc == 0 && name_length(p->temp[k]) > NAME_MAX)
            rc = mb_usage(err,
                          "cannot write the protocol file '%s': its name is too long (the "
                          "temporary '%s' must fit in %d bytes)",
                          p->final[k], p->temp[k], NAME_MAX);
        if (rc == 0)
            rc = mb_scratch_create(p->temp[k], MB_SCRATCH_TEMPORARY, err);
        if (rc != 0) {
            mb_protofiles_discard(p);
            return rc;
        }
        p->n = k + 1;
        snprintf(p->label[k], sizeof p->label[k], "the protocol file '%s'", p->final[k]);
        p->f[k] = fopen(p->temp[k], "w");
        if (!p->f[k]) {
            rc = mb_usage(err, "cannot write the protocol file '%s': %s", p->temp[k],
                          strerror(errno));
            mb_protofiles_discard(p);
            return rc;
        }
    }
    return 0;
}

void mb_protofiles_commit(struct mb_protofiles *p)
{
    mb_scratch_salvage_clear();
    for (int k = 0; k < p->n; k++) {
        mb_sink_close(p->f[k], p->label[k]);
        p->f[k] = NULL;
        if (rename(p->temp[k], p->final[k]) != 0)
            mb_die("cannot rename '%s' to '%s': %s", p->temp[k], p->final[k], strerror(errno));
        mb_scratch_forget(p->temp[k]);
    }
    p->n = 0;
}
