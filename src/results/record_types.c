/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/record_types.h"

#include "results/records.h"

#include <string.h>

/* Short spellings of the table's conditions and text parts (each builds one initializer; kept
 * one per line, as a table). */
/* clang-format off */
#define IS(f, v)           {.field = (f), .test = MB_RT_IS, .value = (v)}
#define IS_NOT(f, v)       {.field = (f), .test = MB_RT_IS_NOT, .value = (v)}
#define OTHER_THAN(f, v)   {.field = (f), .test = MB_RT_OTHER_THAN, .value = (v)}
#define ONE_OF(f, v)       {.field = (f), .test = MB_RT_ONE_OF, .value = (v)}
#define HAS(f)             {.field = (f), .test = MB_RT_HAS}
#define NUMBER(f)          {.field = (f), .test = MB_RT_NUMBER}
#define NOT_INT(f)         {.field = (f), .test = MB_RT_NOT_INT}
#define NOT_TRUE(f)        {.field = (f), .test = MB_RT_NOT_TRUE}
#define INT_IS(f, n)       {.field = (f), .test = MB_RT_INT_IS, .num = (n)}
#define INT_AT_LEAST(f, n) {.field = (f), .test = MB_RT_INT_AT_LEAST, .num = (n)}

#define TEXT(s)            {.kind = MB_RT_TEXT, .before = (s)}
#define STR(b, f, a)       {.kind = MB_RT_STR, .field = (f), .before = (b), .after = (a)}
#define STR_IF(b, f, a)    {.kind = MB_RT_STR_IF, .field = (f), .before = (b), .after = (a)}
#define INT(b, f, a)       {.kind = MB_RT_INT, .field = (f), .before = (b), .after = (a)}
#define INT_IF(b, f, a)    {.kind = MB_RT_INT_IF, .field = (f), .before = (b), .after = (a)}
#define FLAG(f, s)         {.kind = MB_RT_FLAG, .field = (f), .before = (s)}
/* clang-format on */

#define PROCS INT(", ", "processes", " procs")

/* The unit of the bandwidths, as the field names say (docs/output.md, "Field names"): IMB's
 * Mbytes/sec are MiB/s (2^20 bytes/s, fields *_mib_per_sec), b_eff's, b_eff_io's and Presta's
 * MB/s 10^6 bytes/s (fields *_mb_per_sec). */
#define IMB_MBYTES "bandwidth [MiB/s, 2^20 bytes/s]"
#define MB_PER_SEC "bandwidth [MB/s, 10^6 bytes/s]"

/* b_eff_io's chunk axis (b_eff_io paper Fig. 2) is pseudo-logarithmic - 1k, +8, 32k, +8, 1M,
 * +8, L_max - at the positions b_eff_io 2.1's own plot files use (b_eff_io.c, the .sum file's
 * "set xtics" line), so that the "+8" (non-wellformed) point stands beside its power of two
 * instead of on top of it. The record's "position" (1..7) names the place. */
static const struct mb_rt_axis beffio_chunks = {
    .n = 7,
    .x = {1, 2, 4, 5, 7, 8, 10},
    .tic = {"1k", "+8", "32k", "+8", "1M", "+8"},
    .last_field = "chunk_bytes",
    .last_name = "L_max",
};

