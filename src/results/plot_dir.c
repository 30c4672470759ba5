/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/plot_dir.h"

#include "core/userfile.h"
#include "results/plot.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char refuse_existing[] =
    "it exists; mpibench plot writes into a new directory, so that no file is overwritten: "
    "name a new one, or add --force to replace the files of an earlier plot in it (nothing "
    "else in it is touched)";

/* What mb_plot_files names is looked at (remove == 0) or removed (remove == 1) in dir. */
struct own {
    const char *dir;
    int remove;
    struct mb_error *err;
};

static void own_file(const char *file, void *arg)
{
    struct own *o = arg;
    char *path;
    struct stat st;

    if (o->err->kind != MB_ERR_NONE)
        return;
    path = mb_xmalloc(strlen(o->dir) + strlen(file) + 2);
    sprintf(path, "%s/%s", o->dir, file);
    /* lstat: a symbolic link is refused, never followed - gnuplot and the writers would
     * write through it into a file elsewhere. */
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT)
            mb_usage(o->err, "cannot use -o '%s': '%s': %s", o->dir, path, strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        mb_usage(o->err,
                 "cannot use -o '%s' with --force: '%s' is %s; --force replaces only regular "
                 "files of the names mpibench plot writes",
                 o->dir, path, mb_file_kind(st.st_mode));
    } else if (o->remove && unlink(path) != 0 && errno != ENOENT) {
        mb_usage(o->err, "cannot use -o '%s' with --force: cannot replace '%s': %s", o->dir, path,
                 strerror(errno));
    }
    free(path);
}

int mb_plot_dir_check(const char *dir, int force, struct mb_error *err)
{
    struct stat st;
    char *copy;
    int rc = 0;

    if (lstat(dir, &st) == 0) {
        if (stat(dir, &st) != 0)
            return mb_usage(err, "cannot use -o '%s': %s", dir, strerror(errno));
        if (!S_ISDIR(st.st_mode))
            return mb_usage(err, "cannot use -o '%s': not a directory (%s)", dir,
                            mb_file_kind(st.st_mode));
        if (!force)
            return mb_usage(err, "cannot use -o '%s': %s", dir, refuse_existing);
        mb_plot_files(own_file, &(struct own){dir, 0, err});
        return mb_error_status(err->kind);
    }
    if (errno != ENOENT)
        return mb_usage(err, "cannot use -o '%s': %s", dir, strerror(errno));
    /* A new directory: its parent must be one (mkdir would say so only after the inputs were
     * read, which may take a while). */
    copy = mb_xstrdup(dir);
    {
        const char *parent = dirname(copy);
        if (stat(parent, &st) != 0)
            rc = mb_usage(err, "cannot create -o '%s': '%s': %s", dir, parent, strerror(errno));
        else if (!S_ISDIR(st.st_mode))
            rc = mb_usage(err, "cannot create -o '%s': '%s' is not a directory (%s)", dir, parent,
                          mb_file_kind(st.st_mode));
    }
    free(copy);
    return rc;
}

int mb_plot_dir_prepare(const char *dir, int force, struct mb_error *err)
{
    int rc;

    if (mkdir(dir, 0777) == 0)
        return 0;
    if (errno != EEXIST)
        return mb_usage(err, "cannot create -o '%s': %s", dir, strerror(errno));
    /* It exists (made since mb_plot_dir_check, or --force). */
    rc = mb_plot_dir_check(dir, force, err);
    if (rc != 0)
        return rc;
    if (!force) /* gone again in the meantime: refuse rather than race */
        return mb_usage(err, "cannot create -o '%s': it appeared and vanished meanwhile", dir);
    mb_plot_files(own_file, &(struct own){dir, 1, err});
    return mb_error_status(err->kind);
}
