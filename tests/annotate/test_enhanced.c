/*
 * Enhanced text (src/annotate/enhanced.c and frame.c's drawing of it), without gnuplot:
 * - the parser's runs (text, size, rise, pen position) with a fake measure, against the
 *   rules of gnuplot 5.4's enhanced_recursion / gp_cairo_enhanced_flush;
 * - drawn text items: x^2 puts a smaller '2' higher, E_0 a lower '0'; {/Symbol a} draws
 *   the same pixels as "α"; a\_b as "a_b"; enhanced=false and text without markup draw
 *   as written.
 * test_enhanced_gnuplot.c compares the pixels with gnuplot's own.
 */
#include "pv_test.h"

#include "enhanced.h"
#include "pvox/annotate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define W 300
#define H 80

/* ---- parser ------------------------------------------------------------------------ */

/* Every character (code point) is 10 px at 16 px em, scaled with the em. */
static double fake_measure(void *ctx, const enh_style *st, const char *text)
{
    (void)ctx;
    double n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) n += (*p & 0xC0) != 0x80;
    return n * 10.0 * st->size_px / 16.0;
}

static bool lay(enh_layout *L, const char *text)
{
    return enh_layout_text(L, text, 12.0, fake_measure, NULL);
}

static void test_scripts(void)
{
    enh_layout L;
    PV_CHECK(lay(&L, "x^2"));
    PV_CHECK_EQ(L.n, 2);
    if (L.n == 2) {
        PV_CHECK_STR(L.runs[0].text, "x");
        PV_CHECK_NEAR(L.runs[0].style.size_px, 16.0, 1e-9);
        PV_CHECK_STR(L.runs[1].text, "2");
        PV_CHECK_NEAR(L.runs[1].x, 10.0, 1e-9);
        PV_CHECK_NEAR(L.runs[1].rise, 6.0, 1e-4);           /* 0.5 x 12 pt, in px */
        PV_CHECK_NEAR(L.runs[1].style.size_px, 12.8, 1e-4); /* 0.8 x 16 px */
    }
    PV_CHECK_NEAR(L.width, 18.0, 1e-4);
    enh_layout_free(&L);

    PV_CHECK(lay(&L, "E_{0i}^{a^b}"));
    PV_CHECK_EQ(L.n, 4);
    if (L.n == 4) {
        PV_CHECK_STR(L.runs[1].text, "0i");
        PV_CHECK_NEAR(L.runs[1].rise, -3.6, 1e-4); /* -0.3 x 12 */
        PV_CHECK_STR(L.runs[2].text, "a");
        PV_CHECK_NEAR(L.runs[2].x, 26.0, 1e-4);         /* after E (10) and 0i (16) */
        PV_CHECK_NEAR(L.runs[3].rise, 6.0 + 4.8, 1e-4); /* nested: 0.5 x 9.6 more */
        PV_CHECK_NEAR(L.runs[3].style.size_px, 16 * 0.64, 1e-4);
    }
    enh_layout_free(&L);
}

static void test_fonts(void)
{
    enh_layout L;
    PV_CHECK(lay(&L, "{/Symbol a}b{/Symbol D\\245}"));
    PV_CHECK_EQ(L.n, 3);
    if (L.n == 3) {
        PV_CHECK_STR(L.runs[0].text, "\xCE\xB1"); /* α */
        PV_CHECK_STR(L.runs[0].style.family, ""); /* drawn in the default face */
        PV_CHECK_STR(L.runs[1].text, "b");
        PV_CHECK_STR(L.runs[2].text, "\xCE\x94\xE2\x88\x9E"); /* Δ∞ */
    }
    enh_layout_free(&L);

    /* "{/Bold X}" names a family "Bold" (fontconfig falls back to the default face,
     * regular); ":Bold" is the style */
    PV_CHECK(lay(&L, "{/Bold X}{/:Bold X}{/Times:Italic y}{/:Bold:Italic {/:Normal z}}"));
    PV_CHECK_EQ(L.n, 4);
    if (L.n == 4) {
        PV_CHECK_STR(L.runs[0].style.family, "Bold");
        PV_CHECK(!L.runs[0].style.bold);
        PV_CHECK_STR(L.runs[1].style.family, "");
        PV_CHECK(L.runs[1].style.bold && !L.runs[1].style.italic);
        PV_CHECK_STR(L.runs[2].style.family, "Times");
        PV_CHECK(L.runs[2].style.italic && !L.runs[2].style.bold);
        PV_CHECK(!L.runs[3].style.bold && !L.runs[3].style.italic);
    }
    enh_layout_free(&L);

    PV_CHECK(lay(&L, "{/=20 big}{/*1.5 x}{/=0 y}"));
    PV_CHECK_EQ(L.n, 3);
    if (L.n == 3) {
        PV_CHECK_NEAR(L.runs[0].style.size_px, 20 * 96 / 72.0, 1e-4);
        PV_CHECK_NEAR(L.runs[1].style.size_px, 18 * 96 / 72.0, 1e-4);
        PV_CHECK_NEAR(L.runs[2].style.size_px, 16.0, 1e-4); /* =0 keeps the size */
        PV_CHECK_STR(L.runs[0].text, "big");                /* the space after the spec
                                                              * belongs to it */
    }
    enh_layout_free(&L);
}

