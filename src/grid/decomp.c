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
