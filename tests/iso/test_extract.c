/*
 * pv_iso_extract against a plain per-cell reference (iso_check.h) written from iso.h's
 * rules: every one of the 256 cases alone, random fields at one, a few, many (equally
 * spaced or not, sorted or not, duplicated) levels, values equal to a level, NaN nodes,
 * levels that are no float (0.1), infinite or NaN; multi-level output equal to single-level
 * extractions; the same polygons in the same order at any thread count and for any split of
 * the layers into calls, also across the kernel's internal chunks; planes requested, batch
 * sizes, stopping from the callback, statistics and empty inputs.
 */
#include "iso_check.h"

#include "pv_test.h"

#define POLY_BUDGET_AT_LEAST 131072 /* extract.c's chunk budget: exceeded within one chunk */

static int ref_collect(void *ud, const pv_iso_poly *p, size_t n)
{
    polyvec *pv = ud;
    for (size_t i = 0; i < n; i++) pv_push(pv, &p[i]);
    return 0;
}

/* kernel vs reference on the whole field, both modes, given threads */
static bool same_as_reference(tfield *t, const double *lv, int nl, int nthreads)
{
    bool ok = true;
    for (int m = 0; m < 2; m++) {
        pv_iso_field f = tf_field(t);
        pv_iso_opts o = {m == 1, nthreads};
        polyvec got = {0}, want = {0};
        pv_iso_stats st = {0};
        int rc = pv_iso_extract(&f, 0, t->nz - 1, lv, nl, &o, collect, &got, &st);
        reference(t, 0, t->nz - 1, lv, nl, m == 1, ref_collect, &want);
        if (rc != 0 || !polys_equal(got.p, got.n, want.p, want.n)) ok = false;
        if (got.maxbatch > PV_ISO_BATCH) ok = false;
        /* statistics */
        uint64_t tris = 0, active = 0;
        for (size_t i = 0; i < got.n; i++) {
            tris += (uint64_t)(got.p[i].nv - 2);
            if (i == 0 ||
                got.p[i].item / PV_ISO_MAX_POLYS != got.p[i - 1].item / PV_ISO_MAX_POLYS ||
                got.p[i].level != got.p[i - 1].level)
                active++;
        }
        if (st.polys != got.n || st.tris != tris || st.active != active) ok = false;
        if (st.cells != (uint64_t)((t->nx - 1) * (t->ny - 1) * (t->nz - 1))) ok = false;
        pv_clear(&got);
        pv_clear(&want);
    }
    return ok;
}

static void all_cases(void)
{
    int bad = 0, nonempty = 0;
    for (int c = 0; c < 256; c++)
        for (int variant = 0; variant < 2; variant++) {
            tfield t = tf_new(2, 2, 2);
            for (int b = 0; b < 8; b++) {
                int off[3];
                pv_iso_corner_offset(b, off);
                bool in = (c >> b) & 1;
                double r = hash01((uint64_t)(c * 16 + b));
                /* variant 1: outside corners may equal the level exactly */
                float v = variant == 0 ? (in ? 0.0f : 1.0f)
                                       : (float)(in ? 0.5 * r : (r < 0.4 ? 0.5 : 0.5 + r));
                *tf_at(&t, off[0], off[1], off[2]) = v;
            }
            double level = 0.5;
            if (!same_as_reference(&t, &level, 1, 1)) bad++;
            polyvec pv = {0};
            pv_iso_field f = tf_field(&t);
            pv_iso_opts o = {false, 1};
            pv_iso_extract(&f, 0, 1, &level, 1, &o, collect, &pv, NULL);
            if (pv.n) nonempty++;
            if ((c == 0 || c == 255) != (pv.n == 0)) bad++;
            pv_clear(&pv);
            free(t.v);
        }
    PV_CHECK_EQ(bad, 0);
    PV_CHECK_EQ(nonempty, 2 * 254);
}

static tfield random_field(int64_t nx, int64_t ny, int64_t nz, uint64_t seed, double lo, double hi)
{
    tfield t = tf_new(nx, ny, nz);
    for (int64_t n = 0; n < nx * ny * nz; n++)
        t.v[n] = (float)(lo + (hi - lo) * hash01(seed * 1000003u + (uint64_t)n));
    return t;
}