static void test_moves(void)
{
    enh_layout L;
    /* @: the pen returns after the superscript, so the subscript starts under it */
    PV_CHECK(lay(&L, "x@^2_i"));
    PV_CHECK_EQ(L.n, 3);
    if (L.n == 3) {
        PV_CHECK_NEAR(L.runs[1].x, 10.0, 1e-9);
        PV_CHECK_NEAR(L.runs[2].x, 10.0, 1e-9);
    }
    PV_CHECK_NEAR(L.width, 18.0, 1e-9);
    enh_layout_free(&L);

    /* &: a blank as wide as the text */
    PV_CHECK(lay(&L, "a&{xx}b"));
    PV_CHECK_EQ(L.n, 2);
    if (L.n == 2) PV_CHECK_NEAR(L.runs[1].x, 30.0, 1e-9);
    PV_CHECK_NEAR(L.width, 40.0, 1e-9);
    enh_layout_free(&L);

    /* ~: the second centred on the first, raised 0.8 x 12 px; gnuplot's pen then ends
     * half the overprint short of the underprint's end */
    PV_CHECK(lay(&L, "~a{.8-}c"));
    PV_CHECK_EQ(L.n, 3);
    if (L.n == 3) {
        PV_CHECK_STR(L.runs[1].text, "-");
        PV_CHECK_NEAR(L.runs[1].x, 0.0, 1e-9);
        PV_CHECK_NEAR(L.runs[1].rise, 9.6, 1e-4);
        PV_CHECK_NEAR(L.runs[2].x, 5.0, 1e-9);
    }
    PV_CHECK_NEAR(L.width, 15.0, 1e-9);
    enh_layout_free(&L);

    /* the overprint is one character or group: "~ab" puts b over a */
    PV_CHECK(lay(&L, "~ab{.8-}"));
    PV_CHECK_EQ(L.n, 3);
    if (L.n == 3) {
        PV_CHECK_NEAR(L.runs[1].x, 0.0, 1e-9);
        PV_CHECK_NEAR(L.runs[2].rise, 0.0, 1e-9); /* the offset only after ~x */
    }
    enh_layout_free(&L);

    /* an overprint wider than its base reaches left of the start: the line moves left */
    PV_CHECK(lay(&L, "~a{/*3 b}"));
    PV_CHECK_EQ(L.n, 2);
    if (L.n == 2) { /* b starts 10 px left of a; both move 10 more */
        PV_CHECK_NEAR(L.runs[0].x, -10.0, 1e-9);
        PV_CHECK_NEAR(L.runs[1].x, -20.0, 1e-9);
    }
    PV_CHECK_NEAR(L.width, 30.0, 1e-9);
    enh_layout_free(&L);
}

static void test_escapes(void)
{
    enh_layout L;
    PV_CHECK(lay(&L, "a\\_b\\^c\\\\d\\101\\{e\\U+03B1(f)"));
    PV_CHECK_EQ(L.n, 1);
    if (L.n == 1) PV_CHECK_STR(L.runs[0].text, "a_b^c\\dA{e\\U+03B1(f)");
    enh_layout_free(&L);

    PV_CHECK(lay(&L, "a}b")); /* a stray brace is dropped */
    PV_CHECK_EQ(L.n, 2);
    if (L.n == 2) PV_CHECK_STR(L.runs[1].text, "b");
    enh_layout_free(&L);

    PV_CHECK(lay(&L, "\xC3\xA9^{\xCE\xB1}x^")); /* UTF-8 stays whole; a trailing ^ is empty */
    PV_CHECK_EQ(L.n, 3);
    if (L.n == 3) PV_CHECK_STR(L.runs[1].text, "\xCE\xB1");
    enh_layout_free(&L);

    PV_CHECK(enh_has_markup("x^2") && enh_has_markup("{a}") && enh_has_markup("\xCE\xB1"));
    PV_CHECK(!enh_has_markup("a\\101 (b)"));
    unsigned extra;
    PV_CHECK_EQ(enh_symbol_unicode('a', &extra), 0x3B1);
    PV_CHECK_EQ(enh_symbol_unicode('m', &extra), 0xB5); /* gnuplot's choice: micro sign */
    PV_CHECK_EQ(enh_symbol_unicode(0xE3, &extra), 0xA9);
    PV_CHECK_EQ(extra, 0xF87F);
    PV_CHECK_EQ(enh_symbol_unicode('1', &extra), '1');
    PV_CHECK_EQ(extra, 0);
}

/* ---- drawing ----------------------------------------------------------------------- */

typedef struct img {
    uint32_t px[W * H];
} img;

