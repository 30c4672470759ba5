/* SPDX-License-Identifier: BSD-3-Clause */
/* IMB-IO's message buffers as IMB 3.1's program keeps them (-buf_scope run, the default;
 * docs/adr/program-imb-io-buffers.md): one send and one receive buffer per process for the
 * whole run, grown for every message length that needs more (the old one freed, a larger one
 * allocated: IMB_mem_manager.c, IMB_alloc_buf and IMB_set_buf, called from
 * IMB_init_buffers_iter), never shrunk, kept from one benchmark to the next; the send buffer
 * also carries a read benchmark's file content and is freed after it (IMB_init_file.c,
 * IMB_del_s_buf). Where glibc places a buffer - a mapping of its own, the data 16 bytes into
 * a page, or the heap - follows from that sequence of sizes and frees (its dynamic mmap
 * threshold), and a read into a buffer 16 bytes into a page runs at half the speed on this
 * project's machine (the kernel's copy into it). */
#ifndef MB_IMB_IO_BUFFERS_H
#define MB_IMB_IO_BUFFERS_H

#include "core/buffers.h"

#include <stddef.h>

struct mb_imb_io_buffers {
    enum mb_buf_source src;
    char *s, *r;
    size_t s_alloc, r_alloc; /* 0: none */
};

void mb_imb_io_buffers_init(struct mb_imb_io_buffers *b, enum mb_buf_source src);

/* The bytes IMB 3.1 allocates for a length of x bytes: whole ints, at least one
 * (IMB_init_buffers_iter's max(size, asize), rounded up by IMB_set_buf). */
size_t mb_imb_io_buffer_len(long long x);

/* One buffer kept from length to length, at least want bytes long, as IMB 3.1's IMB_alloc_buf
 * grows it: a buffer that holds want stays (an absent one stays absent for 0 bytes); otherwise
 * the old one is freed before the new one is allocated - the order decides where the allocator
 * puts it. Returns 1 when it allocated (*have is then want, or 0 where the allocation was
 * refused), 0 when the buffer stayed. Also the IMB-MPI1/IMB-EXT pool's (imb_driver.c). */
int mb_imb_buf_grow(enum mb_buf_source src, char **p, size_t *have, size_t want);

/* Grows the send buffer to s bytes and then the receive buffer to r bytes where they are
 * smaller, in IMB_alloc_buf's order (free the old one, allocate the new one). Returns 0 if an
 * allocation was refused; that buffer is then absent (size 0), and a later call tries again. */
int mb_imb_io_buffers_grow(struct mb_imb_io_buffers *b, size_t s, size_t r);

/* IMB_del_s_buf: frees the send buffer. */
void mb_imb_io_buffers_drop_send(struct mb_imb_io_buffers *b);

/* The end of the run (IMB_free_all). */
void mb_imb_io_buffers_free(struct mb_imb_io_buffers *b);

#endif