static void random_levels(void)
{
    tfield t = random_field(23, 19, 17, 1, 0.0, 1.0);
    tfield small = random_field(11, 10, 9, 14, 0.0, 1.0);
    double one = 0.5;
    PV_CHECK(same_as_reference(&t, &one, 1, 2));
    double few[5] = {0.7, 0.3, 0.5, 0.3, 0.9}; /* unsorted, a duplicate */
    PV_CHECK(same_as_reference(&t, few, 5, 2));
    double odd[7] = {0.1,  (double)NAN, (double)0.1f, (double)INFINITY, -(double)INFINITY,
                     0.25, 2.0}; /* 0.1 is no float */
    PV_CHECK(same_as_reference(&t, odd, 7, 1));
    double spaced[40], rnd[40], spaced_rev[40];
    for (int l = 0; l < 40; l++) {
        spaced[l] = 0.0125 + l * 0.025;
        spaced_rev[39 - l] = spaced[l];
        rnd[l] = hash01(77 + (uint64_t)l);
    }
    rnd[7] = rnd[20]; /* a duplicate */
    PV_CHECK(same_as_reference(&small, spaced, 40, 2));
    PV_CHECK(same_as_reference(&small, spaced_rev, 40, 1));
    PV_CHECK(same_as_reference(&small, rnd, 40, 2));
    free(small.v);
    /* equally spaced levels whose float thresholds follow t0 + l * step exactly (the
     * arithmetic classifier), values on and between the levels */
    tfield ar = random_field(12, 11, 10, 15, -1.5, 41.5);
    for (int64_t n = 0; n < 12 * 11 * 10; n += 7) ar.v[n] = (float)(int)ar.v[n];
    double lv40[40];
    for (int l = 0; l < 40; l++) lv40[l] = l;
    PV_CHECK(same_as_reference(&ar, lv40, 40, 2));
    for (int l = 0; l < 40; l++) lv40[l] = 0.5 * l - 3.0;
    PV_CHECK(same_as_reference(&ar, lv40, 40, 1));
    free(ar.v);
    free(t.v);

    /* 300 levels: 16-bit classes; values cross only a few of them per cell */
    tfield s = random_field(13, 11, 9, 2, 0.40, 0.43);
    static double many[300], manyr[300];
    for (int l = 0; l < 300; l++) {
        many[l] = l / 299.0;
        manyr[l] = hash01(999 + (uint64_t)l);
    }
    PV_CHECK(same_as_reference(&s, many, 300, 2));
    PV_CHECK(same_as_reference(&s, manyr, 300, 1));
    /* 255 levels: the most 8-bit classes hold; 256: 16-bit */
    PV_CHECK(same_as_reference(&s, many, 255, 1));
    PV_CHECK(same_as_reference(&s, manyr, 256, 2));
    free(s.v);

    /* 65535 levels: the most 16-bit classes hold; 65536: 32-bit */
    tfield u = random_field(6, 5, 5, 3, 0.5, 0.5001);
    double *huge = malloc(65536 * sizeof *huge);
    for (int l = 0; l < 65536; l++) huge[l] = l / 65535.0;
    PV_CHECK(same_as_reference(&u, huge, 65535, 2));
    PV_CHECK(same_as_reference(&u, huge, 65536, 1));
    for (int l = 0; l < 65536; l++) huge[l] = 0.49 + 0.02 * hash01(5 + (uint64_t)l);
    PV_CHECK(same_as_reference(&u, huge, 65535, 1));
    PV_CHECK(same_as_reference(&u, huge, 65536, 2));
    free(huge);
    free(u.v);

    /* integer values, integer levels: many values equal a level */
    tfield z = tf_new(17, 16, 15);
    for (int64_t n = 0; n < 17 * 16 * 15; n++)
        z.v[n] = (float)(int)(4.0 * hash01(4000 + (uint64_t)n));
    double ints[3] = {2.0, 1.0, 3.0};
    PV_CHECK(same_as_reference(&z, ints, 3, 2));
    free(z.v);
}

