/* SPDX-License-Identifier: BSD-3-Clause */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "core/provenance.h"

#include "core/error.h"
#include "core/hardware_report.h"
#include "mb_build_info.h"
#include "mb_version.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

enum { MAX_HOSTS_LISTED = 64 };

const char *mb_thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE:
        return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:
        return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
        return "MPI_THREAD_SERIALIZED";
    default:
        return "MPI_THREAD_MULTIPLE";
    }
}

/* "0-3,8" for the CPUs in mask. */
static void cpu_list(const cpu_set_t *mask, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE && used + 24 < len; c++) {
        int end = c;
        if (!CPU_ISSET(c, mask))
            continue;
        while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, mask))
            end++;
        used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "", c);
        if (end > c)
            used += (size_t)snprintf(buf + used, len - used, "-%d", end);
        c = end;
    }
}

void mb_host_comms(MPI_Comm comm, MPI_Comm *node, MPI_Comm *leaders)
{
    int rank, local_rank;

    MB_MPI(MPI_Comm_rank(comm, &rank));
    MB_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, node));
    MB_MPI(MPI_Comm_rank(*node, &local_rank));
    MB_MPI(MPI_Comm_split(comm, local_rank == 0 ? 0 : MPI_UNDEFINED, rank, leaders));
}

static void host_table(struct mb_provenance *p, MPI_Comm comm, int rank)
{
    MPI_Comm node, leaders;
    int local_rank, local_size, nleaders = 0;
    char name[MPI_MAX_PROCESSOR_NAME] = {0};
    int namelen;

    mb_host_comms(comm, &node, &leaders);
    MB_MPI(MPI_Comm_rank(node, &local_rank));
    MB_MPI(MPI_Comm_size(node, &local_size));
    MB_MPI(MPI_Get_processor_name(name, &namelen));
    /* One leader per node sends the node's name and size, so the cost grows with the number
     * of nodes, not of ranks. */
    if (leaders != MPI_COMM_NULL) {
        char *names = NULL;
        int *sizes = NULL;
        MB_MPI(MPI_Comm_size(leaders, &nleaders));
        if (rank == 0) {
            names = mb_xmalloc((size_t)nleaders * MPI_MAX_PROCESSOR_NAME);
            sizes = mb_xmalloc((size_t)nleaders * sizeof *sizes);
        }
        MB_MPI(MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME,
                          MPI_CHAR, 0, leaders));
        MB_MPI(MPI_Gather(&local_size, 1, MPI_INT, sizes, 1, MPI_INT, 0, leaders));
        if (rank == 0) {
            size_t cap = (size_t)MAX_HOSTS_LISTED * (MPI_MAX_PROCESSOR_NAME + 16) + 8, used = 0;
            p->hosts = mb_xmalloc(cap);
            p->hosts[0] = '\0';
            p->nhosts = nleaders;
            p->ranks_per_host_min = p->ranks_per_host_max = sizes[0];
            for (int i = 0; i < nleaders; i++) {
                if (sizes[i] < p->ranks_per_host_min)
                    p->ranks_per_host_min = sizes[i];
                if (sizes[i] > p->ranks_per_host_max)
                    p->ranks_per_host_max = sizes[i];
                if (i < MAX_HOSTS_LISTED)
                    used += (size_t)snprintf(p->hosts + used, cap - used, "%s%.*s:%d", i ? "," : "",
                                             MPI_MAX_PROCESSOR_NAME,
                                             names + (size_t)i * MPI_MAX_PROCESSOR_NAME, sizes[i]);
                else if (i == MAX_HOSTS_LISTED)
                    used += (size_t)snprintf(p->hosts + used, cap - used, ",...");
            }
            /* Memory per process: this node's physical memory shared by its ranks. */
            p->mem_per_proc = (unsigned long long)sysconf(_SC_PHYS_PAGES) *
                              (unsigned long long)sysconf(_SC_PAGESIZE) / (unsigned)local_size;
        }
        p->host_names = names; /* rank 0's; NULL elsewhere */
        free(sizes);
    }
    mb_hw_gather(&p->hw, comm, node, leaders);
    if (leaders != MPI_COMM_NULL)
        MB_MPI(MPI_Comm_free(&leaders));
    MB_MPI(MPI_Comm_free(&node));
}

/* ISO 8601 local time with the offset from UTC, "2026-11-25T21:23:57+01:00" (RFC 3339's form:
 * strftime's %z has no colon). */
static void iso_date(const struct tm *tm, char *buf, size_t len)
{
    char zone[8] = "+0000";

    strftime(buf, len, "%Y-%m-%dT%H:%M:%S", tm);
    strftime(zone, sizeof zone, "%z", tm);
    if (strlen(zone) == 5)
        snprintf(buf + strlen(buf), len - strlen(buf), "%.3s:%.2s", zone, zone + 3);
    else
        snprintf(buf + strlen(buf), len - strlen(buf), "Z");
}

