/* SPDX-License-Identifier: BSD-3-Clause */
#include "core/hardware_report.h"

#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    HOSTS_NAMED = 8,         /* host names per text line */
    HOSTS_NAMED_JSON = 64,   /* host names per hardware entry of the JSON header */
    RANKS_LISTED = 8,        /* ranks whose place the text header spells out */
    RANKS_LISTED_JSON = 4096 /* ranks in the JSON header's placement list */
};

static const char *const CACHE_NAMES[MB_HW_CACHE_LEVELS] = {"L1d", "L2", "L3", "L4"};

static const char *host_name(const struct mb_hw_names *n, int i)
{
    return i >= 0 && i < n->count ? n->names + (size_t)i * n->len : "?";
}

/* "32 KiB", "1 MiB", "11.0 GiB". */
static void bytes_text(long long b, char *buf, size_t len)
{
    if (b >= 1024LL * 1024 * 1024)
        snprintf(buf, len, "%.1f GiB", (double)b / (1024.0 * 1024 * 1024));
    else if (b >= 1024LL * 1024 && b % (1024LL * 1024) == 0)
        snprintf(buf, len, "%lld MiB", b / (1024LL * 1024));
    else if (b >= 1024)
        snprintf(buf, len, "%lld KiB", b / 1024);
    else
        snprintf(buf, len, "%lld B", b);
}

static const char *plural(int n)
{
    return n == 1 ? "" : "s";
}

static void kind_text(const struct mb_hw_host *h, const struct mb_out *out)
{
    char b[32];
    int cached = 0;

    mb_printf(out, "%s; ", h->cpu_model[0] ? h->cpu_model : "CPU model unknown");
    if (h->cores)
        mb_printf(out, "%d package%s, %d core%s, %d hardware thread%s, %d NUMA node%s; ",
                  h->packages, plural(h->packages), h->cores, plural(h->cores), h->pus,
                  plural(h->pus), h->numa_nodes, plural(h->numa_nodes));
    for (int i = 0; i < MB_HW_CACHE_LEVELS; i++)
        if (h->cache_bytes[i] > 0) {
            bytes_text(h->cache_bytes[i], b, sizeof b);
            mb_printf(out, "%s%s %s", cached++ ? ", " : "", CACHE_NAMES[i], b);
        }
    bytes_text(h->memory_bytes, b, sizeof b);
    mb_printf(out, "%s%s memory", cached ? "; " : "", b);
    for (int i = 0; i < h->nnics; i++) {
        const struct mb_hw_nic *n = &h->nics[i];
        mb_printf(out, "%s%s", i ? ", " : "; network ", n->name);
        if (n->speed_mbps > 0)
            mb_printf(out, " (%lld Mb/s)", n->speed_mbps);
        else
            mb_printf(out, " (no speed given)");
    }
    if (h->more_nics)
        mb_printf(out, " and %d more", h->more_nics);
    if (h->nnics == 0)
        mb_printf(out, "; no network device seen by hwloc");
    if (h->note[0])
        mb_printf(out, " (%s)", h->note);
}

void mb_hw_text(const struct mb_hw_report *r, const struct mb_hw_names *names,
                const struct mb_out *out)
{
    for (int k = 0; k < r->nkinds; k++) {
        int count = 0, named = 0;
        for (int h = 0; h < r->nhosts; h++)
            count += r->kind_of_host[h] == k;
        mb_printf(out, "%s%d host%s (",
                  k ? "#                         " : "# Hardware              : ", count,
                  plural(count));
        for (int h = 0; h < r->nhosts; h++)
            if (r->kind_of_host[h] == k && named++ < HOSTS_NAMED)
                mb_printf(out, "%s%s", named > 1 ? ", " : "", host_name(names, h));
        mb_printf(out, "%s): ", count > HOSTS_NAMED ? ", ..." : "");
        kind_text(&r->kinds[k], out);
        mb_printf(out, "\n");
    }
}

static void place_text(const struct mb_hw_place *p, const char *host, const struct mb_out *out)
{
    mb_printf(out, "%s ", host);
    if (p->core >= 0)
        mb_printf(out, "core %d", p->core);
    else if (p->ncores > 0)
        mb_printf(out, "%d cores", p->ncores);
    else
        mb_printf(out, "%d CPUs", p->npus);
    if (p->numa >= 0)
        mb_printf(out, ", NUMA node %d", p->numa);
    if (p->package >= 0)
        mb_printf(out, ", package %d", p->package);
    if (p->cpu >= 0)
        mb_printf(out, " (on CPU %d)", p->cpu);
}

