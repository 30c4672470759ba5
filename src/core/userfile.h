/* Files the user names: inputs (-msglen, -input, Presta -f and --sizes, -i hint files) and
 * outputs (--json, the files of --output-dir, protocol files). Only regular files are read
 * or written: opening a FIFO blocks until a peer opens its other end - on rank 0, before the
 * watchdog runs, so the whole job hangs - a device can be endless (/dev/zero) or, as root,
 * be removed by an error path (/dev/null). Only rank 0 calls these. */
#ifndef MB_USERFILE_H
#define MB_USERFILE_H

#include "core/error.h"

#include <stdio.h>

/* The largest input file read (the longest real list is a few kB). */
#define MB_USERFILE_MAX_BYTES (16L * 1024 * 1024)

/* Opens path for reading; what, "" or ending in a blank ("--json file "), goes before the
 * quoted path in messages. NULL with err set
 * (status 2) when it is missing, unreadable, not a regular file, or larger than
 * MB_USERFILE_MAX_BYTES. */
FILE *mb_userfile_read(const char *path, const char *what, struct mb_error *err);

/* 0 when path does not exist or is a regular file; else 2 with err set: for files written
 * elsewhere and renamed onto path at the end (a rename would replace a FIFO or device). */
int mb_userfile_target(const char *path, const char *what, struct mb_error *err);

/* Creates or truncates path for writing. NULL with err set (status 2) when it cannot be
 * written or exists as anything but a regular file (checked again after the open, which
 * never blocks). */
FILE *mb_userfile_write(const char *path, const char *what, struct mb_error *err);

#endif