void mb_provenance_gather(struct mb_provenance *p, MPI_Comm comm)
{
    int rank, bound = 0, len = 0;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    cpu_set_t mask;

    memset(p, 0, sizeof *p);
    MB_MPI(MPI_Comm_rank(comm, &rank));
    MB_MPI(MPI_Comm_size(comm, &p->nprocs));
    MB_MPI(MPI_Get_version(&p->mpi_version, &p->mpi_subversion));
    MB_MPI(MPI_Query_thread(&p->thread_level));
    mb_clock_describe(&p->clock);

    CPU_ZERO(&mask);
    if (sched_getaffinity(0, sizeof mask, &mask) == 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        bound = online > 0 && CPU_COUNT(&mask) < online;
        if (rank == 0)
            cpu_list(&mask, p->binding, sizeof p->binding);
    } else if (rank == 0) {
        snprintf(p->binding, sizeof p->binding, "unknown");
    }
    MB_MPI(MPI_Reduce(&bound, &p->bound_ranks, 1, MPI_INT, MPI_SUM, 0, comm));
    host_table(p, comm, rank);

    if (rank == 0) {
        struct utsname u;
        time_t now = time(NULL);
        char *nl;
        if (uname(&u) == 0) {
            snprintf(p->machine, sizeof p->machine, "%s", u.machine);
            snprintf(p->sysname, sizeof p->sysname, "%s", u.sysname);
            snprintf(p->release, sizeof p->release, "%s", u.release);
            snprintf(p->version, sizeof p->version, "%s", u.version);
            snprintf(p->nodename, sizeof p->nodename, "%s", u.nodename);
        }
        struct tm tm;
        localtime_r(&now, &tm);
        snprintf(p->date, sizeof p->date, "%s", asctime(&tm));
        if ((nl = strchr(p->date, '\n')) != NULL)
            *nl = '\0';
        iso_date(&tm, p->iso_date, sizeof p->iso_date);
        MB_MPI(MPI_Get_library_version(lib, &len));
        lib[sizeof lib - 1] = '\0';
        p->mpi_library_report = mb_xstrdup(lib);
        if ((nl = strchr(lib, '\n')) != NULL)
            *nl = '\0';
        snprintf(p->mpi_library, sizeof p->mpi_library, "%.255s", lib);
        mb_slurm_env_read(&p->slurm);
        p->env = mb_mpi_env_read(&p->nenv);
    }
}

void mb_provenance_free(struct mb_provenance *p)
{
    free(p->hosts);
    p->hosts = NULL;
    free(p->host_names);
    p->host_names = NULL;
    mb_hw_report_free(&p->hw);
    mb_mpi_env_free(p->env, p->nenv);
    p->env = NULL;
    p->nenv = 0;
    free(p->mpi_library_report);
    p->mpi_library_report = NULL;
    mb_slurm_env_free(&p->slurm);
}

/* The MPI whose headers this binary was compiled with (the library it runs with may differ). */
static void mpi_headers(char *buf, size_t len)
{
#if defined(OMPI_MAJOR_VERSION)
    snprintf(buf, len, "Open MPI %d.%d.%d", OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
             OMPI_RELEASE_VERSION);
#elif defined(MPICH_VERSION)
    snprintf(buf, len, "MPICH %s", MPICH_VERSION);
#else
    snprintf(buf, len, "MPI %d.%d", MPI_VERSION, MPI_SUBVERSION);
#endif
}

/* The lines of the library's own report after its first that say how it was built (MPICH:
 * "MPICH Device:", "MPICH configure:"), tabs as spaces; "" when it gives none (Open MPI). */