/* Every plot, in the order of plots.gp and index.html. */
const struct mb_rt_page mb_rt_pages[] = {
    {"pt2pt_latency", "IMB point-to-point: time per message size (single and parallel transfer)",
     "message size [bytes]", "t_avg [usec]", NULL, 0, 0},
    {"pt2pt_bandwidth",
     "IMB point-to-point: bandwidth per message size (single and parallel transfer)",
     "message size [bytes]", IMB_MBYTES, NULL, 0, 0},
    {"collectives", "IMB collectives: average time per call, one line per process count",
     "message size [bytes]", "t_avg [usec]", NULL, 0, 0},
    {"collectives_no_data", "IMB benchmarks without message data (Barrier): time per call",
     "processes", "t_avg [usec]", NULL, 0, 1},
    {"presta_bandwidth", "Presta com/rma: bandwidth per message size", "message size [bytes]",
     MB_PER_SEC, NULL, 0, 0},
    {"imb_io_bandwidth", "IMB-IO: bandwidth per transfer size", "transfer size [bytes]", IMB_MBYTES,
     NULL, 0, 0},
    {"p2p_message_rate", "IMB-P2P: messages per second of the whole job", "message size [bytes]",
     "messages per second", NULL, 0, 0},
    {"nbc_overlap", "IMB-NBC, IMB-MPI4: overlap of the collectives with computation",
     "message size [bytes]", "overlap [%]", NULL, 1, 0},
    {"beff", "b_eff: bandwidth per message size, one panel per pattern", "message size [bytes]",
     MB_PER_SEC, NULL, 0, 0},
    {"beffio_write", "b_eff_io: write bandwidth per chunk size", "contiguous chunk size on disk",
     MB_PER_SEC, &beffio_chunks, 0, 0},
    {"beffio_rewrite", "b_eff_io: rewrite bandwidth per chunk size",
     "contiguous chunk size on disk", MB_PER_SEC, &beffio_chunks, 0, 0},
    {"beffio_read", "b_eff_io: read bandwidth per chunk size", "contiguous chunk size on disk",
     MB_PER_SEC, &beffio_chunks, 0, 0},
};
const size_t mb_rt_page_count = sizeof mb_rt_pages / sizeof mb_rt_pages[0];

/* b_eff_io's pattern records are drawn for the partition whose value is the system's (the
 * result's), or, for a run cut before its result, the partition of its first pattern record
 * (the first partition measured); patterns without a place on the chunk axis (position 0: the
 * first and the 1 MB chunks of 2 MB calls of type 0) are left out, as in b_eff_io 2.1's plots. */
/* clang-format off */
#define BEFFIO_PLOT(pg, acc)                                                                       \
    {.page = (pg), .kind = MB_RT_POSITIONS, .x = "position", .y = "mb_per_sec",                   \
     .when = {IS("access", acc)}, .only = {"partition", "beffio_result"}}
/* clang-format on */

/* IMB rows that measured (not skipped), of one group (not -multi 1's per-group rows). */
#define IMB_OK IS("status", "ok"), NOT_INT("group")
/* The panels of IMB's plots: a family's transfer class ("IMB-MPI1 single transfer") or a
 * benchmark ("IMB-MPI1 Bcast"); the series within them: benchmark, mode and processes. */
#define IMB_CLASS_PANEL STR("", "suite", " "), STR("", "class", " transfer")
#define IMB_BENCH_PANEL                                                                            \
    STR("", "suite", " "), FLAG("multi", "Multi-"), STR("", "benchmark", ""),                      \
        STR_IF(" ", "mode", "")
#define IMB_SERIES FLAG("multi", "Multi-"), STR("", "benchmark", ""), STR_IF(" ", "mode", ""), PROCS

/* The rows' order is the order of the headline numbers (summary.txt, index.html), and of the
 * series when two record types draw into one plot (b_eff: the result's averages first). */
/* A pair's figures (map_link, level_pair): latency, and the bandwidth of each direction. */
#define PAIR_FIGURES                                                                               \
    {                                                                                              \
        {.name = "latency", .field = "latency_usec", .unit = "usec", .better = MB_RT_LOWER},       \
            {.name = "a to b",                                                                     \
             .field = "a_to_b_mib_per_sec",                                                        \
             .unit = "MiB/s",                                                                      \
             .better = MB_RT_HIGHER},                                                              \
        {                                                                                          \
            .name = "b to a", .field = "b_to_a_mib_per_sec", .unit = "MiB/s",                      \
            .better = MB_RT_HIGHER                                                                 \
        }                                                                                          \
    }

