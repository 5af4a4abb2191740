/*
 * Minimal test helpers (after Redis's testhelp.h): checks print file:line and count
 * failures; a test's main returns pv_test_result(). Exit codes: 0 pass, 1 fail, 77 skip.
 */
#ifndef PV_TEST_H
#define PV_TEST_H

#include <glob.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int pv_test_failures;
static int pv_test_checks;

#define PV_CHECK(cond)                                                                     \
    do {                                                                                   \
        pv_test_checks++;                                                                  \
        if (!(cond)) {                                                                     \
            pv_test_failures++;                                                            \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);        \
        }                                                                                  \
    } while (0)

#define PV_CHECK_EQ(a, b)                                                                  \
    do {                                                                                   \
        long long pv_a_ = (long long)(a), pv_b_ = (long long)(b);                          \
        pv_test_checks++;                                                                  \
        if (pv_a_ != pv_b_) {                                                              \
            pv_test_failures++;                                                            \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__,   \
                    #a, #b, pv_a_, pv_b_);                                                 \
        }                                                                                  \
    } while (0)

#define PV_CHECK_STR(a, b)                                                                 \
    do {                                                                                   \
        const char *pv_a_ = (a), *pv_b_ = (b);                                             \
        pv_test_checks++;                                                                  \
        if (!pv_a_ || !pv_b_ || strcmp(pv_a_, pv_b_) != 0) {                               \
            pv_test_failures++;                                                            \
            fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", __FILE__,         \
                    __LINE__, #a, #b, pv_a_ ? pv_a_ : "(null)", pv_b_ ? pv_b_ : "(null)");  \
        }                                                                                  \
    } while (0)

#define PV_CHECK_NEAR(a, b, tol)                                                           \
    do {                                                                                   \
        double pv_a_ = (double)(a), pv_b_ = (double)(b);                                   \
        pv_test_checks++;                                                                  \
        if (!(fabs(pv_a_ - pv_b_) <= (tol))) {                                             \
            pv_test_failures++;                                                            \
            fprintf(stderr, "%s:%d: %s ~ %s failed: %.17g vs %.17g\n", __FILE__, __LINE__,  \
                    #a, #b, pv_a_, pv_b_);                                                 \
        }                                                                                  \
    } while (0)

static inline int pv_test_result(const char *name)
{
    if (pv_test_failures) {
        fprintf(stderr, "%s: %d of %d checks failed\n", name, pv_test_failures, pv_test_checks);
        return 1;
    }
    fprintf(stderr, "%s: %d checks passed\n", name, pv_test_checks);
    return 0;
}

/* Is a temporary file of `path` ("<path>.tmp.<random>", io/tmpfile.c) left behind? */
static inline bool pv_test_temp_left(const char *path)
{
    char pat[600];
    snprintf(pat, sizeof pat, "%s.tmp*", path);
    glob_t g;
    int rc = glob(pat, 0, NULL, &g);
    bool any = rc == 0 && g.gl_pathc > 0;
    if (rc == 0) globfree(&g);
    return any;
}

#endif
