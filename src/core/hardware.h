/* SPDX-License-Identifier: BSD-3-Clause */
/* What a host is and where a process runs on it, read with hwloc (the library Open MPI and
 * MPICH bind with): the CPU model, packages, cores, hardware threads, NUMA nodes, caches,
 * memory, the network and InfiniBand devices with their link speed where the OS gives one,
 * and, for a process's CPU mask, the core, NUMA node and package it is bound to.
 *
 * Only the lowest rank of each host opens the topology; the others send it their mask
 * (core/hardware_gather.c). Plain data of fixed size, so that it travels as MPI_BYTE. When
 * hwloc cannot read the topology the fields it did not read stay 0 or empty and `note` says
 * why: never an abort. */
#ifndef MB_HARDWARE_H
#define MB_HARDWARE_H

enum {
    MB_HW_MODEL_LEN = 96,
    MB_HW_NICS = 6, /* devices listed per host */
    MB_HW_NIC_NAME = 32,
    MB_HW_CACHE_LEVELS = 4, /* L1d, L2, L3, L4 */
    MB_HW_NOTE_LEN = 112,
    MB_HW_MASK_WORDS = 16, /* CPU masks of up to 1024 CPUs, as glibc's cpu_set_t */
};

/* A process's CPU mask, bit c of word c / 64 for the OS's CPU c. */
struct mb_hw_mask {
    unsigned long long bits[MB_HW_MASK_WORDS];
};

struct mb_hw_nic {
    char name[MB_HW_NIC_NAME]; /* eth0, mlx5_0, hfi1_0 */
    char kind[16];             /* "network", "openfabrics" (InfiniBand, RoCE, Omni-Path) */
    long long speed_mbps;      /* the OS's link speed; -1 where it gives none */
};

struct mb_hw_host {
    char cpu_model[MB_HW_MODEL_LEN];
    int packages, cores, pus, numa_nodes;
    long long
        cache_bytes[MB_HW_CACHE_LEVELS]; /* one cache of each level (data or unified); 0: none */
    int cache_line;                      /* bytes, of the last level */
    long long memory_bytes;
    int nnics, more_nics; /* listed, and left out beyond MB_HW_NICS */
    struct mb_hw_nic nics[MB_HW_NICS];
    char note[MB_HW_NOTE_LEN]; /* empty, or what could not be read and why */
};

/* Where one process may run, in the host's terms; -1 for "not one" (bound wider, or unbound). */
struct mb_hw_place {
    int core;    /* logical index (hwloc's L#) of the one core its CPUs lie in */
    int numa;    /* the one NUMA node */
    int package; /* the one package (socket) */
    int ncores;  /* cores its mask touches */
    int npus;    /* hardware threads in its mask */
    int cpu;     /* the OS's CPU number it last ran on (sched_getcpu), -1 unknown */
    int host;    /* index of its host in the job's host list (set by the gatherer) */
};

struct mb_hw_topology; /* an opened hwloc topology */

/* Opens this host's topology (with its PCI network devices). NULL when hwloc failed; note
 * (MB_HW_NOTE_LEN) then says why. */
struct mb_hw_topology *mb_hw_open(char *note);
void mb_hw_close(struct mb_hw_topology *t);

/* The host's summary; t NULL gives the fields the OS alone gives (memory) and keeps note. */
void mb_hw_describe(const struct mb_hw_topology *t, struct mb_hw_host *h, const char *note);

/* This process's CPU mask and the CPU it runs on now (-1 unknown); an unreadable mask is
 * empty. */
void mb_hw_my_mask(struct mb_hw_mask *m, int *cpu);

/* Where a process with CPU mask m (last on CPU cpu) runs; t NULL: only npus and cpu. */
void mb_hw_locate(const struct mb_hw_topology *t, const struct mb_hw_mask *m, int cpu,
                  struct mb_hw_place *p);

/* The largest data or unified cache of host h and its line (IMB's -off_cache -1); a guess of
 * 8 MiB and 64 bytes where none was read (h NULL, or hwloc gave no caches). */
void mb_hw_last_cache(const struct mb_hw_host *h, unsigned long long *size,
                      unsigned long long *line);

#endif
