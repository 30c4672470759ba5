/* mpibench: dispatch only (ARCHITECTURE property 10). The suite is chosen from argv[0]
 * (IMB-MPI1, b_eff, com, ...) or from the first argument of `mpibench <suite>`. */
#include "core/suite.h"

#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int provided, status;

    /* FUNNELED: the --timeout watchdog is a second thread that never calls MPI. */
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "mpibench: MPI_Init_thread failed\n");
        return 1;
    }
    status = mpibench_run(argc, argv, MPI_COMM_WORLD, stdout);
    MPI_Finalize();
    return status;
}