/* Each level of a multi-level run equals the single-level run (level index aside). */
static void multi_vs_single(void)
{
    tfield t = random_field(21, 18, 16, 6, 0.0, 1.0);
    double lv[6] = {0.6, 0.2, 0.45, 0.2, 0.8, 0.45};
    pv_iso_field f = tf_field(&t);
    for (int m = 0; m < 2; m++) {
        pv_iso_opts o = {m == 1, 2};
        polyvec all = {0};
        PV_CHECK_EQ(pv_iso_extract(&f, 0, 15, lv, 6, &o, collect, &all, NULL), 0);
        int bad = 0;
        size_t total = 0;
        for (int l = 0; l < 6; l++) {
            polyvec one = {0}, sel = {0};
            pv_iso_extract(&f, 0, 15, &lv[l], 1, &o, collect, &one, NULL);
            for (size_t i = 0; i < all.n; i++)
                if (all.p[i].level == l) {
                    pv_iso_poly p = all.p[i];
                    p.level = 0;
                    pv_push(&sel, &p);
                }
            if (!polys_equal(sel.p, sel.n, one.p, one.n)) bad++;
            if (one.n == 0) bad++;
            total += one.n;
            pv_clear(&one);
            pv_clear(&sel);
        }
        PV_CHECK_EQ(bad, 0);
        PV_CHECK_EQ(total, all.n);
        /* order: by cell, then caller level index */
        for (size_t i = 1; i < all.n; i++) {
            uint64_t c0 = all.p[i - 1].item / PV_ISO_MAX_POLYS,
                     c1 = all.p[i].item / PV_ISO_MAX_POLYS;
            if (c0 > c1 || (c0 == c1 && all.p[i - 1].level > all.p[i].level)) bad++;
        }
        PV_CHECK_EQ(bad, 0);
        pv_clear(&all);
    }
    free(t.v);
}

static void nan_cells(void)
{
    tfield t = random_field(20, 17, 14, 8, 0.0, 1.0);
    bool *isnan_node = calloc((size_t)(20 * 17 * 14), 1);
    for (int64_t n = 0; n < 20 * 17 * 14; n++)
        if (hash01(31337 + (uint64_t)n) < 0.03) {
            t.v[n] = NAN;
            isnan_node[n] = true;
        }
    double lv[2] = {0.5, 0.3};
    PV_CHECK(same_as_reference(&t, lv, 2, 2));
    PV_CHECK(same_as_reference(&t, lv, 1, 1));
    double many[40];
    for (int l = 0; l < 40; l++) many[l] = l / 40.0; /* spacing classifier */
    PV_CHECK(same_as_reference(&t, many, 40, 2));
    for (int l = 0; l < 40; l++) many[l] = hash01(4242 + (uint64_t)l); /* binary lifting */
    PV_CHECK(same_as_reference(&t, many, 40, 1));
    pv_iso_field f = tf_field(&t);
    pv_iso_opts o = {true, 2};
    polyvec pv = {0};
    pv_iso_extract(&f, 0, 13, lv, 2, &o, collect, &pv, NULL);
    int bad = 0;
    for (size_t i = 0; i < pv.n; i++) {
        uint64_t cell = pv.p[i].item / PV_ISO_MAX_POLYS;
        int64_t ci = (int64_t)(cell % 20), cj = (int64_t)(cell / 20 % 17),
                ck = (int64_t)(cell / 340);
        for (int c = 0; c < 8; c++) {
            int off[3];
            pv_iso_corner_offset(c, off);
            if (isnan_node[((ck + off[2]) * 17 + cj + off[1]) * 20 + ci + off[0]]) bad++;
        }
    }
    PV_CHECK(pv.n > 0);
    PV_CHECK_EQ(bad, 0);
    pv_clear(&pv);
    /* all NaN: nothing */
    for (int64_t n = 0; n < 20 * 17 * 14; n++) t.v[n] = NAN;
    pv_iso_extract(&f, 0, 13, lv, 2, &o, collect, &pv, NULL);
    PV_CHECK_EQ(pv.n, 0);
    pv_clear(&pv);
    free(isnan_node);
    free(t.v);
}

/* a smooth field with some noise: surfaces of all sizes */
static tfield wavy_field(int64_t nx, int64_t ny, int64_t nz, uint64_t seed, double noise,
                         double freq)
{
    tfield t = tf_new(nx, ny, nz);
    for (int64_t k = 0; k < nz; k++)
        for (int64_t j = 0; j < ny; j++)
            for (int64_t i = 0; i < nx; i++)
                *tf_at(&t, i, j, k) =
                    (float)(sin(0.31 * freq * (double)i) +
                            cos(0.23 * freq * (double)j) * sin(0.17 * freq * (double)k) +
                            noise * hash01(seed + (uint64_t)((k * ny + j) * nx + i)));
    return t;
}

