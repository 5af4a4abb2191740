/* Slab decomposition and the ceil index rule (GP-3 in docs/GNUPLOT.md). */
#include "pv_test.h"
#include "pvox/grid.h"

#include <math.h>
#include <stdlib.h>

static void check_decomp(int64_t n, int p)
{
    int64_t next = 0, minp = n, maxp = 0;
    for (int r = 0; r < p; r++) {
        int64_t z0, z1;
        pv_decomp_slab(n, p, r, &z0, &z1);
        PV_CHECK_EQ(z0, next);
        next = z1;
        if (z1 - z0 < minp) minp = z1 - z0;
        if (z1 - z0 > maxp) maxp = z1 - z0;
        for (int64_t iz = z0; iz < z1; iz++)
            if (pv_decomp_owner(n, p, iz) != r) {
                PV_CHECK_EQ(pv_decomp_owner(n, p, iz), r);
                return;
            }
    }
    PV_CHECK_EQ(next, n);
    PV_CHECK(maxp - minp <= 1);
}

static pv_grid axis_grid(int64_t n, double lo, double hi)
{
    pv_grid g = {0};
    g.n = n;
    for (int a = 0; a < 3; a++) {
        g.min[a] = lo;
        g.max[a] = hi;
        g.delta[a] = (hi - lo) / (double)(n - 1);
    }
    return g;
}

int main(void)
{
    int64_t sizes[] = {1, 2, 3, 7, 10, 25, 100, 101, 1024};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int p = 1; p <= 9; p++)
            if (sizes[i] >= p)
                check_decomp(sizes[i], p);
    /* 2^31 < n^3: indices must not overflow int */
    check_decomp(4096, 64);
    check_decomp((int64_t)1 << 20, 7);

    /* GP-3: grid [0:10], N=11: 2.0001, 2.9999, 3.0 -> 3; 3.0001 -> 4 */
    pv_grid g = axis_grid(11, 0, 10);
    int64_t i = -1;
    PV_CHECK(pv_grid_axis_index(&g, 0, 2.0001, &i) && i == 3);
    PV_CHECK(pv_grid_axis_index(&g, 0, 2.9999, &i) && i == 3);
    PV_CHECK(pv_grid_axis_index(&g, 0, 3.0, &i) && i == 3);
    PV_CHECK(pv_grid_axis_index(&g, 0, 3.0001, &i) && i == 4);
    PV_CHECK(!pv_grid_axis_index(&g, 0, -0.001, &i));
    PV_CHECK(!pv_grid_axis_index(&g, 0, 10.0000001, &i));
    PV_CHECK(!pv_grid_axis_index(&g, 0, NAN, &i));
    /* grid [0:1], N=11: 0.3 -> 3 but 3*0.1 -> 4; 0.25 -> 3; 1.0 -> 10 */
    g = axis_grid(11, 0, 1);
    PV_CHECK(pv_grid_axis_index(&g, 0, 0.3, &i) && i == 3);
    PV_CHECK(pv_grid_axis_index(&g, 0, 3 * 0.1, &i) && i == 4);
    PV_CHECK(pv_grid_axis_index(&g, 0, 0.25, &i) && i == 3);
    PV_CHECK(pv_grid_axis_index(&g, 0, 1.0, &i) && i == 10);
    PV_CHECK(!pv_grid_axis_index(&g, 0, 1.0000001, &i));
    /* reversed range: nothing is inside (GP-2) */
    g = axis_grid(11, 10, 0);
    PV_CHECK(!pv_grid_axis_index(&g, 0, 5, &i));
    /* unset ranges: nothing is inside, no crash (DEC-6 handled by callers) */
    g = axis_grid(11, NAN, NAN);
    PV_CHECK(!pv_grid_axis_index(&g, 0, 0, &i));
    return pv_test_result("grid_decomp");
}
