/* SPDX-License-Identifier: BSD-3-Clause */
/* The writers: JSON (escaping, numbers, nulls; one record per line) and the text printer
 * (control characters shown as \xNN; long lines whole). */
#include "core/report_json.h"
#include "core/report_text.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>

int main(void)
{
    struct mb_jobj o;
    char *text;
    char buf[512];
    FILE *f = tmpfile();

    mb_jobj_begin(&o, "result", NULL);
    mb_jobj_str(&o, "s", "a\"b\\c\nd\te\x01");
    mb_jobj_int(&o, "i", -42);
    mb_jobj_num(&o, "x", 0.1);
    mb_jobj_num(&o, "nan", NAN);
    mb_jobj_num(&o, "inf", INFINITY);
    mb_jobj_bool(&o, "t", 1);
    mb_jobj_null(&o, "n");
    mb_jobj_str(&o, "none", NULL);
    {
        const int v[] = {0, 2, 4};
        mb_jarray_ints(&o, "a", v, 3);
    }
    text = mb_jobj_take(&o);
    EXPECT(strcmp(text,
                  "{\"type\":\"result\",\"s\":\"a\\\"b\\\\c\\u000ad\\u0009e\\u0001\",\"i\":-42,"
                  "\"x\":0.10000000000000001,\"nan\":null,\"inf\":null,\"t\":true,\"n\":null,"
                  "\"none\":null,\"a\":[0,2,4]}") == 0);
    free(text);

    /* Well-formed UTF-8 is kept; bytes that are not (a lone 0xff, a cut sequence, an overlong
     * '/', a surrogate) become the character of their value, so the line stays UTF-8. */
    mb_jobj_begin(&o, "header", NULL);
    mb_jobj_str(&o, "s",
                "bad\xff.jsonl \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 \xe2\x82 \xc0\xaf "
                "\xed\xa0\x80\xc3");
    text = mb_jobj_take(&o);
    EXPECT(strcmp(text, "{\"type\":\"header\",\"s\":\"bad\\u00ff.jsonl \xc3\xa9\xe2\x82\xac"
                        "\xf0\x9f\x98\x80 \\u00e2\\u0082 \\u00c0\\u00af \\u00ed\\u00a0\\u0080"
                        "\\u00c3\"}") == 0);
    free(text);

    /* A record written to a results file names, after its type, the schema version, the run
     * and the suite (docs/output.md, "Every record"). */
    {
        const struct mb_sink sink = {f, "the test file", "20261125T202357Z-h-1", "IMB-MPI1"};
        mb_jobj_begin(&o, "summary", &sink);
        mb_jobj_int(&o, "rows", 3);
        mb_jobj_write(&o, &sink);
    }
    rewind(f);
    EXPECT(fgets(buf, sizeof buf, f) != NULL);
    EXPECT(strcmp(buf, "{\"type\":\"summary\",\"schema_version\":2,\"run_id\":"
                       "\"20261125T202357Z-h-1\",\"suite\":\"IMB-MPI1\",\"rows\":3}\n") == 0);
    fclose(f);

    /* Text: a user's control characters never reach the terminal; newline and tab stay; a
     * line longer than the printer's buffer is written whole, escapes included. */
    {
        char line[3000], got[4000];
        FILE *t = tmpfile();
        const struct mb_out out = {{t, NULL}, 1, {"the text file", NULL}};
        memset(line, 'x', sizeof line - 1);
        line[sizeof line - 1] = '\0';
        line[2000] = '\x1b';
        mb_printf(&out, "# --json : a\x01"
                        "b\x7f"
                        ".jsonl\tend\n");
        mb_printf(&out, "%s\n", line);
        rewind(t);
        EXPECT(fgets(got, sizeof got, t) != NULL);
        EXPECT(strcmp(got, "# --json : a\\x01b\\x7f.jsonl\tend\n") == 0);
        EXPECT(fgets(got, sizeof got, t) != NULL);
        EXPECT(strlen(got) == sizeof line - 1 + 3 + 1 && strncmp(got + 2000, "\\x1bx", 5) == 0);
        fclose(t);
    }
    return unit_report("test_json");
}
