/* SPDX-License-Identifier: BSD-3-Clause */
/* Files the user names (core/userfile.h): one file never serves two purposes, whatever the
 * spelling (./x, d/../x, a hard link, a symbolic link); existing outputs are not emptied
 * before mb_userfile_truncate; only files the run created are removed, and only while they
 * are still the same file. */
#include "core/userfile.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static int has(const char *path, const char *text)
{
    char buf[256] = "";
    FILE *f = fopen(path, "r");
    size_t n;

    if (!f)
        return 0;
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strcmp(buf, text) == 0;
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* A write of path after reading input: refused with a message naming both uses. */
static void refused(const char *input, const char *path, const char *fragment)
{
    struct mb_files fs = {0, NULL};
    struct mb_error err = {MB_ERR_NONE, ""};
    FILE *in = mb_userfile_read(&fs, input, "the file of message lengths", &err);

    EXPECT(in != NULL);
    if (in)
        fclose(in);
    EXPECT(mb_userfile_write(&fs, path, "--json file ", "the --json file", &err) == NULL);
    EXPECT_STR_CONTAINS(err.msg, fragment);
    EXPECT(has(input, "0\n"));
    mb_files_free(&fs);
}

int main(void)
{
    char dir[] = "/tmp/mb-userfile-XXXXXX";
    struct mb_error err = {MB_ERR_NONE, ""};
    struct mb_files fs = {0, NULL};
    FILE *a, *b;

    EXPECT(mkdtemp(dir) != NULL);
    EXPECT(chdir(dir) == 0);
    EXPECT(mkdir("d", 0777) == 0);
    put("L", "0\n");
    EXPECT(link("L", "hard") == 0);
    EXPECT(symlink("L", "soft") == 0);

    /* The same file under other names. */
    refused("L", "L", "cannot write --json file 'L': it is also the file of message lengths 'L'");
    refused("L", "./L", "it is also the file of message lengths 'L'");
    refused("L", "d/../L", "it is also the file of message lengths 'L'");
    refused("L", "hard", "cannot write --json file 'hard': it is also the file");
    refused("L", "soft", "cannot write --json file 'soft': it is also the file");
    refused("soft", "L", "it is also the file of message lengths 'soft'");

    /* Two reads of one file are fine; two writes are not, also before the file exists. */
    a = mb_userfile_read(&fs, "L", "the file of message lengths", &err);
    b = mb_userfile_read(&fs, "./L", "the file of benchmark names", &err);
    EXPECT(a && b);
    fclose(a);
    fclose(b);
    EXPECT(mb_userfile_target(&fs, "d/p.sum", "the protocol file ", "the protocol file", &err) ==
           0);
    EXPECT(!exists("d/p.sum"));
    EXPECT(mb_userfile_write(&fs, "./d/p.sum", "--json file ", "the --json file", &err) == NULL);
    EXPECT_STR_CONTAINS(err.msg, "it is also the protocol file 'd/p.sum'");
    EXPECT(!exists("d/p.sum"));
    mb_files_free(&fs);

    /* An existing output keeps its content until mb_userfile_truncate; the files this run
     * created go on a refusal, the user's stay. */
    put("old.jsonl", "an earlier run\n");
    a = mb_userfile_write(&fs, "old.jsonl", "--json file ", "the --json file", &err);
    b = mb_userfile_write(&fs, "new.txt", "", "the text copy", &err);
    EXPECT(a && b);
    EXPECT(has("old.jsonl", "an earlier run\n"));
    EXPECT(exists("new.txt"));
    mb_files_remove_created(&fs);
    EXPECT(has("old.jsonl", "an earlier run\n"));
    EXPECT(!exists("new.txt"));
    EXPECT(mb_userfile_truncate(a, "old.jsonl", "--json file ", &err) == 0);
    EXPECT(has("old.jsonl", ""));
    fclose(a);
    fclose(b);
    mb_files_free(&fs);

    /* A created file replaced by another of the same name (the user's now) stays. (The run's
     * file is still open, as in run.c: its inode number cannot be reused meanwhile.) */
    a = mb_userfile_write(&fs, "made.txt", "", "the text copy", &err);
    EXPECT(a != NULL);
    EXPECT(unlink("made.txt") == 0);
    put("made.txt", "the user's\n");
    mb_files_remove_created(&fs);
    EXPECT(has("made.txt", "the user's\n"));
    fclose(a);
    mb_files_free(&fs);

    /* Only regular files. */
    err = (struct mb_error){MB_ERR_NONE, ""};
    EXPECT(mkfifo("fifo", 0666) == 0);
    EXPECT(mb_userfile_read(&fs, "fifo", "the file of message lengths", &err) == NULL);
    EXPECT_STR_CONTAINS(err.msg, "cannot read 'fifo': not a regular file (a FIFO)");
    err = (struct mb_error){MB_ERR_NONE, ""};
    EXPECT(mb_userfile_write(&fs, "d", "--json file ", "the --json file", &err) == NULL);
    EXPECT_STR_CONTAINS(err.msg, "cannot write --json file 'd': not a regular file (a directory)");
    err = (struct mb_error){MB_ERR_NONE, ""};
    EXPECT(mb_userfile_write(&fs, "/dev/null", "--json file ", "the --json file", &err) == NULL);
    EXPECT_STR_CONTAINS(err.msg, "not a regular file (a device)");
    EXPECT(fs.n == 0);

    {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "rm -rf -- '%s'", dir);
        EXPECT(chdir("/") == 0 && system(cmd) == 0);
    }
    return unit_report("test_userfile");
}
