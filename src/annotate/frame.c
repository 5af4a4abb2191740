/*
 * Cairo drawing of the frame display list (annotate.h), reproducing gnuplot 5.4's
 * pngcairo terminal pixel for pixel where we can.
 *
 * What pngcairo does, learnt from its output (tests/frame/) and its documented design:
 * - device = terminal/200 + 0.5 (x), (ymax - y)/200 + 0.5 (y down);
 * - a segment that is vertical (or horizontal) and longer than one pixel has its x (y)
 *   and both end points snapped to pixel centres: rint(d - 0.5) + 0.5 ("hinting");
 *   polylines keep the snapped end point for the next segment;
 * - line width 1 px per unit, butt caps, mitre joins (limit 3.8); the axis linetype
 *   (lt 0: zero axes) is dotted, dash 0.4 px on, 4 px off, both times lw when lw > 1;
 * - text: pango, font "Sans" (DejaVu Sans) at size*96/72 px; ligatures ff fi fl ffi ffl;
 *   each glyph advances by
 *   round(unhinted advance + pair kerning) whole pixels (measured on kerned pairs such as
 *   "To", "Fr", "AVATAR": exact); the anchor is the vertical centre: baseline = anchor
 *   + size/2 px; RIGHT/CENTRE move the text left by its (whole or half) width; cairo
 *   places glyphs on whole pixels;
 * - enhanced text (pv_fitem.enhanced; pngcairo's default): enhanced.c cuts the markup
 *   into runs of one style as gnuplot's enhanced_recursion does, each run is laid out
 *   like plain text in its own face and size (no kerning across runs: pango shapes
 *   each attribute range apart) at the run's pen position, its baseline raised by the
 *   run's rise;
 * - consecutive filled polygons (the colour box bands) are drawn last-first onto a
 *   separate surface with CAIRO_OPERATOR_SATURATE, then painted over: no seams;
 * - point markers: centred on pixel centres, half size 3*ps px, gnuplot's shapes.
 * We use cairo's toy font API with fontconfig (same rasteriser and hinting as pango) and
 * read the font's kerning pairs ourselves (kern.c).
 */
#include "pvox/annotate.h"

#include "enhanced.h"
#include "kern.h"

#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_FAMILY "DejaVu Sans"
#define UNITS PV_TERM_UNITS_PER_PX
#define ANN_PI 3.14159265358979323846

void pv_annot_opts_default(pv_annot_opts *o)
{
    o->background = 0xFFFFFF;
    o->transparent = false;
    o->font_family = NULL;
    o->rows_y0 = o->rows_y1 = 0;
}

/* ---- coordinates ------------------------------------------------------------------- */

typedef struct drawer {
    cairo_t *cr;
    const pv_frame *f;
    const pv_annot_opts *o;
    /* gnuplot's path state (gp_cairo_move / gp_cairo_vector / gp_cairo_stroke) */
    bool opened;
    double cur_x, cur_y;  /* current point, device space, possibly snapped */
    int orig_x, orig_y;   /* current point as given, terminal units */
    double lw;            /* style of the open path */
    uint32_t argb;
    double dash;          /* its dot scale (pv_fitem.dash), 0 solid */
    kern_table kern;      /* pair kerning of the pinned font (empty if unavailable) */
    kern_table kern_styled[3]; /* its bold, oblique, bold oblique faces (enhanced text) */
    bool styled_tried[3];
    const kern_table *kcur; /* the kerning of the font set now, and its em in px */
    double em;
} drawer;

static double dev_x(const drawer *d, double x) { return pv_term_px_x(&d->f->term, x); }
static double dev_y(const drawer *d, double y) { return pv_term_px_y(&d->f->term, y); }
static double snap(double v) { return rint(v - 0.5) + 0.5; }

