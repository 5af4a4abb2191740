/*
 * The mesh writer's open-addressing hash (mesh_int.h): uint64 keys, two int64 values a
 * slot, linear probing, grown to keep the load below one half; PV_MESH_NO_EDGE marks an
 * empty slot. Tracked memory (pv_alloc). A leaf: the writer keeps edge id -> point index
 * in one, the edge-id exchange keeps id -> (lowest holder, global index) in another.
 */
#include "mesh_int.h"

#include <string.h>

uint64_t pv_mesh_mix(uint64_t x)
{
    /* multiplicative hashing by the 64-bit golden ratio, with the high bits folded down
     * twice so that the low bits (the table index) depend on every bit of an edge id */
    x *= 0x9e3779b97f4a7c15ULL;
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ULL;
    x ^= x >> 29;
    return x;
}

bool pv_mesh_hash_init(pv_ctx *ctx, mesh_hash *h, size_t cap)
{
    size_t c = 64;
    while (c < cap) c *= 2;
    size_t kb, vb;
    if (!pv_mul_size(c, sizeof *h->key, &kb) || !pv_mul_size(c, 2 * sizeof *h->val, &vb)) {
        pv_err(ctx, PV_ENOMEM, "out of memory");
        return false;
    }
    uint64_t *key = pv_alloc(ctx, kb);
    int64_t *val = key ? pv_alloc(ctx, vb) : NULL;
    if (!val) {
        pv_free(ctx, key, kb);
        return false;
    }
    memset(key, 0xff, kb); /* every slot PV_MESH_NO_EDGE */
    *h = (mesh_hash){key, val, c, 0};
    return true;
}

void pv_mesh_hash_free(pv_ctx *ctx, mesh_hash *h)
{
    pv_free(ctx, h->key, h->cap * sizeof *h->key);
    pv_free(ctx, h->val, h->cap * 2 * sizeof *h->val);
    memset(h, 0, sizeof *h);
}

int64_t pv_mesh_hash_find(const mesh_hash *h, uint64_t key)
{
    if (!h->cap) return -1;
    size_t mask = h->cap - 1;
    for (size_t s = (size_t)pv_mesh_mix(key) & mask;; s = (s + 1) & mask) {
        if (h->key[s] == key) return (int64_t)s;
        if (h->key[s] == PV_MESH_NO_EDGE) return -1;
    }
}

int64_t pv_mesh_hash_slot(pv_ctx *ctx, mesh_hash *h, uint64_t key, bool *isnew)
{
    *isnew = false;
    if (2 * (h->n + 1) > h->cap) {
        mesh_hash g;
        if (!pv_mesh_hash_init(ctx, &g, h->cap ? 2 * h->cap : 64)) return -1;
        for (size_t s = 0; s < h->cap; s++) {
            if (h->key[s] == PV_MESH_NO_EDGE) continue;
            size_t t = (size_t)pv_mesh_mix(h->key[s]) & (g.cap - 1);
            while (g.key[t] != PV_MESH_NO_EDGE) t = (t + 1) & (g.cap - 1);
            g.key[t] = h->key[s];
            g.val[2 * t] = h->val[2 * s];
            g.val[2 * t + 1] = h->val[2 * s + 1];
        }
        g.n = h->n;
        pv_mesh_hash_free(ctx, h);
        *h = g;
    }
    size_t mask = h->cap - 1;
    size_t s = (size_t)pv_mesh_mix(key) & mask;
    while (h->key[s] != key && h->key[s] != PV_MESH_NO_EDGE) s = (s + 1) & mask;
    if (h->key[s] == PV_MESH_NO_EDGE) {
        h->key[s] = key;
        h->val[2 * s] = h->val[2 * s + 1] = -1;
        h->n++;
        *isnew = true;
    }
    return (int64_t)s;
}