/* levels' two headlines of one level: its latency and rank 0's bandwidth to its partner. */
#define LEVEL_HEADLINE(l_, u_, k_, f_, v_)                                                         \
    {                                                                                              \
        .label = (l_), .unit = (u_), .key = (k_), .field = (f_), .pick = MB_RT_LAST,               \
        .when = {IS("level", v_)}, .absent = "why", .detail = {                                    \
            TEXT("levels, ranks "),                                                                \
            INT("", "rank_a", ""),                                                                 \
            INT(" and ", "rank_b", ""),                                                            \
            STR(", ", "host_a", ""),                                                               \
            STR(" - ", "host_b", "")                                                               \
        }                                                                                          \
    }
#define LEVEL_HEADLINES(words, level)                                                              \
    LEVEL_HEADLINE("Latency, " words, "usec", "level_" level "_latency_usec", "latency_usec",      \
                   level),                                                                         \
        LEVEL_HEADLINE("Bandwidth, " words, "MiB/s", "level_" level "_mib_per_sec",                \
                       "a_to_b_mib_per_sec", level)

const struct mb_record_type mb_record_types[] = {
    {.type = "header", .written_by = "every suite, first", .provenance = 1},
    {.type = "summary", .written_by = "every suite, last"},
    {.type = "beff_result",
     .written_by = "b_eff",
     .name = {PROCS},
     .figures =
         {{.name = "b_eff", .field = "b_eff_mb_per_sec", .unit = "MB/s", .better = MB_RT_HIGHER},
          {.name = "b_eff at L_max",
           .field = "b_eff_at_lmax_mb_per_sec",
           .unit = "MB/s",
           .better = MB_RT_HIGHER}},
     /* b_eff paper §3: the ring and random averages and b_eff per size, in a panel of their
      * own; b_eff also in every pattern's panel, the line each pattern is read against. */
     .plots = {{.page = "beff",
                .kind = MB_RT_ARRAYS,
                .x = "bytes",
                .panel = {TEXT("b_eff and the ring and random averages")},
                .arrays = {{"rings_mb_per_sec", "rings (average)", 0},
                           {"random_mb_per_sec", "random (average)", 0},
                           {"b_eff_by_size_mb_per_sec", "b_eff", 1}}}},
     .headlines = {{.label = "b_eff",
                    .unit = "MB/s",
                    .key = "b_eff_mb_per_sec",
                    .field = "b_eff_mb_per_sec",
                    .pick = MB_RT_LAST,
                    .detail = {TEXT("b_eff"), INT(", ", "processes", " processes"),
                               INT(", ", "memory_per_process_mib", " MiB per process")},
                    /* One process sends every message to itself: a memory copy, not the
                     * network the name suggests (issue: runs that measure nothing). */
                    .notes = {{INT_IS("processes", 1), "; one process: messages to itself, "
                                                       "no network"}}}}},
    {.type = "beff_measurement",
     .written_by = "b_eff",
     .name = {STR("", "label", "")},
     .at = {INT(", repetition ", "repetition", ""), STR(", ", "method", ""),
            INT(", ", "bytes", " bytes")},
     /* Each additional ("info") pattern's best bandwidth (over methods and repetitions) per
      * size, a panel each (a dozen lines in one panel could not be told apart); the rings and
      * random ones are averaged in the result. */
     .plots = {{.page = "beff",
                .kind = MB_RT_POINTS,
                .x = "bytes",
                .y = "mb_per_sec",
                .when = {HAS("label")},
                .keep_max = 1,
                .panel = {STR("", "label", "")},
                .series = {TEXT("the pattern (best over methods)")},
                .join = {"beff_pattern", "pattern", IS("role", "info")}}}},
    {.type = "beff_pattern", .written_by = "b_eff", .name = {STR("", "label", "")}},
    {.type = "beffio_result",
     .file_io = HAS("type"),
     .written_by = "b_eff_io",
     .name = {PROCS},
     /* Each definition under its own name (docs/adr/program-beffio-headline.md): a file of
      * older mpibench (no "definition"), whose value was the weighted one, is never set
      * against release 2.1's value. */
     .figures = {{.name = "b_eff_io",
                  .field = "b_eff_io_mb_per_sec",
                  .unit = "MB/s",
                  .better = MB_RT_HIGHER,
                  .when = {IS("definition", "release21")}},
                 {.name = "b_eff_io weighted",
                  .field = "weighted_mb_per_sec",
                  .unit = "MB/s",
                  .better = MB_RT_HIGHER,
                  .when = {IS("definition", "release21")}},
                 {.name = "b_eff_io weighted",
                  .field = "b_eff_io_mb_per_sec",
                  .unit = "MB/s",
                  .better = MB_RT_HIGHER,
                  .when = {IS_NOT("definition", "release21")}},
                 {.name = "b_eff_io",
                  .field = "release21_mb_per_sec",
                  .unit = "MB/s",
                  .better = MB_RT_HIGHER,
                  .when = {OTHER_THAN("definition", "release21")}}},
     .headlines = {{.label = "b_eff_io",
                    .unit = "MB/s",
                    .key = "b_eff_io_mb_per_sec",
                    .field = "b_eff_io_mb_per_sec",
                    .pick = MB_RT_LAST,
                    .detail = {TEXT("b_eff_io"), INT(", ", "processes", " processes"),
                               INT(", scheduled ", "scheduled_sec", " s")},
                    /* b_eff_io 2.1's sqrt(WR x RD) unless the run chose the paper's weighted
                     * value; results of older mpibench have no definition and were the
                     * weighted value. */
                    .notes = {{IS_NOT("definition", "release21"), ", 0.25/0.25/0.5 weighted value"},
                              {NOT_TRUE("valid"), ", too short to be valid"}}}}},
    {.type = "beffio_type",
     .file_io = HAS("type"),
     .written_by = "b_eff_io",
     /* One family of every access method and pattern type of a partition (compare sums a
      * family up as one figure: ten single rows were ten families, each as noisy as one file
      * system call). */
     .name = {PROCS},
     .at = {INT(", partition ", "partition", ""), STR(", ", "access", ""),
            STR(" ", "pattern_type", "")},
     .figures = {{.name = "b_eff_io by access and pattern type",
                  .field = "weighted_mb_per_sec",
                  .unit = "MB/s",
                  .better = MB_RT_HIGHER}}},
    {.type = "beffio_pattern",
     .file_io = HAS("type"),
     .written_by = "b_eff_io",
     .name = {STR("", "pattern_type", ""), PROCS},
     .at = {STR(" ", "access", ""), INT(", partition ", "partition", ""),
            INT(", pattern ", "pattern", "")},
     /* b_eff_io paper Fig. 2: per access method, bandwidth per chunk size of each type. */
     .plots = {BEFFIO_PLOT("beffio_write", "write"), BEFFIO_PLOT("beffio_rewrite", "rewrite"),
               BEFFIO_PLOT("beffio_read", "read")}},
    {.type = "beffio_partition", .file_io = HAS("type"), .written_by = "b_eff_io", .name = {PROCS}},
    {.type = "result",
     .file_io = IS("suite", "IMB-IO"),
     .written_by = "IMB-MPI1, IMB-EXT, IMB-IO, IMB-NBC, IMB-MPI4",
     .name = {STR("", "suite", " "), FLAG("multi", "Multi-"), STR("", "benchmark", ""),
              STR_IF(" ", "mode", ""), PROCS},
     .at = {INT_IF(" group ", "group", ""), INT_IF(", ", "bytes", " bytes")},
     .figures = {{.field = "t_avg_usec",
                  .unit = "usec",
                  .better = MB_RT_LOWER,
                  .when = {IS("status", "ok")}}},
     .plots =
         {/* Point-to-point (guide 3.3, 4.2.3): each IMB family's single transfer benchmarks
           * (PingPong, PingPing, Unidir, Bidir) and its parallel transfer ones (Sendrecv,
           * Exchange, one line per process count), a panel each: time and bandwidth per size. */
          {.page = "pt2pt_latency",
           .kind = MB_RT_POINTS,
           .x = "bytes",
           .y = "t_avg_usec",
           .when = {IMB_OK, ONE_OF("class", "single|parallel"), OTHER_THAN("suite", "IMB-IO")},
           .panel = {IMB_CLASS_PANEL},
           .series = {IMB_SERIES}},
          {.page = "pt2pt_bandwidth",
           .kind = MB_RT_POINTS,
           .x = "bytes",
           .y = "mib_per_sec",
           .when = {IMB_OK, ONE_OF("class", "single|parallel"), OTHER_THAN("suite", "IMB-IO")},
           .panel = {IMB_CLASS_PANEL},
           .series = {IMB_SERIES}},
          /* Collectives: t_avg per size, a panel per benchmark with a line per process count
           * it ran on (how the time grows with the machine is what a collective shows). */
          {.page = "collectives",
           .kind = MB_RT_POINTS,
           .x = "bytes",
           .y = "t_avg_usec",
           .when = {IMB_OK, IS("class", "collective"), OTHER_THAN("suite", "IMB-IO"),
                    HAS("benchmark"), NUMBER("bytes")},
           .panel = {IMB_BENCH_PANEL},
           .series = {INT("", "processes", " procs")}},
          /* Rows without a size (Barrier and its non-blocking and persistent kin): the time
           * per process count. */
          {.page = "collectives_no_data",
           .kind = MB_RT_POINTS,
           .x = "processes",
           .y = "t_avg_usec",
           .when = {IMB_OK, OTHER_THAN("suite", "IMB-IO"), HAS("benchmark"), NOT_INT("bytes")},
           .name = {STR("", "suite", " "), FLAG("multi", "Multi-"), STR("", "benchmark", ""),
                    STR_IF(" ", "mode", "")}},
          /* IMB-IO (guide 4.2.4): bandwidth per size of each benchmark and mode. */
          {.page = "imb_io_bandwidth",
           .kind = MB_RT_POINTS,
           .x = "bytes",
           .y = "mib_per_sec",
           .when = {IMB_OK, IS("suite", "IMB-IO")}},
          /* IMB-NBC and IMB-MPI4 (Intel IMB 2021.11): the overlap per size of each
           * collective, a panel per collective with a line per process count. */
          {.page = "nbc_overlap",
           .kind = MB_RT_POINTS,
           .x = "bytes",
           .y = "overlap_percent",
           .when = {IMB_OK, ONE_OF("suite", "IMB-NBC|IMB-MPI4"), IS("layout", "overlap")},
           .panel = {IMB_BENCH_PANEL},
           .series = {INT("", "processes", " procs")}}},
     .headlines =
         {/* Latency: the smallest message measured (0 bytes in IMB's default list). */
          {.label = "PingPong latency",
           .unit = "usec",
           .key = "pingpong_latency_usec",
           .field = "t_avg_usec",
           .pick = MB_RT_LEAST_BY,
           .by = "bytes",
           .when = {IS("suite", "IMB-MPI1"), IS("benchmark", "PingPong"), IS("status", "ok"),
                    NOT_TRUE("multi"), INT_AT_LEAST("bytes", 0)},
           .detail = {STR("", "suite", ""), INT(", ", "bytes", " bytes"),
                      INT(", ", "processes", " processes")}},
          {.label = "PingPong bandwidth",
           .unit = "MiB/s",
           .key = "pingpong_mib_per_sec",
           .field = "mib_per_sec",
           .pick = MB_RT_LARGEST,
           .when = {IS("suite", "IMB-MPI1"), IS("benchmark", "PingPong"), IS("status", "ok"),
                    NOT_TRUE("multi"), INT_AT_LEAST("bytes", 0)},
           .detail = {STR("", "suite", ""), INT(", best at ", "bytes", " bytes"),
                      INT(", ", "processes", " processes")}},
          /* The largest process count: the machine, not a pair. */
          {.label = "Allreduce 8 B latency",
           .unit = "usec",
           .key = "allreduce_8_bytes_usec",
           .field = "t_avg_usec",
           .pick = MB_RT_MOST_BY,
           .by = "processes",
           .when = {IS("suite", "IMB-MPI1"), IS("benchmark", "Allreduce"), IS("status", "ok"),
                    NOT_TRUE("multi"), INT_IS("bytes", 8)},
           .detail = {STR("", "suite", ""), INT(", ", "bytes", " bytes"),
                      INT(", ", "processes", " processes")},
           .notes = {{INT_IS("processes", 1), "; one process: a local copy, no communication"}}}}},
    {.type = "skipped",
     .written_by = "IMB-MPI1, IMB-EXT, IMB-IO, IMB-NBC, IMB-MPI4",
     .name = {STR("", "suite", " "), STR("", "benchmark", "")}},
    /* IMB-P2P (Intel IMB 2021.11): the row's time per message, and the message rate per size. */
    {.type = "p2p_row",
     .written_by = "IMB-P2P",
     .name = {STR("", "suite", " "), STR("", "benchmark", ""), PROCS},
     .at = {INT(", ", "bytes", " bytes")},
     .figures = {{.field = "t_usec", .unit = "usec", .better = MB_RT_LOWER}},
     .plots = {{.page = "p2p_message_rate",
                .kind = MB_RT_POINTS,
                .x = "bytes",
                .y = "messages_per_sec"}}},
    {.type = "presta_row",
     .written_by = "Presta com, laten, rma",
     .name = {STR("", "program", " "), STR("", "test", ""), PROCS},
     .at = {INT(", ", "bytes", " bytes")},
     /* The time per operation the program prints (laten's latency, com's and rma's op time);
      * the samples' spread scaled from per measurement. */
     .figures = {{.field = "latency_usec",
                  .field_else = "op_time_usec",
                  .unit = "usec",
                  .better = MB_RT_LOWER,
                  .scale = 1e6,
                  .samples = "samples_sec",
                  .per = "time_sec"}},
     .plots = {{.page = "presta_bandwidth",
                .kind = MB_RT_POINTS,
                .x = "bytes",
                .y = "bandwidth_mb_per_sec",
                .when = {NUMBER("bandwidth_mb_per_sec")}}}},
    {.type = "presta_allred",
     .written_by = "Presta allred",
     .name = {PROCS},
     .at = {INT(", ", "bytes", " bytes")},
     .figures = {{.name = "allred Allreduce",
                  .field = "op_mean_usec",
                  .unit = "usec",
                  .better = MB_RT_LOWER}}},
    {.type = "presta_globalop",
     .written_by = "Presta globalop",
     .name = {STR(" ", "section", ""), PROCS},
     .at = {INT(", repetition ", "repetition", "")},
     .figures = {{.name = "globalop",
                  .field = "avg_sec",
                  .unit = "usec",
                  .better = MB_RT_LOWER,
                  .scale = 1e6}}},
    {.type = "presta_nodes", .written_by = "Presta com, laten, rma (--node-map)"},
    {.type = "presta_footer",
     .written_by = "Presta com, laten, rma",
     .name = {STR("", "program", "")}},
    /* mpibench map: a pair's latency and both bandwidths, compared link by link. */
    {.type = "map_link",
     .written_by = "mpibench map",
     .name = {STR("map ", "host_a", ""), STR(" - ", "host_b", "")},
     .figures = PAIR_FIGURES},
    /* mpibench levels: a pair per level of the machine, each its own headline (null where the
     * job has no pair at that level). */
    {.type = "level_pair",
     .written_by = "mpibench levels",
     .name = {STR("levels ", "level", "")},
     .figures = PAIR_FIGURES,
     .headlines = {LEVEL_HEADLINES("one socket", "socket"),
                   LEVEL_HEADLINES("two sockets", "sockets"),
                   LEVEL_HEADLINES("two hosts", "hosts")}},
    {.type = "map_host", .written_by = "mpibench map", .name = {STR("map host ", "host", "")}},
    {.type = "map_result", .written_by = "mpibench map"},
    {.type = "job_phase", .written_by = "mpibench run", .name = {STR("", "phase", "")}},
    {.type = "job_result", .written_by = "mpibench run"},
};
const size_t mb_record_type_count = sizeof mb_record_types / sizeof mb_record_types[0];

