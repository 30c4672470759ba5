/* SPDX-License-Identifier: BSD-3-Clause */
#include "imb/imb_io_buffers.h"

#include "imb/imb_settings.h"

void mb_imb_io_buffers_init(struct mb_imb_io_buffers *b, enum mb_buf_source src)
{
    b->src = src;
    b->s = b->r = NULL;
    b->s_alloc = b->r_alloc = 0;
}

size_t mb_imb_io_buffer_len(long long x)
{
    const size_t unit = MB_IMB_IO_ASSIGN_SIZE;
    const size_t n = x > (long long)unit ? (size_t)x : unit;
    return (n + unit - 1) / unit * unit;
}

int mb_imb_buf_grow(enum mb_buf_source src, char **p, size_t *have, size_t want)
{
    if (*have >= want)
        return 0;
    mb_buf_free_from(src, *p, *have); /* nothing where there is none */
    *p = mb_buf_alloc_from(src, want);
    *have = *p ? want : 0;
    return 1;
}

int mb_imb_io_buffers_grow(struct mb_imb_io_buffers *b, size_t s, size_t r)
{
    (void)mb_imb_buf_grow(b->src, &b->s, &b->s_alloc, s);
    (void)mb_imb_buf_grow(b->src, &b->r, &b->r_alloc, r);
    return b->s_alloc >= s && b->r_alloc >= r;
}

void mb_imb_io_buffers_drop_send(struct mb_imb_io_buffers *b)
{
    if (b->s_alloc > 0)
        mb_buf_free_from(b->src, b->s, b->s_alloc);
    b->s = NULL;
    b->s_alloc = 0;
}

void mb_imb_io_buffers_free(struct mb_imb_io_buffers *b)
{
    mb_imb_io_buffers_drop_send(b);
    if (b->r_alloc > 0)
        mb_buf_free_from(b->src, b->r, b->r_alloc);
    b->r = NULL;
    b->r_alloc = 0;
}
