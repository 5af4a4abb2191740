/*
 * pvox settings: tag-ordered lists of numbered items (`set label`, `set object`,
 * `set arrow`). Each item starts with its `int tag`; the lists stay sorted by tag, as
 * gnuplot keeps them (show lists them in tag order, a new item takes a free tag).
 */
#include "settings_int.h"

#include <string.h>

static int tag_at(const void *items, size_t size, int k)
{
    int tag;
    memcpy(&tag, (const char *)items + (size_t)k * size, sizeof tag);
    return tag;
}

int sp_tag_find(const void *items, int n, size_t size, int tag)
{
    for (int k = 0; k < n; k++)
        if (tag_at(items, size, k) == tag) return k;
    return -1;
}

int sp_tag_lowest_free(const void *items, int n, size_t size)
{
    int tag = 1;
    while (sp_tag_find(items, n, size, tag) >= 0) tag++;
    return tag;
}

pv_status sp_tag_insert(pv_ctx *ctx, void **items, int *n, size_t *cap, size_t size,
                        const void *item)
{
    if (!pv_grow(ctx, items, cap, (size_t)*n + 1, size)) return ctx->err_code;
    int tag;
    memcpy(&tag, item, sizeof tag);
    int k = *n;
    while (k > 0 && tag_at(*items, size, k - 1) > tag) k--;
    char *base = *items;
    memmove(base + ((size_t)k + 1) * size, base + (size_t)k * size, (size_t)(*n - k) * size);
    memcpy(base + (size_t)k * size, item, size);
    (*n)++;
    return PV_OK;
}

void sp_tag_remove(void *items, int *n, size_t size, int k)
{
    char *base = items;
    memmove(base + (size_t)k * size, base + ((size_t)k + 1) * size, (size_t)(*n - k - 1) * size);
    (*n)--;
}

pv_status sp_tag_store(pv_ctx *ctx, void **items, int *n, size_t *cap, size_t size, int at,
                       const void *item)
{
    if (at < 0) return sp_tag_insert(ctx, items, n, cap, size, item);
    memcpy((char *)*items + (size_t)at * size, item, size);
    return PV_OK;
}

pv_status sp_tag_unset(pv_sp *p, void *items, int *n, size_t size,
                       void (*fini_all)(pv_settings *), void (*fini_one)(void *))
{
    if (sp_end(p)) {
        if (p->exec) fini_all(p->s);
        return PV_OK;
    }
    int tag = 0;
    pv_status st = sp_int(p, &tag);
    if (st == PV_OK) st = sp_expect_end(p);
    if (st != PV_OK || !p->exec) return st;
    int k = sp_tag_find(items, *n, size, tag);
    if (k < 0) return PV_OK;
    if (fini_one) fini_one((char *)items + (size_t)k * size);
    sp_tag_remove(items, n, size, k);
    return PV_OK;
}
