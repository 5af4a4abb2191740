/*
 * Enhanced text against gnuplot 5.4's pngcairo: gnuplot draws one `set label` per case
 * on an empty 400x100 canvas, we draw the same text item (enhanced = true) and compare
 * pixel by pixel. Cases: sub/superscripts (nested), Symbol letters and octal codes, size
 * and style changes, escapes, phantom (@), hidden (&) and overprinted (~) text, group
 * boundaries (no kerning across them), left/centre/right, rotated, 10 and 14 pt.
 *
 * Measured (2026-12, gnuplot 5.4.4, cairo/pango of Debian): every case identical. Asserted:
 * every pixel within 2 levels (a glyph one pixel off fails).
 *
 * Needs `gnuplot` on PATH; exits 77 (skip) without it. PV_ENH_KEEP=1 keeps the files.
 */
#include "pv_test.h"

#include "pvox/annotate.h"

#include <cairo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define W 400
#define H 100

typedef struct tcase {
    const char *text; /* as gnuplot holds it (written in single quotes: no ' inside) */
    pv_just just;
    double angle, font_pt, xfrac;
} tcase;

static const tcase cases[] = {
    {"E_0 = mc^2 {/Symbol a}_{ij} x^{10}", PV_JUST_LEFT, 0, 12, 0.1},
    {"{/Bold X} {/:Bold X} {/Italic x} {/:Italic x} {/:Bold:Italic AV}", PV_JUST_LEFT, 0, 12, 0.1},
    {"{/=20 big} {/*1.5 x} a\\_b a\\^b a\\101 \\\\ q", PV_JUST_LEFT, 0, 12, 0.1},
    {"AVAV A{V}A{V} To{o} f{f}i", PV_JUST_LEFT, 0, 12, 0.1},
    {"x@^2_i y@_i^{22} a&{xyz}b", PV_JUST_LEFT, 0, 12, 0.1},
    {"~a{.8-} ~{abc}{/=8 x} ~e{\\^}", PV_JUST_LEFT, 0, 12, 0.1},
    {"{/Symbol abgdDGW \\245 \\261 \\326} q^{a^{b^c}}_{x_{y}}", PV_JUST_LEFT, 0, 12, 0.1},
    {"\xCE\xB1_\xCE\xB2 \xC3\xBC^\xC3\xA9 {/Times Tx_2}", PV_JUST_LEFT, 0, 12, 0.1},
    {"E_0 = mc^2 x@^2_i ~a{.8-}", PV_JUST_LEFT, 0, 10, 0.1},
    {"E_0 = mc^2 x@^2_i ~a{.8-}", PV_JUST_CENTRE, 0, 12, 0.5},
    {"E_0 = mc^2 {/Symbol a}_{ij}", PV_JUST_RIGHT, 0, 12, 0.9},
    {"E_0^{2}", PV_JUST_CENTRE, 90, 12, 0.5},
    {"E_0 = mc^2 {/Symbol a}_{ij}", PV_JUST_LEFT, 30, 12, 0.1},
    {"{/=8 tiny_{x}} {/*2 E^2} {/:Bold Fi_{fi}}", PV_JUST_LEFT, 0, 14, 0.1},
    {"x\\U+03B1y {/Symbol \\245} a}b", PV_JUST_LEFT, 0, 12, 0.1},
    {"a~{i}{/=20 W}Q @{/=16 abc}d &{xx}b", PV_JUST_CENTRE, 0, 12, 0.5},
    {"~{i}{/=20 W}", PV_JUST_RIGHT, 0, 12, 0.5},
    {"{/Helvetica H_2O} {/\"DejaVu Serif\" Serif^x} {/Sans:Italic it} {/Symbol:Bold ab}",
     PV_JUST_LEFT, 0, 12, 0.1},
};

static bool have_gnuplot(void) { return system("gnuplot -e 'exit' >/dev/null 2>&1") == 0; }

static bool run_gnuplot(const char *dir, int i, const tcase *c)
{
    static const char *const just[] = {"left", "center", "right"};
    char path[512], cmd[1200];
    snprintf(path, sizeof path, "%s/e%d.gp", dir, i);
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fprintf(f,
            "set term pngcairo size %d,%d font ',%g'\nset output '%s/e%d.png'\n"
            "unset border; unset tics; unset key\n"
            "set label 1 '%s' at screen %g, 0.5 %s rotate by %g\n"
            "plot [0:1][0:1] NaN notitle\n",
            W, H, c->font_pt, dir, i, c->text, c->xfrac, just[c->just], c->angle);
    fclose(f);
    snprintf(cmd, sizeof cmd, "gnuplot '%s' >'%s/e%d.log' 2>&1", path, dir, i);
    return system(cmd) == 0;
}

