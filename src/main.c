/* SPDX-License-Identifier: BSD-3-Clause */
/* mpibench: dispatch only (docs/architecture.md, property 10). The suite is chosen from argv[0]
 * (IMB-MPI1, b_eff, com, ...) or from the first argument of `mpibench <suite>`; the tools
 * that only read results (`mpibench plot`, `mpibench compare`) run without MPI. */
#include "core/options.h"
#include "core/scratch.h"
#include "core/suite.h"
#include "core/thread_level.h"
#include "results/tools.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int status;

    /* The scratch janitor, this program run anew by a rank (core/scratch.h): before MPI_Init,
     * before any parsing. */
    if (mb_scratch_janitor_main(argc, argv) >= 0)
        return 2;
    if (argc > 1 && strcmp(mb_basename(argv[0]), "mpibench") == 0) {
        status = mb_tool_main(argc - 1, argv + 1);
        if (status >= 0)
            return status;
    }
    /* As the suite's original program initialised MPI (MPI_Init, or MPI_Init_thread for the
     * IMB programs), unless --thread-level says otherwise: the level asked for changes what
     * some libraries' message paths cost (core/thread_level.h). */
    if (mb_thread_level_init(mb_thread_level_wanted(argc, argv), &argc, &argv) != MPI_SUCCESS) {
        fprintf(stderr, "mpibench: MPI_Init failed\n");
        return 1;
    }
    status = mpibench_run(argc, argv, MPI_COMM_WORLD, stdout);
    MPI_Finalize();
    return status;
}