static void set_argb(cairo_t *cr, uint32_t argb)
{
    double a = 1.0 - ((argb >> 24) & 0xFF) / 255.0;
    cairo_set_source_rgba(cr, ((argb >> 16) & 0xFF) / 255.0, ((argb >> 8) & 0xFF) / 255.0,
                          (argb & 0xFF) / 255.0, a);
}

/* ---- lines ------------------------------------------------------------------------- */

static void path_stroke(drawer *d)
{
    if (!d->opened) return;
    cairo_line_to(d->cr, d->cur_x, d->cur_y);
    cairo_stroke(d->cr);
    if (d->dash > 0) cairo_set_dash(d->cr, NULL, 0, 0);
    d->opened = false;
}

static void path_move(drawer *d, int x, int y)
{
    /* gnuplot skips a move to the current point (compared with the possibly snapped
     * current point), so the next segment continues the polyline with a join */
    if (d->opened && dev_x(d, x) == d->cur_x && dev_y(d, y) == d->cur_y) return;
    path_stroke(d);
    d->cur_x = dev_x(d, x);
    d->cur_y = dev_y(d, y);
    d->orig_x = x;
    d->orig_y = y;
}

static void path_vector(drawer *d, int x, int y)
{
    double x1 = dev_x(d, x), y1 = dev_y(d, y);
    /* vertical segment longer than one pixel: snap x and the end points' y */
    if (d->orig_x == x && abs(d->orig_y - y) > UNITS) {
        d->cur_x = snap(d->cur_x);
        x1 = d->cur_x;
        d->cur_y = snap(d->cur_y);
        y1 = snap(y1);
    }
    /* horizontal likewise */
    if (d->orig_y == y && abs(d->orig_x - x) > UNITS) {
        d->cur_y = snap(d->cur_y);
        y1 = d->cur_y;
        d->cur_x = snap(d->cur_x);
        x1 = snap(x1);
    }
    if (!d->opened) {
        cairo_move_to(d->cr, d->cur_x, d->cur_y);
        d->opened = true;
    } else {
        cairo_line_to(d->cr, d->cur_x, d->cur_y);
    }
    d->cur_x = x1;
    d->cur_y = y1;
    d->orig_x = x;
    d->orig_y = y;
}

/* A path item: move + vectors. The stroke is left open, as gnuplot leaves it, until
 * something else is drawn, the style changes or a move goes elsewhere. */
static void draw_path(drawer *d, const pv_fitem *it)
{
    if (it->n < 2) return;
    double lw = it->lw > 0.2 ? it->lw : 0.2;
    if (d->opened && (!it->chain || lw != d->lw || it->argb != d->argb || it->dash != d->dash))
        path_stroke(d);
    if (!d->opened) {
        cairo_set_line_width(d->cr, lw);
        set_argb(d->cr, it->argb);
        d->lw = lw;
        d->argb = it->argb;
        d->dash = it->dash;
        if (it->dash > 0) {
            /* pngcairo's axis linetype: dots 0.4 px long every 4.4 px, scaled by lw > 1 */
            double dashes[2] = {0.4 * it->dash, 4.0 * it->dash};
            cairo_set_dash(d->cr, dashes, 2, 0);
        }
    }
    const int *px = it->vx ? it->vx : it->x, *py = it->vx ? it->vy : it->y;
    path_move(d, px[0], py[0]);
    for (int i = 1; i < it->n; i++) path_vector(d, px[i], py[i]);
    if (it->closed) path_vector(d, px[0], py[0]);
}

/* ---- text -------------------------------------------------------------------------- */