static void invariance(void)
{
    tfield t = wavy_field(40, 37, 45, 9, 0.3, 1.0);
    pv_iso_field f = tf_field(&t);
    double lv[3] = {0.2, -0.4, 0.9};
    for (int m = 0; m < 2; m++) {
        pv_iso_opts o1 = {m == 1, 1};
        polyvec ref = {0};
        PV_CHECK_EQ(pv_iso_extract(&f, 0, 44, lv, 3, &o1, collect, &ref, NULL), 0);
        PV_CHECK(ref.n > 1000);
        int threads[4] = {2, 3, 4, 0};
        for (int n = 0; n < 4; n++) {
            pv_iso_opts o = {m == 1, threads[n]};
            polyvec got = {0};
            pv_iso_extract(&f, 0, 44, lv, 3, &o, collect, &got, NULL);
            PV_CHECK(polys_equal(got.p, got.n, ref.p, ref.n));
            pv_clear(&got);
        }
        /* splits of [0, 44) into calls, each requesting only its planes */
        int64_t cuts[][6] = {{0, 7, 8, 30, 44, -1}, {0, 1, 2, 3, 43, 44}, {0, 22, 44, -1, 0, 0}};
        for (int s = 0; s < 3; s++) {
            polyvec got = {0};
            pv_iso_opts o = {m == 1, 2};
            for (int c = 0; c + 1 < 6 && cuts[s][c + 1] >= 0; c++) {
                t.kmin = INT64_MAX;
                t.kmax = -1;
                pv_iso_extract(&f, cuts[s][c], cuts[s][c + 1], lv, 3, &o, collect, &got, NULL);
                PV_CHECK(t.kmin >= cuts[s][c] && t.kmax <= cuts[s][c + 1]);
            }
            PV_CHECK(polys_equal(got.p, got.n, ref.p, ref.n));
            pv_clear(&got);
        }
        pv_clear(&ref);
    }
    free(t.v);
}

/* More cells than one internal chunk, with a dense noisy band (the chunk size adapts):
 * hashes of the output at 1 and 2 threads and split into calls equal the reference's. */
static void chunks(void)
{
    const int64_t nx = 200, ny = 180, nz = 48;
    tfield t = wavy_field(nx, ny, nz, 10, 0.02, 0.2);
    for (int64_t k = 6; k < 7; k++)
        for (int64_t n = 0; n < nx * ny; n++)
            t.v[k * nx * ny + n] = (float)(2.0 * hash01(555 + (uint64_t)(k * nx * ny + n)) - 1.0);
    pv_iso_field f = tf_field(&t);
    double lv[2] = {0.1, -0.3};
    for (int m = 0; m < 2; m++) {
        hasher want = {0, 0, 0};
        reference(&t, 0, nz - 1, lv, 2, m == 1, hash_cb, &want);
        PV_CHECK(want.n > 2 * POLY_BUDGET_AT_LEAST);
        for (int nt = 1; nt <= 2; nt++) {
            hasher got = {0, 0, 0};
            pv_iso_opts o = {m == 1, nt};
            pv_iso_stats st = {0};
            PV_CHECK_EQ(pv_iso_extract(&f, 0, nz - 1, lv, 2, &o, hash_cb, &got, &st), 0);
            PV_CHECK_EQ(got.n, want.n);
            PV_CHECK(got.h == want.h);
            PV_CHECK(got.maxbatch <= PV_ISO_BATCH && got.maxbatch > 0);
            PV_CHECK_EQ(st.cells, (nx - 1) * (ny - 1) * (nz - 1));
        }
        hasher got = {0, 0, 0};
        pv_iso_opts o = {m == 1, 2};
        int64_t cuts[4] = {0, 9, 10, nz - 1};
        for (int c = 0; c < 3; c++)
            pv_iso_extract(&f, cuts[c], cuts[c + 1], lv, 2, &o, hash_cb, &got, NULL);
        PV_CHECK(got.h == want.h);
    }
    free(t.v);
}

/* Rows of thousands of polygons each (a steep ramp through 4000 levels): the calling thread
 * emits a row while it is being computed; repeated at 2 and 3 threads, the output must
 * stay the reference's. */
