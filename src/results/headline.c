#include "results/headline.h"

#include <math.h>
#include <string.h>

static int imb_row(const json_t *o, const char *bench)
{
    const char *suite = mb_rec_str(o, "suite"), *b = mb_rec_str(o, "benchmark"),
               *st = mb_rec_str(o, "status");
    return mb_rec_is(o, "result") && suite && strcmp(suite, "IMB-MPI1") == 0 && b &&
           strcmp(b, bench) == 0 && st && strcmp(st, "ok") == 0 &&
           !json_is_true(json_object_get(o, "multi"));
}

/* The value; the caller then writes where it comes from into h->detail. */
static char *set(struct mb_headline *h, double v)
{
    h->present = 1;
    h->value = v;
    return h->detail;
}

#define DETAIL sizeof h[0].detail

void mb_headlines(const struct mb_records *r, struct mb_headline h[MB_HL_N])
{
    static const struct {
        const char *label, *unit;
    } names[MB_HL_N] = {
        [MB_HL_BEFF] = {"b_eff", "MB/s"},
        [MB_HL_BEFFIO] = {"b_eff_io", "MB/s"},
        [MB_HL_PP_LAT] = {"PingPong latency", "usec"},
        [MB_HL_PP_BW] = {"PingPong bandwidth", "MBytes/sec"},
        [MB_HL_ALLRED8] = {"Allreduce 8 B latency", "usec"},
    };
    long long lat_bytes = -1, allred_np = -1;

    memset(h, 0, sizeof *h * MB_HL_N);
    for (int i = 0; i < MB_HL_N; i++) {
        h[i].label = names[i].label;
        h[i].unit = names[i].unit;
    }
    for (size_t i = 0; i < r->n; i++) {
        const json_t *o = r->rec[i];
        const long long np = mb_rec_int(o, "processes", 0), bytes = mb_rec_int(o, "bytes", -1);

        if (mb_rec_is(o, "beff_result")) {
            snprintf(set(&h[MB_HL_BEFF], mb_rec_num(o, "b_eff_mbytes_per_sec")), DETAIL,
                     "b_eff, %lld processes, %lld MiB per process", np,
                     mb_rec_int(o, "memory_per_process_mb", 0));
        } else if (mb_rec_is(o, "beffio_result")) {
            snprintf(set(&h[MB_HL_BEFFIO], mb_rec_num(o, "b_eff_io_mbytes_per_sec")), DETAIL,
                     "b_eff_io, %lld processes, scheduled %lld s", np,
                     mb_rec_int(o, "scheduled_sec", 0));
            /* b_eff_io 2.1's sqrt(WR x RD) unless the run chose the paper's weighted value
             * (docs/adr/program-beffio-headline.md); results of older mpibench have no
             * definition and were the weighted value. */
            {
                const char *def = mb_rec_str(o, "definition");
                if (!def || strcmp(def, "release21") != 0)
                    strncat(h[MB_HL_BEFFIO].detail, ", 0.25/0.25/0.5 weighted value",
                            sizeof h[MB_HL_BEFFIO].detail - strlen(h[MB_HL_BEFFIO].detail) - 1);
            }
            if (!json_is_true(json_object_get(o, "valid")))
                strncat(h[MB_HL_BEFFIO].detail, ", too short to be valid",
                        sizeof h[MB_HL_BEFFIO].detail - strlen(h[MB_HL_BEFFIO].detail) - 1);
        } else if (imb_row(o, "PingPong") && bytes >= 0) {
            /* Latency: the smallest message measured (0 bytes in IMB's default list). */
            if (lat_bytes < 0 || bytes < lat_bytes) {
                lat_bytes = bytes;
                snprintf(set(&h[MB_HL_PP_LAT], mb_rec_num(o, "t_avg_usec")), DETAIL,
                         "IMB-MPI1, %lld bytes, %lld processes", bytes, np);
            }
            const double bw = mb_rec_num(o, "mbytes_per_sec");
            if (isfinite(bw) && (!h[MB_HL_PP_BW].present || bw > h[MB_HL_PP_BW].value))
                snprintf(set(&h[MB_HL_PP_BW], bw), DETAIL,
                         "IMB-MPI1, best at %lld bytes, %lld processes", bytes, np);
        } else if (imb_row(o, "Allreduce") && bytes == 8 && np > allred_np) {
            /* The largest process count: the machine, not a pair. */
            allred_np = np;
            snprintf(set(&h[MB_HL_ALLRED8], mb_rec_num(o, "t_avg_usec")), DETAIL,
                     "IMB-MPI1, %lld bytes, %lld processes", bytes, np);
        }
    }
}

void mb_headline_line(const struct mb_headline *h, char *buf, size_t len)
{
    if (h->present)
        snprintf(buf, len, "  %-22s %12.2f %-10s (%s)\n", h->label, h->value, h->unit, h->detail);
    else
        snprintf(buf, len, "  %-22s %12s %-10s (not measured)\n", h->label, "-", "");
}