static void set_font(drawer *d)
{
    const char *family = d->o->font_family ? d->o->font_family : DEFAULT_FAMILY;
    cairo_select_font_face(d->cr, family, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(d->cr, d->f->term.font_px);
    /* unhinted advances: we round them (with kerning) ourselves, as pango does */
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_set_font_options(d->cr, fo);
    cairo_font_options_destroy(fo);
}

static void use_default_font(drawer *d)
{
    set_font(d);
    d->kcur = &d->kern;
    d->em = d->f->term.font_px;
}

/* Next code point of a UTF-8 string (invalid bytes count as themselves). */
static uint32_t utf8_next(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    uint32_t c = *p++;
    int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    if (extra) c &= 0x3F >> extra;
    for (; extra > 0 && (*p & 0xC0) == 0x80; extra--) c = c << 6 | (*p++ & 0x3F);
    *s = (const char *)p;
    return c;
}

/* DejaVu Sans's standard ligatures (its GSUB `liga`, which pango applies): longest
 * first. */
static const struct {
    const char *seq;
    const char *lig; /* UTF-8 of U+FB00..U+FB04 */
} ligatures[] = {{"ffi", "\xEF\xAC\x83"}, {"ffl", "\xEF\xAC\x84"}, {"ff", "\xEF\xAC\x80"},
                 {"fi", "\xEF\xAC\x81"}, {"fl", "\xEF\xAC\x82"}};

/* `text` with the ligatures substituted (malloc'd). A two-letter ligature takes three
 * bytes of UTF-8, so the result can grow to 1.5 times the input. */
static char *ligate(const char *text)
{
    size_t len = strlen(text);
    char *out = malloc(2 * len + 1), *o = out;
    if (!out) return NULL;
    for (const char *p = text; *p;) {
        size_t k = 0, nl = sizeof ligatures / sizeof ligatures[0];
        for (; k < nl; k++) {
            size_t sl = strlen(ligatures[k].seq);
            if (strncmp(p, ligatures[k].seq, sl) == 0) {
                size_t ll = strlen(ligatures[k].lig);
                memcpy(o, ligatures[k].lig, ll);
                o += ll;
                p += sl;
                break;
            }
        }
        if (k == nl) *o++ = *p++;
    }
    *o = '\0';
    return out;
}

/* Lay out `text` at pen x = 0 as pango does for gnuplot: standard ligatures, then each
 * glyph advances by its unhinted advance plus the pair kerning, rounded to whole pixels.
 * Returns the glyphs (cairo_glyph_free) and the total width in *width. */
static cairo_glyph_t *layout_text(const drawer *d, const char *text, int *n, double *width)
{
    cairo_scaled_font_t *sf = cairo_get_scaled_font(d->cr);
    cairo_glyph_t *g = NULL;
    *n = 0;
    *width = 0.0;
    char *lig = d->kcur->npairs > 0 ? ligate(text) : NULL; /* only for the pinned font */
    if (lig) text = lig;
    if (cairo_scaled_font_text_to_glyphs(sf, 0, 0, text, -1, &g, n, NULL, NULL, NULL) !=
        CAIRO_STATUS_SUCCESS) {
        free(lig);
        return NULL;
    }
    uint32_t *cp = malloc((size_t)(*n > 0 ? *n : 1) * sizeof *cp);
    int ncp = 0;
    for (const char *p = text; *p && cp && ncp < *n;) cp[ncp++] = utf8_next(&p);
    free(lig);
    bool kern = cp && ncp == *n && d->kcur->npairs > 0;
    double em = d->em, pen = 0.0;
    for (int i = 0; i < *n; i++) {
        cairo_text_extents_t e;
        cairo_scaled_font_glyph_extents(sf, &g[i], 1, &e);
        double adv = e.x_advance;
        if (kern && i + 1 < *n)
            adv += kern_between(d->kcur, cp[i], cp[i + 1]) * em / d->kcur->units_per_em;
        g[i].x = pen;
        g[i].y = 0.0;
        pen += floor(adv + 0.5);
    }
    free(cp);
    *width = pen;
    return g;
}

/* ---- enhanced text: enhanced.c cuts it into styled runs, we draw them ------------ */

/* The pinned font's styled faces, next to DejaVuSans.ttf. */
static const kern_table *styled_kern(drawer *d, int k)
{
    static const char *const dirs[] = {"/usr/share/fonts/truetype/dejavu/",
                                       "/usr/share/fonts/dejavu/", "/usr/share/fonts/TTF/",
                                       "/usr/local/share/fonts/"};
    static const char *const files[3] = {"DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf",
                                         "DejaVuSans-BoldOblique.ttf"};
    if (!d->styled_tried[k]) {
        d->styled_tried[k] = true;
        char path[128];
        for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
            snprintf(path, sizeof path, "%s%s", dirs[i], files[k]);
            if (kern_load(&d->kern_styled[k], path)) break;
        }
    }
    return &d->kern_styled[k];
}