void mb_placement_text(const struct mb_hw_report *r, const struct mb_hw_names *names,
                       const struct mb_out *out)
{
    int one_core = 0, one_numa = 0;

    if (!r->places)
        return;
    for (int i = 0; i < r->nprocs; i++) {
        one_core += r->places[i].core >= 0;
        one_numa += r->places[i].numa >= 0;
    }
    mb_printf(out,
              "# Placement             : %d of %d ranks bound to one core, %d within one NUMA "
              "node\n#                         ",
              one_core, r->nprocs, one_numa);
    for (int i = 0; i < r->nprocs && i < RANKS_LISTED; i++) {
        mb_printf(out, "%srank %d: ", i ? "; " : "", i);
        place_text(&r->places[i], host_name(names, r->places[i].host), out);
    }
    mb_printf(out, "%s\n", r->nprocs > RANKS_LISTED ? "; ..." : "");
}

/* -1 -> null */
static void int_or_null(struct mb_jobj *o, const char *key, long long v)
{
    if (v >= 0)
        mb_jobj_int(o, key, v);
    else
        mb_jobj_null(o, key);
}

/* One entry of "hardware": host summary k and the hosts that have it. */
static void kind_json(const struct mb_hw_report *r, const struct mb_hw_names *names, int k,
                      struct mb_jobj *o)
{
    const struct mb_hw_host *h = &r->kinds[k];
    struct mb_jobj caches;
    struct mb_jarray hosts = {0}, nics = {0};
    char *text;
    int count = 0;

    mb_jobj_init(o);
    for (int i = 0; i < r->nhosts; i++)
        if (r->kind_of_host[i] == k && count++ < HOSTS_NAMED_JSON)
            mb_jarray_add_str(&hosts, host_name(names, i));
    mb_jobj_array(o, "hosts", &hosts);
    mb_jobj_int(o, "host_count", count);
    mb_jobj_str(o, "cpu_model", h->cpu_model[0] ? h->cpu_model : NULL);
    mb_jobj_int(o, "packages", h->packages);
    mb_jobj_int(o, "cores", h->cores);
    mb_jobj_int(o, "hardware_threads", h->pus);
    mb_jobj_int(o, "numa_nodes", h->numa_nodes);
    mb_jobj_init(&caches);
    for (int i = 0; i < MB_HW_CACHE_LEVELS; i++)
        if (h->cache_bytes[i] > 0)
            mb_jobj_int(&caches, CACHE_NAMES[i], h->cache_bytes[i]);
    text = mb_jobj_take(&caches);
    mb_jobj_raw(o, "cache_bytes", text);
    free(text);
    int_or_null(o, "cache_line_bytes", h->cache_line > 0 ? h->cache_line : -1);
    mb_jobj_int(o, "memory_bytes", h->memory_bytes);
    for (int i = 0; i < h->nnics; i++) {
        struct mb_jobj d;
        mb_jobj_init(&d);
        mb_jobj_str(&d, "name", h->nics[i].name);
        mb_jobj_str(&d, "kind", h->nics[i].kind);
        int_or_null(&d, "link_speed_mbit_per_sec", h->nics[i].speed_mbps);
        mb_jarray_add_obj(&nics, &d);
    }
    mb_jobj_array(o, "network_devices", &nics);
    mb_jobj_int(o, "network_devices_not_listed", h->more_nics);
    mb_jobj_str(o, "note", h->note[0] ? h->note : NULL);
}

void mb_hw_json(const struct mb_hw_report *r, const struct mb_hw_names *names, struct mb_jobj *o)
{
    struct mb_jarray kinds = {0}, places = {0};
    int listed = 0;

    for (int k = 0; k < r->nkinds; k++) {
        struct mb_jobj q;
        kind_json(r, names, k, &q);
        mb_jarray_add_obj(&kinds, &q);
    }
    mb_jobj_array(o, "hardware", &kinds);
    for (int i = 0; r->places && i < r->nprocs && i < RANKS_LISTED_JSON; i++, listed++) {
        const struct mb_hw_place *p = &r->places[i];
        struct mb_jobj q;
        mb_jobj_init(&q);
        mb_jobj_int(&q, "rank", i);
        mb_jobj_str(&q, "host", host_name(names, p->host));
        int_or_null(&q, "core", p->core);
        int_or_null(&q, "numa_node", p->numa);
        int_or_null(&q, "package", p->package);
        mb_jobj_int(&q, "cores", p->ncores);
        mb_jobj_int(&q, "hardware_threads", p->npus);
        int_or_null(&q, "cpu", p->cpu);
        mb_jarray_add_obj(&places, &q);
    }
    mb_jobj_array(o, "placement", &places);
    mb_jobj_int(o, "placement_listed", listed);
}
