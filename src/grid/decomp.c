/*
 * Slab decomposition of an n-plane grid over nranks ranks: contiguous z ranges balanced to
 * within one plane (the first n % nranks ranks take one extra plane). Pure arithmetic, so
 * every rank computes every other rank's slab without messages.
 */
#include "pvox/grid.h"

void pv_decomp_slab(int64_t n, int nranks, int rank, int64_t *z0, int64_t *z1)
{
    int64_t base = n / nranks, extra = n % nranks;
    int64_t r = rank;
    *z0 = r * base + (r < extra ? r : extra);
    *z1 = *z0 + base + (r < extra ? 1 : 0);
}

int pv_decomp_owner(int64_t n, int nranks, int64_t iz)
{
    int64_t base = n / nranks, extra = n % nranks;
    int64_t big = extra * (base + 1); /* planes held by the ranks with one extra */
    if (iz < big)
        return (int)(iz / (base + 1));
    return (int)(extra + (iz - big) / base);
}

bool pv_decomp_slab_bytes(int64_t n, int nranks, int rank, size_t *bytes)
{
    int64_t z0, z1;
    pv_decomp_slab(n, nranks, rank, &z0, &z1);
    size_t plane;
    return pv_mul_size((size_t)n, (size_t)n, &plane) && pv_mul_size(plane, sizeof(float), &plane) &&
           pv_mul_size(plane, (size_t)(z1 - z0), bytes);
}