/* Set the run's face and size; kerning and ligatures only for the pinned font, as for
 * plain text ("Sans" is what gnuplot's default resolves to). */
static void use_style(drawer *d, const enh_style *st)
{
    static const kern_table none = {0};
    const char *def = d->o->font_family ? d->o->font_family : DEFAULT_FAMILY;
    const char *family = st->family[0] ? st->family : def;
    cairo_select_font_face(d->cr, family,
                           st->italic ? CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
                           st->bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(d->cr, st->size_px);
    d->em = st->size_px;
    bool pinned = d->kern.npairs > 0 && (!st->family[0] || strcmp(family, "Sans") == 0 ||
                                         strcmp(family, DEFAULT_FAMILY) == 0);
    int k = (st->bold ? 1 : 0) + (st->italic ? 2 : 0);
    d->kcur = !pinned ? &none : k == 0 ? &d->kern : styled_kern(d, k - 1);
}

static double measure_run(void *ctx, const enh_style *st, const char *text)
{
    drawer *d = ctx;
    int n;
    double w = 0.0;
    use_style(d, st);
    cairo_glyph_free(layout_text(d, text, &n, &w));
    return w;
}

/* Each run at its pen position, its baseline raised by its rise. */
static void draw_enhanced(drawer *d, const pv_fitem *it)
{
    enh_layout L;
    if (!enh_layout_text(&L, it->text, d->f->term.font_pt, measure_run, d)) {
        use_default_font(d);
        return;
    }
    double w = L.width;
    double shift = it->just == PV_JUST_RIGHT ? w : it->just == PV_JUST_CENTRE ? w / 2.0 : 0.0;
    cairo_save(d->cr);
    set_argb(d->cr, it->argb);
    cairo_translate(d->cr, dev_x(d, it->x[0]), dev_y(d, it->y[0]));
    if (it->angle != 0.0) cairo_rotate(d->cr, -it->angle * ANN_PI / 180.0);
    for (int r = 0; r < L.n; r++) {
        int n;
        double rw;
        use_style(d, &L.runs[r].style);
        cairo_glyph_t *g = layout_text(d, L.runs[r].text, &n, &rw);
        if (!g) continue;
        for (int i = 0; i < n; i++) {
            g[i].x += L.runs[r].x - shift;
            g[i].y = d->f->term.font_pt / 2.0 - L.runs[r].rise;
        }
        cairo_show_glyphs(d->cr, g, n);
        cairo_glyph_free(g);
    }
    cairo_restore(d->cr);
    enh_layout_free(&L);
    use_default_font(d);
}

static void draw_text(drawer *d, const pv_fitem *it)
{
    if (!it->text || !*it->text) return;
    if (it->enhanced && enh_has_markup(it->text)) {
        draw_enhanced(d, it);
        return;
    }
    cairo_t *cr = d->cr;
    int n;
    double w;
    cairo_glyph_t *g = layout_text(d, it->text, &n, &w);
    if (!g) return;
    double shift = it->just == PV_JUST_RIGHT ? w : it->just == PV_JUST_CENTRE ? w / 2.0 : 0.0;
    double baseline = d->f->term.font_pt / 2.0;
    for (int i = 0; i < n; i++) {
        g[i].x -= shift;
        g[i].y = baseline;
    }
    cairo_save(cr);
    set_argb(cr, it->argb);
    cairo_translate(cr, dev_x(d, it->x[0]), dev_y(d, it->y[0]));
    if (it->angle != 0.0) cairo_rotate(cr, -it->angle * ANN_PI / 180.0);
    cairo_show_glyphs(cr, g, n);
    cairo_restore(cr);
    cairo_glyph_free(g);
}

/* ---- point markers (gnuplot's pngcairo shapes) ------------------------------------- */

static void stroke_seg(cairo_t *cr, double x0, double y0, double x1, double y1)
{
    cairo_move_to(cr, x0, y0);
    cairo_line_to(cr, x1, y1);
    cairo_stroke(cr);
}

static void stroke_plus(cairo_t *cr, double x, double y, double size)
{
    stroke_seg(cr, x - size, y, x + size, y);
    stroke_seg(cr, x, y - size, x, y + size);
}

static void stroke_cross(cairo_t *cr, double x, double y, double size)
{
    stroke_seg(cr, x - size, y - size, x + size, y + size);
    stroke_seg(cr, x - size, y + size, x + size, y - size);
}

/* The outline of the closed marker shapes (gnuplot's cairo point styles 3..14). */
static void marker_outline(cairo_t *cr, int shape, double x, double y, double size)
{
    const double one = 1.0; /* triangles sit one pixel lower / higher than the box */
    switch (shape) {
    case 3:
    case 4:
        cairo_move_to(cr, x - size, y - size);
        cairo_line_to(cr, x - size, y + size);
        cairo_line_to(cr, x + size, y + size);
        cairo_line_to(cr, x + size, y - size);
        break;
    case 5:
    case 6:
        cairo_arc(cr, x, y, size, 0, 2 * ANN_PI);
        return;
    case 7:
    case 8:
        cairo_move_to(cr, x - size, y + size - one);
        cairo_line_to(cr, x, y - size);
        cairo_line_to(cr, x + size, y + size - one);
        break;
    case 9:
    case 10:
        cairo_move_to(cr, x - size, y - size + one);
        cairo_line_to(cr, x, y + size);
        cairo_line_to(cr, x + size, y - size + one);
        break;
    case 11:
    case 12:
        cairo_move_to(cr, x - size, y);
        cairo_line_to(cr, x, y + size);
        cairo_line_to(cr, x + size, y);
        cairo_line_to(cr, x, y - size);
        break;
    default: /* 13, 14: pentagon */
        cairo_move_to(cr, x + size * 0.5878, y - size * 0.8090);
        cairo_line_to(cr, x - size * 0.5878, y - size * 0.8090);
        cairo_line_to(cr, x - size * 0.9511, y + size * 0.3090);
        cairo_line_to(cr, x, y + size);
        cairo_line_to(cr, x + size * 0.9511, y + size * 0.3090);
        break;
    }
    cairo_close_path(cr);
}

/* gnuplot point type N (pngcairo style N-1) at a pixel centre, half size 3*ps px:
 * 0 dot, 1 plus, 2 cross, 3 star, 4/5 box, 6/7 circle, 8/9 triangle, 10/11 inverted
 * triangle, 12/13 diamond, 14/15 pentagon (odd: filled), repeating every 15. */
static void draw_point(drawer *d, const pv_fitem *it)
{
    cairo_t *cr = d->cr;
    double x = snap(dev_x(d, it->x[0])), y = snap(dev_y(d, it->y[0]));
    double size = it->ps * 3.0;
    int style = it->pt - 1;
    if (it->pt < 0) return; /* no marker */
    cairo_save(cr);
    cairo_set_line_width(cr, it->lw);
    set_argb(cr, it->argb);
    if (style < 0) {
        cairo_arc(cr, x, y, 0.5, 0, 2 * ANN_PI);
        cairo_fill(cr);
    } else {
        int shape = style % 15;
        if (shape == 0 || shape == 2) stroke_plus(cr, x, y, size);
        if (shape == 1 || shape == 2) stroke_cross(cr, x, y, size);
        if (shape >= 3) {
            marker_outline(cr, shape, x, y, size);
            if (shape % 2 == 0) cairo_fill_preserve(cr); /* 4, 6, ..., 14: filled */
            cairo_stroke(cr);
        }
    }
    cairo_restore(cr);
}

/* ---- filled shapes ------------------------------------------------------------------ */

static void draw_box(drawer *d, const pv_fitem *it)
{
    cairo_t *cr = d->cr;
    set_argb(cr, it->argb);
    cairo_move_to(cr, dev_x(d, it->x[0]), dev_y(d, it->y[0]));
    cairo_line_to(cr, dev_x(d, it->x[0]), dev_y(d, it->y[1]));
    cairo_line_to(cr, dev_x(d, it->x[1]), dev_y(d, it->y[1]));
    cairo_line_to(cr, dev_x(d, it->x[1]), dev_y(d, it->y[0]));
    cairo_close_path(cr);
    cairo_fill(cr);
}

static void draw_fill(drawer *d, const pv_fitem *it)
{
    if (it->n < 3) return;
    cairo_t *cr = d->cr;
    set_argb(cr, it->argb);
    const int *px = it->vx ? it->vx : it->x, *py = it->vx ? it->vy : it->y;
    cairo_move_to(cr, dev_x(d, px[0]), dev_y(d, py[0]));
    for (int i = 1; i < it->n; i++) cairo_line_to(cr, dev_x(d, px[i]), dev_y(d, py[i]));
    cairo_close_path(cr);
    cairo_fill(cr);
}

/* One band of the colour box. */
static void band_path(drawer *d, const pv_fitem *it, int i)
{
    int ya = it->bands[2 * i], yb = it->bands[2 * i + 1];
    cairo_move_to(d->cr, dev_x(d, it->x[0]), dev_y(d, ya));
    cairo_line_to(d->cr, dev_x(d, it->x[1]), dev_y(d, ya));
    cairo_line_to(d->cr, dev_x(d, it->x[1]), dev_y(d, yb));
    cairo_line_to(d->cr, dev_x(d, it->x[0]), dev_y(d, yb));
    cairo_close_path(d->cr);
}

static pv_status draw_gradient(drawer *d, const pv_fitem *it)
{
    if (it->ncolors <= 0 || !it->colors || !it->bands) return PV_OK;
    cairo_surface_t *tmp = cairo_surface_create_similar(
        cairo_get_target(d->cr), CAIRO_CONTENT_COLOR_ALPHA, d->f->term.width, d->f->term.height);
    if (cairo_surface_status(tmp) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(tmp);
        return PV_ENOMEM;
    }
    cairo_t *main_cr = d->cr;
    cairo_t *cr = cairo_create(tmp);
    cairo_set_operator(cr, CAIRO_OPERATOR_SATURATE);
    d->cr = cr;
    for (int i = it->ncolors - 1; i >= 0; i--) { /* gnuplot keeps them last-first */
        band_path(d, it, i);
        const double *c = &it->colors[3 * i];
        cairo_set_source_rgba(cr, c[0], c[1], c[2], 1.0 - ((it->argb >> 24) & 0xFF) / 255.0);
        cairo_fill(cr);
    }
    cairo_destroy(cr);
    d->cr = main_cr;
    cairo_set_source_surface(main_cr, tmp, 0, 0);
    cairo_paint(main_cr);
    cairo_surface_destroy(tmp);
    return PV_OK;
}

/* ---- public ------------------------------------------------------------------------ */

static void drawer_init(drawer *d, cairo_t *cr, const pv_frame *f, const pv_annot_opts *o)
{
    memset(d, 0, sizeof *d);
    d->cr = cr;
    d->f = f;
    d->o = o;
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
    cairo_set_miter_limit(cr, 3.8);
    use_default_font(d);
    if (!o->font_family || strcmp(o->font_family, DEFAULT_FAMILY) == 0) kern_load_dejavu(&d->kern);
}

static void drawer_fini(drawer *d)
{
    kern_free(&d->kern);
    for (int k = 0; k < 3; k++) kern_free(&d->kern_styled[k]);
}

static pv_status fail(pv_ctx *ctx, const char *what, cairo_status_t st)
{
    if (ctx) return pv_err(ctx, PV_EINTERNAL, "cairo: %s: %s", what, cairo_status_to_string(st));
    return PV_EINTERNAL;
}

pv_status pv_annotate_layer(pv_ctx *ctx, const pv_frame *f, pv_frame_layer layer,
                            const pv_annot_opts *opts, uint32_t *pixels, int stride)
{
    pv_annot_opts def;
    if (!opts) {
        pv_annot_opts_default(&def);
        opts = &def;
    }
    int w = f->term.width, h = f->term.height;
    cairo_surface_t *s = cairo_image_surface_create_for_data((unsigned char *)pixels,
                                                             CAIRO_FORMAT_ARGB32, w, h, stride);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_status_t st = cairo_surface_status(s);
        cairo_surface_destroy(s);
        return fail(ctx, "cannot wrap the layer buffer", st);
    }
    cairo_t *cr = cairo_create(s);
    if (opts->rows_y1 > opts->rows_y0) { /* a band: pixel-aligned, so inside it every
                                          * pixel is what the whole layer would have */
        cairo_rectangle(cr, 0, opts->rows_y0, w, opts->rows_y1 - opts->rows_y0);
        cairo_clip(cr);
    }
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    if (layer == PV_FRAME_BACK && !opts->transparent)
        set_argb(cr, opts->background & 0xFFFFFF);
    else
        cairo_set_source_rgba(cr, 0, 0, 0, 0);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);

    drawer d;
    drawer_init(&d, cr, f, opts);
    pv_status st = PV_OK;
    for (int i = 0; i < f->n && st == PV_OK; i++) {
        const pv_fitem *it = &f->items[i];
        if (it->layer != layer) continue;
        if (it->kind != PV_FI_PATH) path_stroke(&d);
        switch (it->kind) {
        case PV_FI_PATH: draw_path(&d, it); break;
        case PV_FI_TEXT: draw_text(&d, it); break;
        case PV_FI_POINT: draw_point(&d, it); break;
        case PV_FI_BOX: draw_box(&d, it); break;
        case PV_FI_FILL: draw_fill(&d, it); break;
        case PV_FI_GRADIENT: st = draw_gradient(&d, it); break;
        }
    }
    path_stroke(&d);
    cairo_status_t cst = cairo_status(cr);
    drawer_fini(&d);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    cairo_surface_destroy(s);
    if (st != PV_OK) return ctx ? pv_err(ctx, st, "cannot draw the colour box") : st;
    if (cst != CAIRO_STATUS_SUCCESS) return fail(ctx, "drawing the frame failed", cst);
    return PV_OK;
}

pv_status pv_annotate_frame(pv_ctx *ctx, const pv_frame *f, const pv_annot_opts *opts,
                            uint32_t *bg, uint32_t *fg, int stride)
{
    pv_status st = pv_annotate_layer(ctx, f, PV_FRAME_BACK, opts, bg, stride);
    if (st != PV_OK) return st;
    return pv_annotate_layer(ctx, f, PV_FRAME_FRONT, opts, fg, stride);
}

double pv_annotate_text_width(const pv_frame *f, const pv_annot_opts *opts, const char *text)
{
    pv_annot_opts def;
    if (!opts) {
        pv_annot_opts_default(&def);
        opts = &def;
    }
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    cairo_t *cr = cairo_create(s);
    drawer d;
    drawer_init(&d, cr, f, opts);
    int n;
    double w = 0.0;
    cairo_glyph_t *g = layout_text(&d, text, &n, &w);
    cairo_glyph_free(g);
    drawer_fini(&d);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    return w;
}