/* The front layer of one text item at (40, 40) px, 12 pt. */
static bool draw(img *out, const char *text, bool enhanced)
{
    pv_frame f;
    memset(&f, 0, sizeof f);
    pv_termdim_pngcairo(&f.term, W, H, 12.0);
    pv_fitem it;
    memset(&it, 0, sizeof it);
    it.kind = PV_FI_TEXT;
    it.layer = PV_FRAME_FRONT;
    it.n = 1;
    it.x[0] = 40 * PV_TERM_UNITS_PER_PX;
    it.y[0] = f.term.ymax - 40 * PV_TERM_UNITS_PER_PX;
    it.text = (char *)(uintptr_t)text;
    it.enhanced = enhanced;
    f.items = &it;
    f.n = 1;
    return pv_annotate_layer(NULL, &f, PV_FRAME_FRONT, NULL, out->px, 4 * W) == PV_OK;
}

static bool same(const img *a, const img *b) { return memcmp(a->px, b->px, sizeof a->px) == 0; }

typedef struct box {
    int x0, x1, y0, y1; /* inclusive ink extent; x0 > x1 if none */
} box;

/* Ink: alpha of at least one half (anti-aliased edges of neighbours touch). */
static bool inked(const img *m, int x, int y) { return (m->px[y * W + x] >> 24) >= 0x80; }

/* Ink of columns [c0, c1). */
static box ink(const img *m, int c0, int c1)
{
    box b = {W, -1, H, -1};
    for (int y = 0; y < H; y++)
        for (int x = c0; x < c1; x++)
            if (inked(m, x, y)) {
                if (x < b.x0) b.x0 = x;
                if (x > b.x1) b.x1 = x;
                if (y < b.y0) b.y0 = y;
                if (y > b.y1) b.y1 = y;
            }
    return b;
}

static bool column_inked(const img *m, int x)
{
    for (int y = 0; y < H; y++)
        if (inked(m, x, y)) return true;
    return false;
}

/* The first column without ink after the first glyph from `from` on (the gap between
 * two glyphs). */
static int gap_after(const img *m, int from)
{
    int x = from;
    while (x < W && !column_inked(m, x)) x++;
    while (x < W && column_inked(m, x)) x++;
    return x;
}

static void test_draw_scripts(img *a, img *b)
{
    /* x^2 against x2: the '2' is shorter and its foot higher */
    PV_CHECK(draw(a, "x^2", true));
    PV_CHECK(draw(b, "x2", false));
    int ga = gap_after(a, 40), gb = gap_after(b, 40);
    box xa = ink(a, 0, ga), sup = ink(a, ga, W), two = ink(b, gb, W);
    PV_CHECK(sup.x0 <= sup.x1 && two.x0 <= two.x1);
    PV_CHECK_EQ(xa.y1, two.y1);                             /* same baseline for x */
    PV_CHECK(two.y1 - sup.y1 >= 5 && two.y1 - sup.y1 <= 7); /* raised 6 px */
    PV_CHECK((sup.y1 - sup.y0) < (two.y1 - two.y0));        /* 0.8 x the size */
    PV_CHECK((sup.x1 - sup.x0) < (two.x1 - two.x0));

    /* E_0: the '0' drops about 3.6 px */
    PV_CHECK(draw(a, "E_0", true));
    PV_CHECK(draw(b, "E0", false));
    box sub = ink(a, gap_after(a, 40), W), zero = ink(b, gap_after(b, 40), W);
    PV_CHECK(sub.y1 - zero.y1 >= 3 && sub.y1 - zero.y1 <= 4);

    /* the flag matters: without it the markup is printed */
    PV_CHECK(draw(a, "x^2", false));
    PV_CHECK(draw(b, "x^2", true));
    PV_CHECK(!same(a, b));
}

static void test_draw_same(img *a, img *b)
{
    static const char *const pairs[][2] = {
        {"{/Symbol a}", "\xCE\xB1"},                            /* α */
        {"{/Symbol abgD}", "\xCE\xB1\xCE\xB2\xCE\xB3\xCE\x94"}, /* αβγΔ, one run */
        {"a\\_b", "a_b"},
        {"a\\^b\\{c\\}", "a^b{c}"},
        {"{Tab}", "Tab"},     /* one group: the same run, kerned as one */
        {"a\\101", "a\\101"}, /* no markup: drawn as written, as pngcairo does */
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        PV_CHECK(draw(a, pairs[i][0], true));
        PV_CHECK(draw(b, pairs[i][1], false));
        PV_CHECK(same(a, b));
        if (!same(a, b)) fprintf(stderr, "  differs: \"%s\"\n", pairs[i][0]);
    }
    /* pieces are shaped apart: no kerning across a group boundary */
    PV_CHECK(draw(a, "A{V}", true));
    PV_CHECK(draw(b, "AV", false));
    PV_CHECK(!same(a, b));
}

int main(void)
{
    test_scripts();
    test_fonts();
    test_moves();
    test_escapes();
    img *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    if (!a || !b) return 1;
    test_draw_scripts(a, b);
    test_draw_same(a, b);
    free(a);
    free(b);
    return pv_test_result("enhanced");
}