const struct mb_record_type *mb_rt_of(const json_t *o)
{
    const char *t = mb_rec_str(o, "type");

    for (size_t i = 0; t && i < mb_record_type_count; i++)
        if (strcmp(mb_record_types[i].type, t) == 0)
            return &mb_record_types[i];
    return NULL;
}

/* value's words are separated by '|'. */
static int one_of(const char *s, const char *value)
{
    const size_t n = strlen(s);

    for (const char *w = value; w; w = strchr(w, '|') ? strchr(w, '|') + 1 : NULL)
        if (strncmp(w, s, n) == 0 && (w[n] == '|' || w[n] == '\0'))
            return 1;
    return 0;
}

int mb_rt_holds_one(const json_t *o, const struct mb_rt_cond *c)
{
    const json_t *v = json_object_get(o, c->field);
    const char *s = json_string_value(v);

    switch (c->test) {
    case MB_RT_IS:
        return s && strcmp(s, c->value) == 0;
    case MB_RT_IS_NOT:
        return !s || strcmp(s, c->value) != 0;
    case MB_RT_OTHER_THAN:
        return s && strcmp(s, c->value) != 0;
    case MB_RT_ONE_OF:
        return s && one_of(s, c->value);
    case MB_RT_HAS:
        return s != NULL;
    case MB_RT_NUMBER:
        return json_is_number(v);
    case MB_RT_NOT_INT:
        return !json_is_integer(v);
    case MB_RT_TRUE:
        return json_is_true(v);
    case MB_RT_NOT_TRUE:
        return !json_is_true(v);
    case MB_RT_INT_IS:
        return json_is_integer(v) && (long long)json_integer_value(v) == c->num;
    case MB_RT_INT_AT_LEAST:
        return json_is_integer(v) && (long long)json_integer_value(v) >= c->num;
    }
    return 0;
}