/* Our picture: white, then the front layer over it. */
static cairo_surface_t *render_ours(const tcase *c)
{
    pv_frame f;
    memset(&f, 0, sizeof f);
    pv_termdim_pngcairo(&f.term, W, H, c->font_pt);
    pv_fitem it;
    memset(&it, 0, sizeof it);
    it.kind = PV_FI_TEXT;
    it.layer = PV_FRAME_FRONT;
    it.n = 1;
    it.x[0] = (int)(c->xfrac * f.term.xmax); /* gnuplot truncates screen coordinates */
    it.y[0] = (int)(0.5 * f.term.ymax);
    it.text = (char *)(uintptr_t)c->text;
    it.just = c->just;
    it.angle = c->angle;
    it.enhanced = true;
    f.items = &it;
    f.n = 1;
    cairo_surface_t *bg = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_surface_t *fg = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    int stride = cairo_image_surface_get_stride(bg);
    cairo_surface_flush(bg);
    cairo_surface_flush(fg);
    pv_status st = pv_annotate_frame(NULL, &f, NULL, (uint32_t *)cairo_image_surface_get_data(bg),
                                     (uint32_t *)cairo_image_surface_get_data(fg), stride);
    cairo_surface_mark_dirty(bg);
    cairo_surface_mark_dirty(fg);
    cairo_t *cr = cairo_create(bg);
    cairo_set_source_surface(cr, fg, 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_destroy(fg);
    if (st != PV_OK) {
        cairo_surface_destroy(bg);
        return NULL;
    }
    return bg;
}

/* Largest channel difference and the number of differing pixels. */
static int compare(cairo_surface_t *a, cairo_surface_t *b, long *ndiff)
{
    cairo_surface_flush(a);
    cairo_surface_flush(b);
    const unsigned char *pa = cairo_image_surface_get_data(a),
                        *pb = cairo_image_surface_get_data(b);
    int sa = cairo_image_surface_get_stride(a), sb = cairo_image_surface_get_stride(b), maxd = 0;
    *ndiff = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint32_t u = ((const uint32_t *)(pa + y * sa))[x],
                     v = ((const uint32_t *)(pb + y * sb))[x];
            int m = 0;
            for (int s = 0; s < 24; s += 8) {
                int d = abs((int)((u >> s) & 0xFF) - (int)((v >> s) & 0xFF));
                if (d > m) m = d;
            }
            *ndiff += m > 0;
            if (m > maxd) maxd = m;
        }
    return maxd;
}

static void check_case(const char *dir, int i, const tcase *c)
{
    PV_CHECK(run_gnuplot(dir, i, c));
    char path[512];
    snprintf(path, sizeof path, "%s/e%d.png", dir, i);
    cairo_surface_t *ref = cairo_image_surface_create_from_png(path);
    cairo_surface_t *ours = render_ours(c);
    bool ok = cairo_surface_status(ref) == CAIRO_STATUS_SUCCESS && ours &&
              cairo_image_surface_get_width(ref) == W && cairo_image_surface_get_height(ref) == H;
    PV_CHECK(ok);
    if (ok) {
        long ndiff;
        int maxd = compare(ours, ref, &ndiff);
        fprintf(stderr, "%2d \"%s\": %ld pixels differ, max %d\n", i, c->text, ndiff, maxd);
        PV_CHECK(maxd <= 2);
        if (getenv("PV_ENH_KEEP")) {
            snprintf(path, sizeof path, "%s/e%d_pvox.png", dir, i);
            cairo_surface_write_to_png(ours, path);
        }
    }
    cairo_surface_destroy(ref);
    if (ours) cairo_surface_destroy(ours);
}

int main(void)
{
    if (!have_gnuplot()) {
        fprintf(stderr, "gnuplot not found: skipped\n");
        return 77;
    }
    char dir[] = "/tmp/pv_enh_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_case(dir, (int)i, &cases[i]);
    if (!getenv("PV_ENH_KEEP")) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    } else {
        fprintf(stderr, "files kept in %s\n", dir);
    }
    return pv_test_result("enhanced_gnuplot");
}