static void library_configuration(const char *report, const struct mb_out *out)
{
    const char *line = report ? strchr(report, '\n') : NULL;
    int shown = 0;

    while (line && *line) {
        const char *end = strchr(++line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        const char *colon = memchr(line, ':', n);
        if (colon && (memmem(line, (size_t)(colon - line), "Device", 6) ||
                      memmem(line, (size_t)(colon - line), "configure", 9))) {
            mb_printf(out, "%s",
                      shown++ ? "\n#                         " : "# MPI configuration     : ");
            for (size_t i = 0; i < n; i++)
                mb_printf(out, "%c", line[i] == '\t' ? ' ' : line[i]);
        }
        line = end;
    }
    if (shown)
        mb_printf(out, "\n");
}

void mb_provenance_text(const struct mb_provenance *p, const struct mb_out *out)
{
    const struct mb_hw_names names = {p->host_names, MPI_MAX_PROCESSOR_NAME, p->nhosts};
    char headers[64];

    mpi_headers(headers, sizeof headers);
    mb_printf(out, "# mpibench              : %s (git %s)\n", MB_VERSION, MB_GIT_COMMIT);
    mb_printf(out, "# Compiled with         : %s, %s (%s build; MPI headers %s)\n", MB_COMPILER,
              MB_COMPILER_FLAGS, MB_BUILD_TYPE, headers);
    mb_printf(out, "# MPI library           : %s\n", p->mpi_library);
    library_configuration(p->mpi_library_report, out);
    mb_printf(out, "# MPI environment       : ");
    for (size_t i = 0; i < p->nenv; i++)
        mb_printf(out, "%s%s=%s", i ? " " : "", p->env[i].name, p->env[i].value);
    mb_printf(out, "%s\n", p->nenv ? "" : "none set");
    mb_printf(out, "# Processes             : %d on %d host%s (%d..%d per host)\n", p->nprocs,
              p->nhosts, p->nhosts == 1 ? "" : "s", p->ranks_per_host_min, p->ranks_per_host_max);
    mb_printf(out, "# Hosts                 : %s\n", p->hosts ? p->hosts : "");
    mb_slurm_env_text(&p->slurm, out);
    mb_hw_text(&p->hw, &names, out);
    mb_printf(out, "# Memory per process    : %.1f MB\n", (double)p->mem_per_proc / 1048576.0);
    mb_placement_text(&p->hw, &names, out);
    mb_printf(out, "# Timer                 : MPI_Wtime, resolution %.3g s, %s\n", p->clock.tick,
              p->clock.is_global ? "global (MPI_WTIME_IS_GLOBAL)" : "not global");
}

void mb_provenance_json(const struct mb_provenance *p, struct mb_jobj *o)
{
    const struct mb_hw_names names = {p->host_names, MPI_MAX_PROCESSOR_NAME, p->nhosts};
    struct mb_jobj env;
    char v[64], *text;

    mb_jobj_str(o, "mpibench_version", MB_VERSION);
    mb_jobj_str(o, "git_commit", MB_GIT_COMMIT);
    mb_jobj_str(o, "compiler", MB_COMPILER);
    mb_jobj_str(o, "compiler_flags", MB_COMPILER_FLAGS);
    mb_jobj_str(o, "build_type", MB_BUILD_TYPE);
    mpi_headers(v, sizeof v);
    mb_jobj_str(o, "mpi_headers", v);
    mb_jobj_str(o, "date", p->iso_date);
    mb_jobj_str(o, "machine", p->machine);
    mb_jobj_str(o, "system", p->sysname);
    mb_jobj_str(o, "release", p->release);
    mb_jobj_str(o, "os_version", p->version);
    mb_jobj_str(o, "mpi_library", p->mpi_library);
    mb_jobj_str(o, "mpi_library_report", p->mpi_library_report);
    snprintf(v, sizeof v, "%d.%d", p->mpi_version, p->mpi_subversion);
    mb_jobj_str(o, "mpi_version", v);
    mb_jobj_init(&env);
    for (size_t i = 0; i < p->nenv; i++)
        mb_jobj_str(&env, p->env[i].name, p->env[i].value);
    text = mb_jobj_take(&env);
    mb_jobj_raw(o, "mpi_environment", text);
    free(text);
    mb_jobj_str(o, "thread_level", mb_thread_level_name(p->thread_level));
    mb_jobj_int(o, "processes", p->nprocs);
    mb_jobj_int(o, "hosts", p->nhosts);
    mb_jobj_str(o, "host_list", p->hosts ? p->hosts : "");
    mb_slurm_env_json(&p->slurm, o);
    mb_jobj_int(o, "ranks_per_host_min", p->ranks_per_host_min);
    mb_jobj_int(o, "ranks_per_host_max", p->ranks_per_host_max);
    mb_jobj_int(o, "memory_per_process_bytes", (long long)p->mem_per_proc);
    mb_jobj_str(o, "binding_rank0", p->binding);
    mb_jobj_int(o, "bound_ranks", p->bound_ranks);
    mb_hw_json(&p->hw, &names, o);
    mb_jobj_num(o, "timer_resolution_sec", p->clock.tick);
    mb_jobj_bool(o, "timer_is_global", p->clock.is_global);
}

unsigned long long mb_peak_rss(MPI_Comm comm)
{
    struct rusage ru;
    unsigned long long mine = 0, most = 0;

    if (getrusage(RUSAGE_SELF, &ru) == 0)
        mine = (unsigned long long)ru.ru_maxrss * 1024ull; /* Linux reports kB */
    MB_MPI(MPI_Allreduce(&mine, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm));
    return most;
}

void mb_provenance_imb_lines(const struct mb_provenance *p, const struct mb_out *out)
{
    mb_printf(out, "# Date                  : %s\n", p->date);
    mb_printf(out, "# Machine               : %s\n", p->machine);
    mb_printf(out, "# System                : %s\n", p->sysname);
    mb_printf(out, "# Release               : %s\n", p->release);
    mb_printf(out, "# Version               : %s\n", p->version);
    mb_printf(out, "# MPI Version           : %d.%d\n", p->mpi_version, p->mpi_subversion);
    mb_printf(out, "# MPI Thread Environment: %s\n", mb_thread_level_name(p->thread_level));
}