int mb_rt_holds(const json_t *o, const struct mb_rt_cond *when)
{
    for (int i = 0; i < MB_RT_CONDS && when[i].field; i++)
        if (!mb_rt_holds_one(o, &when[i]))
            return 0;
    return 1;
}

int mb_rt_file_io(const json_t *o, const struct mb_record_type *t)
{
    return t->file_io.field && mb_rt_holds_one(o, &t->file_io);
}

void mb_rt_text(char *buf, size_t len, const json_t *o, const struct mb_rt_part *parts)
{
    size_t used = strlen(buf);

    for (int i = 0; i < MB_RT_PARTS && parts[i].kind && used + 1 < len; i++) {
        const struct mb_rt_part *p = &parts[i];
        const char *s = p->field ? mb_rec_str(o, p->field) : NULL;
        const char *b = p->before ? p->before : "", *a = p->after ? p->after : "";
        const long long n = p->field ? mb_rec_int(o, p->field, p->kind == MB_RT_INT ? 0 : -1) : 0;
        int w = 0;

        switch (p->kind) {
        case MB_RT_TEXT:
            w = snprintf(buf + used, len - used, "%s", b);
            break;
        case MB_RT_STR:
            w = snprintf(buf + used, len - used, "%s%s%s", b, s ? s : "?", a);
            break;
        case MB_RT_STR_IF:
            if (s)
                w = snprintf(buf + used, len - used, "%s%s%s", b, s, a);
            break;
        case MB_RT_INT:
            w = snprintf(buf + used, len - used, "%s%lld%s", b, n, a);
            break;
        case MB_RT_INT_IF:
            if (n >= 0)
                w = snprintf(buf + used, len - used, "%s%lld%s", b, n, a);
            break;
        case MB_RT_FLAG:
            if (json_is_true(json_object_get(o, p->field)))
                w = snprintf(buf + used, len - used, "%s", b);
            break;
        }
        if (w > 0) /* snprintf cut the text: the buffer is full */
            used = (size_t)w < len - used ? used + (size_t)w : len - 1;
    }
}
