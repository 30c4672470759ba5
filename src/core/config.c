#include "core/config.h"

#include "core/error.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void mb_config_defaults(struct mb_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->suite = -1;
    cfg->imb.multi = -1;
    /* Presta 1.2's compile-time defaults (util.h; presta.md §1.1). */
    cfg->presta.start = 32;
    cfg->presta.stop = 8388608;
    cfg->presta.factor = 2;
    cfg->presta.samples = 1;
}

void mb_config_free(struct mb_config *cfg)
{
    free(cfg->prog);
    free(cfg->cmdline);
    free(cfg->common.json_path);
    free(cfg->common.output_dir);
    free(cfg->imb.msglen_file);
    free(cfg->imb.input_file);
    free(cfg->imb.lengths);
    free(cfg->imb.selected);
    free(cfg->beff.prefix);
    free(cfg->presta.count_file);
    free(cfg->presta.alloc);
    free(cfg->presta.sizes_file);
    free(cfg->presta.counts);
    free(cfg->presta.sizes);
    memset(cfg, 0, sizeof *cfg);
}

/* Broadcasts one heap block whose pointer lives in the struct: rank 0's pointer value is
 * meaningless elsewhere, so the length goes first (-1 for NULL) and the block follows. */
static void bcast_block(void **ptr, size_t bytes, MPI_Comm comm, int rank)
{
    long long len = (rank == 0) ? (*ptr ? (long long)bytes : -1) : 0;

    MB_MPI(MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, comm));
    if (rank != 0)
        *ptr = (len < 0) ? NULL : mb_xmalloc((size_t)len);
    if (len > 0) {
        /* Chunks below INT_MAX keep the count argument in range for any list length. */
        char *p = *ptr;
        for (long long off = 0; off < len; off += INT_MAX / 2) {
            long long chunk = len - off < INT_MAX / 2 ? len - off : INT_MAX / 2;
            MB_MPI(MPI_Bcast(p + off, (int)chunk, MPI_BYTE, 0, comm));
        }
    }
}

static void bcast_string(char **s, MPI_Comm comm, int rank)
{
    size_t len = (rank == 0 && *s) ? strlen(*s) + 1 : 0;
    bcast_block((void **)s, len, comm, rank);
}

void mb_config_bcast(struct mb_config *cfg, MPI_Comm comm)
{
    int rank;

    MB_MPI(MPI_Comm_rank(comm, &rank));
    MB_MPI(MPI_Bcast(cfg, (int)sizeof *cfg, MPI_BYTE, 0, comm));
    bcast_string(&cfg->prog, comm, rank);
    bcast_string(&cfg->cmdline, comm, rank);
    bcast_string(&cfg->common.json_path, comm, rank);
    bcast_string(&cfg->common.output_dir, comm, rank);
    bcast_string(&cfg->imb.msglen_file, comm, rank);
    bcast_string(&cfg->imb.input_file, comm, rank);
    bcast_block((void **)&cfg->imb.lengths, cfg->imb.n_lengths * sizeof *cfg->imb.lengths, comm,
                rank);
    bcast_string(&cfg->beff.prefix, comm, rank);
    bcast_block((void **)&cfg->imb.selected, cfg->imb.n_selected * sizeof *cfg->imb.selected, comm,
                rank);
    bcast_string(&cfg->presta.count_file, comm, rank);
    bcast_string(&cfg->presta.alloc, comm, rank);
    bcast_string(&cfg->presta.sizes_file, comm, rank);
    bcast_block((void **)&cfg->presta.counts, cfg->presta.n_counts * sizeof *cfg->presta.counts,
                comm, rank);
    bcast_block((void **)&cfg->presta.sizes, cfg->presta.n_sizes * sizeof *cfg->presta.sizes, comm,
                rank);
}
