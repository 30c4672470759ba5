/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE /* sched_getaffinity, sched_getcpu */
#include "core/hardware.h"

#include "core/error.h"

#include <errno.h>
#include <hwloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct mb_hw_topology {
    hwloc_topology_t t;
};

/* GPU and accelerator discovery starts their drivers (seconds on some nodes) and says nothing
 * about MPI: left out (hwloc_topology_set_components, hwloc 2.1). */
static const char *const SKIPPED_COMPONENTS[] = {"opencl", "gl",   "cuda",
                                                 "nvml",   "rsmi", "levelzero"};

struct mb_hw_topology *mb_hw_open(char *note)
{
    hwloc_topology_t t;
    struct mb_hw_topology *h;

    note[0] = '\0';
    if (hwloc_topology_init(&t) != 0) {
        snprintf(note, MB_HW_NOTE_LEN, "hwloc could not start (%s)", strerror(errno));
        return NULL;
    }
    /* Network and InfiniBand devices are OS devices under PCI: kept (the default drops I/O). */
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    for (size_t i = 0; i < sizeof SKIPPED_COMPONENTS / sizeof *SKIPPED_COMPONENTS; i++)
        (void)hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST,
                                            SKIPPED_COMPONENTS[i]);
    if (hwloc_topology_load(t) != 0) {
        snprintf(note, MB_HW_NOTE_LEN, "hwloc could not read the topology (%s)", strerror(errno));
        hwloc_topology_destroy(t);
        return NULL;
    }
    h = mb_xmalloc(sizeof *h);
    h->t = t;
    return h;
}

void mb_hw_close(struct mb_hw_topology *t)
{
    if (t) {
        hwloc_topology_destroy(t->t);
        free(t);
    }
}

/* The first line of a sysfs file as a number; -1 when absent or not a number (a virtual
 * interface's speed reads as -1 or fails with EINVAL). */
static long long sysfs_number(const char *path)
{
    FILE *f = fopen(path, "r");
    long long v = -1;
    double d;

    if (!f)
        return -1;
    if (fscanf(f, "%lf", &d) == 1 && d > 0)
        v = (long long)d;
    fclose(f);
    return v;
}

/* The link speed the OS gives for an OS device, in Mb/s: /sys/class/net/NAME/speed (Mb/s),
 * or an InfiniBand port's rate, "100 Gb/sec (4X EDR)" (/sys/class/infiniband/NAME/ports/1). */
static long long link_speed(const hwloc_obj_t o)
{
    char path[160];
    long long v;

    if (o->attr->osdev.type == HWLOC_OBJ_OSDEV_NETWORK) {
        snprintf(path, sizeof path, "/sys/class/net/%s/speed", o->name);
        return sysfs_number(path);
    }
    snprintf(path, sizeof path, "/sys/class/infiniband/%s/ports/1/rate", o->name);
    v = sysfs_number(path);
    return v > 0 ? v * 1000 : -1;
}

static void devices(hwloc_topology_t t, struct mb_hw_host *h)
{
    hwloc_obj_t o = NULL;

    while ((o = hwloc_get_next_osdev(t, o)) != NULL) {
        struct mb_hw_nic *n;
        if (o->attr->osdev.type != HWLOC_OBJ_OSDEV_NETWORK &&
            o->attr->osdev.type != HWLOC_OBJ_OSDEV_OPENFABRICS)
            continue;
        if (h->nnics == MB_HW_NICS) {
            h->more_nics++;
            continue;
        }
        n = &h->nics[h->nnics++];
        snprintf(n->name, sizeof n->name, "%s", o->name ? o->name : "?");
        snprintf(n->kind, sizeof n->kind, "%s",
                 o->attr->osdev.type == HWLOC_OBJ_OSDEV_NETWORK ? "network" : "openfabrics");
        n->speed_mbps = o->name ? link_speed(o) : -1;
    }
}

static void caches(hwloc_topology_t t, struct mb_hw_host *h)
{
    static const hwloc_obj_type_t levels[MB_HW_CACHE_LEVELS] = {
        HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L4CACHE};

    for (int i = 0; i < MB_HW_CACHE_LEVELS; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(t, levels[i], 0);
        if (!o || o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION)
            continue;
        h->cache_bytes[i] = (long long)o->attr->cache.size;
        h->cache_line = (int)o->attr->cache.linesize;
    }
}