static void long_rows(void)
{
    const int64_t nx = 200, ny = 8, nz = 6;
    tfield t = tf_new(nx, ny, nz);
    for (int64_t n = 0; n < nx * ny * nz; n++)
        t.v[n] = (float)(20.0 * (double)(n % nx) + 15.0 * hash01(777 + (uint64_t)n));
    pv_iso_field f = tf_field(&t);
    double *lv = malloc(4000 * sizeof *lv);
    for (int l = 0; l < 4000; l++) lv[l] = l;
    hasher want = {0, 0, 0};
    reference(&t, 0, nz - 1, lv, 4000, true, hash_cb, &want);
    PV_CHECK(want.n > 100000);
    int bad = 0;
    for (int rep = 0; rep < 6; rep++)
        for (int nt = 2; nt <= 3; nt++) {
            hasher got = {0, 0, 0};
            pv_iso_opts o = {true, nt};
            pv_iso_stats st = {0};
            pv_iso_extract(&f, 0, nz - 1, lv, 4000, &o, hash_cb, &got, &st);
            if (got.h != want.h || got.n != want.n || st.polys != got.n) bad++;
        }
    PV_CHECK_EQ(bad, 0);
    free(lv);
    free(t.v);
}

/* Wide rows: a layer is cut into several units of work, the last one shorter; every
 * thread count gives the reference's output. */
static void wide_rows(void)
{
    tfield t = wavy_field(5000, 12, 6, 21, 0.5, 1.0);
    double lv[2] = {0.3, -0.2};
    for (int nt = 1; nt <= 3; nt++) PV_CHECK(same_as_reference(&t, lv, 2, nt));
    free(t.v);
}

static void edges_and_stop(void)
{
    tfield t = random_field(30, 30, 30, 11, 0.0, 1.0);
    pv_iso_field f = tf_field(&t);
    double lv = 0.5;
    pv_iso_opts o = {false, 2};
    polyvec pv = {0};
    pv.stop_after = 2;
    PV_CHECK_EQ(pv_iso_extract(&f, 0, 29, &lv, 1, &o, collect, &pv, NULL), 7);
    PV_CHECK_EQ(pv.calls, 2);
    PV_CHECK(pv.n <= 2 * PV_ISO_BATCH);
    pv_clear(&pv);
    /* empty requests: no plane asked, nothing emitted */
    t.kmin = INT64_MAX;
    t.kmax = -1;
    pv_iso_stats st = {0};
    PV_CHECK_EQ(pv_iso_extract(&f, 5, 5, &lv, 1, &o, collect, &pv, &st), 0);
    PV_CHECK_EQ(pv_iso_extract(&f, 0, 29, &lv, 0, &o, collect, &pv, &st), 0);
    PV_CHECK_EQ(pv.calls, 0);
    PV_CHECK_EQ(st.cells, 0);
    PV_CHECK(t.kmax < 0);
    tfield thin = random_field(1, 5, 5, 12, 0.0, 1.0);
    pv_iso_field g = tf_field(&thin);
    PV_CHECK_EQ(pv_iso_extract(&g, 0, 4, &lv, 1, &o, collect, &pv, NULL), 0);
    PV_CHECK_EQ(pv.n, 0);
    free(thin.v);
    /* a single row of cells and a single layer */
    tfield row = random_field(50, 2, 2, 13, 0.0, 1.0);
    PV_CHECK(same_as_reference(&row, &lv, 1, 2));
    free(row.v);
    /* every edge id and item of a call lies in its layers */
    pv_iso_extract(&f, 10, 12, &lv, 1, &o, collect, &pv, NULL);
    int bad = 0;
    for (size_t i = 0; i < pv.n; i++) {
        uint64_t cell = pv.p[i].item / PV_ISO_MAX_POLYS;
        if (cell / (30 * 30) < 10 || cell / (30 * 30) >= 12) bad++;
        for (int v = 0; v < 4; v++) {
            uint64_t node = pv.p[i].edge[v] / 3;
            if (node / (30 * 30) < 10 || node / (30 * 30) > 12) bad++;
            if (fabs(pv.p[i].v[v][2] - 11.0) > 1.0) bad++;
        }
    }
    PV_CHECK(pv.n > 0);
    PV_CHECK_EQ(bad, 0);
    pv_clear(&pv);
    free(t.v);
}

int main(void)
{
    all_cases();
    random_levels();
    multi_vs_single();
    nan_cells();
    invariance();
    chunks();
    long_rows();
    wide_rows();
    edges_and_stop();
    return pv_test_result("iso.test_extract");
}