void mb_hw_describe(const struct mb_hw_topology *topo, struct mb_hw_host *h, const char *note)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

    memset(h, 0, sizeof *h);
    snprintf(h->note, sizeof h->note, "%s", note ? note : "");
    /* The OS's total (MemTotal), not the NUMA nodes' sum: a virtual machine's hot-added
     * memory can lie outside every node (11 of 24 GiB in node 0 on the machine of
     * docs/figures.md). */
    h->memory_bytes = pages > 0 && size > 0 ? (long long)pages * size : 0;
    if (!topo)
        return;
    hwloc_topology_t t = topo->t;
    hwloc_obj_t pkg = hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, 0);
    const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;

    if (!model)
        model = hwloc_obj_get_info_by_name(hwloc_get_root_obj(t), "CPUModel");
    snprintf(h->cpu_model, sizeof h->cpu_model, "%s", model ? model : "");
    h->packages = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
    h->cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
    h->pus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
    h->numa_nodes = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
    caches(t, h);
    devices(t, h);
    if (!h->note[0] && (!h->cpu_model[0] || !h->packages || !h->cores || !h->cache_bytes[0]))
        snprintf(h->note, sizeof h->note, "hwloc gave no %s",
                 !h->cpu_model[0] ? "CPU model"
                 : !h->packages   ? "packages"
                 : !h->cores      ? "cores"
                                  : "caches");
}

void mb_hw_my_mask(struct mb_hw_mask *m, int *cpu)
{
    cpu_set_t set;

    memset(m, 0, sizeof *m);
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = 0; c < CPU_SETSIZE && c < 64 * MB_HW_MASK_WORDS; c++)
            if (CPU_ISSET(c, &set))
                m->bits[c / 64] |= 1ull << (c % 64);
    *cpu = sched_getcpu();
}

/* The one object of this type whose CPUs meet set (its logical index), -1 for none or
 * several; *n counts them. */
static int the_one(hwloc_topology_t t, hwloc_obj_type_t type, hwloc_const_bitmap_t set, int *n)
{
    hwloc_obj_t o = NULL;
    int found = -1;

    *n = 0;
    while ((o = hwloc_get_next_obj_by_type(t, type, o)) != NULL)
        if (o->cpuset && hwloc_bitmap_intersects(o->cpuset, set)) {
            (*n)++;
            found = (int)o->logical_index;
        }
    return *n == 1 ? found : -1;
}

void mb_hw_locate(const struct mb_hw_topology *topo, const struct mb_hw_mask *m, int cpu,
                  struct mb_hw_place *p)
{
    hwloc_bitmap_t set;
    int n;

    p->core = p->numa = p->package = -1;
    p->ncores = p->npus = 0;
    p->cpu = cpu;
    p->host = -1;
    for (int w = 0; w < MB_HW_MASK_WORDS; w++)
        p->npus += __builtin_popcountll(m->bits[w]);
    if (!topo || p->npus == 0)
        return;
    set = hwloc_bitmap_alloc();
    if (!set)
        return;
    for (int c = 0; c < 64 * MB_HW_MASK_WORDS; c++)
        if (m->bits[c / 64] >> (c % 64) & 1ull)
            hwloc_bitmap_set(set, (unsigned)c);
    p->core = the_one(topo->t, HWLOC_OBJ_CORE, set, &p->ncores);
    p->numa = the_one(topo->t, HWLOC_OBJ_NUMANODE, set, &n);
    p->package = the_one(topo->t, HWLOC_OBJ_PACKAGE, set, &n);
    hwloc_bitmap_free(set);
}

void mb_hw_last_cache(const struct mb_hw_host *h, unsigned long long *size,
                      unsigned long long *line)
{
    *size = 8ull * 1024 * 1024;
    *line = 64;
    for (int i = MB_HW_CACHE_LEVELS - 1; h && i >= 0; i--)
        if (h->cache_bytes[i] > 0) {
            *size = (unsigned long long)h->cache_bytes[i];
            break;
        }
    if (h && h->cache_line > 0)
        *line = (unsigned long long)h->cache_line;
}
