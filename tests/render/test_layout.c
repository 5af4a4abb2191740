/*
 * The frame display list: which items go to which layer, the counts gnuplot draws, and
 * positions checked against gnuplot's svg output of the same frame (svg metrics, so the
 * numbers are exact to 0.01 px): tic marks and labels of x/y/z, the key (outside, as
 * gnuplot narrows the plot for it), title lines, the colour box label.
 * The pixel-level comparison with pngcairo is tests/annotate/test_frame_gnuplot.c.
 */
#include "pv_test.h"
#include "test_view_gnuplot.h"

#include "pvox/view.h"

static const double tic01[6] = {0, 0.2, 0.4, 0.6, 0.8, 1};
static const char *const lab01[6] = {" 0", " 0.2", " 0.4", " 0.6", " 0.8", " 1"};

static void spec_01(pv_frame_spec *s)
{
    pv_frame_spec_default(s);
    for (int a = 0; a < 3; a++) {
        s->axis[a].ntics = 6;
        s->axis[a].tic_pos = tic01;
        s->axis[a].tic_text = lab01;
    }
}

static void view_01(pv_view3d *v, const pv_termdim *t, double rx, double rz, int title_lines,
                    int reserve)
{
    pv_view3d_params p = {0};
    p.term = *t;
    p.rot_x = rx;
    p.rot_z = rz;
    p.scale = p.zscale = 1;
    p.xmax = p.ymax = p.zmax = 1;
    p.xyplane_rel = 0.5;
    p.base_in_box = true;
    p.title_lines = title_lines;
    p.key_reserve_right = reserve;
    pv_view3d_setup(v, &p);
}

static int count(const pv_frame *f, pv_fitem_kind kind, pv_frame_layer layer)
{
    int n = 0;
    for (int i = 0; i < f->n; i++) n += f->items[i].kind == kind && f->items[i].layer == layer;
    return n;
}

static void test_layers(void)
{
    pv_termdim t;
    pv_termdim_pngcairo(&t, 640, 480, 12);
    pv_frame_spec s;
    spec_01(&s);
    s.key_on = false;
    pv_view3d v;
    pv_frame f = {0};
    /* from above: border 31 = 4 base edges + the left vertical; back: 2 base edges + the
     * vertical + x, y tics (6 marks + 6 mirrors each) + z tics (6, no mirror) */
    view_01(&v, &t, 60, 30, 0, 0);
    PV_CHECK(pv_frame_build(&f, &s, &v));
    PV_CHECK_EQ(count(&f, PV_FI_PATH, PV_FRAME_BACK), 3 + 12 + 12 + 6);
    PV_CHECK_EQ(count(&f, PV_FI_TEXT, PV_FRAME_BACK), 18);
    PV_CHECK_EQ(count(&f, PV_FI_PATH, PV_FRAME_FRONT), 2);
    PV_CHECK_EQ(count(&f, PV_FI_TEXT, PV_FRAME_FRONT), 0);
    /* from below: x and y tics move to the front, z tics stay behind */
    view_01(&v, &t, 120, 30, 0, 0);
    PV_CHECK(pv_frame_build(&f, &s, &v));
    PV_CHECK_EQ(count(&f, PV_FI_PATH, PV_FRAME_FRONT), 2 + 24);
    PV_CHECK_EQ(count(&f, PV_FI_TEXT, PV_FRAME_FRONT), 12);
    PV_CHECK_EQ(count(&f, PV_FI_TEXT, PV_FRAME_BACK), 6);
    /* no border, no tics: nothing at all; a title and labels are front texts */
    s.border = 0;
    for (int a = 0; a < 4; a++) s.axis[a].tics = false;
    s.title = "T";
    s.axis[0].label = "x";
    s.axis[2].label = "z";
    view_01(&v, &t, 60, 30, pv_frame_title_lines(s.title), 0);
    PV_CHECK(pv_frame_build(&f, &s, &v));
    PV_CHECK_EQ(f.n, 3);
    PV_CHECK_EQ(count(&f, PV_FI_TEXT, PV_FRAME_FRONT), 3);
    pv_frame_fini(&f);
    PV_CHECK_EQ(f.n, 0);
    PV_CHECK(f.items == NULL);
    /* title lines: gnuplot counts backslashes */
    PV_CHECK_EQ(pv_frame_title_lines(NULL), 0);
    PV_CHECK_EQ(pv_frame_title_lines(""), 0);
    PV_CHECK_EQ(pv_frame_title_lines("a\nb"), 1);
    PV_CHECK_EQ(pv_frame_title_lines("a\\nb\\nc"), 3);
}

/* Texts and the tic-mark end points of our frame against an svg of gnuplot's. */
typedef struct svg_text {
    double x, y;
    char anchor; /* s(tart) m(iddle) e(nd) */
    char text[64];
} svg_text;

static int svg_texts(const char *svg, svg_text *out, int cap)
{
    int n = 0;
    for (const char *p = svg; (p = strstr(p, "<g transform=\"translate(")) && n < cap; p++) {
        svg_text *t = &out[n];
        char anchor[16];
        if (sscanf(p, "<g transform=\"translate(%lf,%lf)", &t->x, &t->y) != 2) continue;
        const char *a = strstr(p, "text-anchor=\"");
        const char *q = strstr(p, "<tspan font-family=\"Arial\" >");
        if (!a || !q || sscanf(a, "text-anchor=\"%15[a-z]", anchor) != 1) continue;
        t->anchor = anchor[0];
        if (sscanf(q + strlen("<tspan font-family=\"Arial\" >"), "%63[^<]", t->text) != 1) continue;
        n++;
    }
    return n;
}

static void test_svg_positions(void)
{
    char *svg = gp_run("set term svg size 640,480\nset output 'f.svg'\n"
                       "set title \"Two\\nlines\"\nset xlabel 'X'\nset ylabel 'Y'\nset zlabel 'Z'\n"
                       "set key outside\nset xrange [0:1]; set yrange [0:1]; set zrange [0:1]\n"
                       "splot '-' with lines title 'outside key'\n9 9 9\n9 9 9\ne\n",
                       "f.svg");
    PV_CHECK(svg != NULL);
    if (!svg) return;
    svg_text g[64];
    int ng = svg_texts(svg, g, 64);
    free(svg);

    pv_termdim t;
    gp_svg_termdim(&t, 640, 480);
    static const pv_key_entry key[1] = {
        {.title = "outside key", .sample = PV_KS_LINE, .ps = 1, .lw = 1, .argb = 0x9400D3}};
    pv_frame_spec s;
    spec_01(&s);
    s.title = "Two\nlines"; /* a real newline: two lines drawn, one reserved */
    s.axis[0].label = "X";
    s.axis[1].label = "Y";
    s.axis[2].label = "Z";
    s.key = key;
    s.nkey = 1;
    s.key_outside = true;
    pv_view3d v;
    view_01(&v, &t, 60, 30, pv_frame_title_lines(s.title), pv_frame_key_reserve(&s, &t));
    pv_frame f = {0};
    PV_CHECK(pv_frame_build(&f, &s, &v));
    /* every svg text must be one of ours, same anchor and position (y: svg centres text
     * with a constant baseline shift, so compare after removing it) */
    double shift = NAN;
    int matched = 0;
    for (int i = 0; i < ng; i++) {
        bool found = false;
        for (int k = 0; k < f.n && !found; k++) {
            const pv_fitem *it = &f.items[k];
            if (it->kind != PV_FI_TEXT || strcmp(it->text, g[i].text) != 0) continue;
            double x = it->x[0] / 100.0, y = (t.ymax - it->y[0]) / 100.0;
            char anchor = it->just == PV_JUST_LEFT ? 's' : it->just == PV_JUST_CENTRE ? 'm' : 'e';
            if (isnan(shift)) shift = g[i].y - y;
            if (fabs(x - g[i].x) < 0.011 && fabs(y + shift - g[i].y) < 0.011 &&
                anchor == g[i].anchor)
                found = true;
        }
        if (!found) fprintf(stderr, "svg text '%s' at %.2f,%.2f not in our frame\n", g[i].text,
                            g[i].x, g[i].y);
        matched += found;
    }
    PV_CHECK_EQ(matched, ng);
    PV_CHECK_EQ(ng, count(&f, PV_FI_TEXT, PV_FRAME_BACK) + count(&f, PV_FI_TEXT, PV_FRAME_FRONT));
    PV_CHECK(shift > 3.0 && shift < 4.5); /* svg's baseline shift for Arial 12 */
    pv_frame_fini(&f);
}

/* `tc` of the title and the axis labels colours their text (rgb_variable.dem's "Red",
 * "Green", "Blue" axis labels). */
static void test_text_colours(void)
{
    pv_termdim t;
    pv_termdim_pngcairo(&t, 640, 480, 12);
    pv_frame_spec s;
    spec_01(&s);
    s.key_on = false;
    s.title = "T";
    s.title_argb = 0x0000FF;
    s.axis[PV_FAX_X].label = "Red";
    s.axis[PV_FAX_X].label_argb = 0xFF0000;
    s.axis[PV_FAX_Z].label = "Blue";
    s.axis[PV_FAX_Z].label_argb = 0x0000FF;
    pv_view3d v;
    view_01(&v, &t, 60, 30, 1, 0);
    pv_frame f = {0};
    PV_CHECK(pv_frame_build(&f, &s, &v));
    int seen = 0;
    for (int i = 0; i < f.n; i++) {
        const pv_fitem *it = &f.items[i];
        if (it->kind != PV_FI_TEXT) continue;
        uint32_t want = !strcmp(it->text, "Red") ? 0xFF0000u : 0x0000FFu;
        if (!strcmp(it->text, "T") || !strcmp(it->text, "Red") || !strcmp(it->text, "Blue")) {
            seen++;
            PV_CHECK_EQ(it->argb, want);
        }
        if (!strcmp(it->text, " 0.2")) PV_CHECK_EQ(it->argb, 0u); /* tic labels stay black */
    }
    PV_CHECK_EQ(seen, 3);
    pv_frame_fini(&f);
}

/* `lc palette` data: the key sample is a gradient line of 24 segments and a row of points
 * (gnuplot's key_sample_line_pm3d / key_sample_point_pm3d), against gnuplot's svg. */
static void test_svg_gradient_key(void)
{
    char *svg = gp_run("set term svg size 640,480\nset output 'g.svg'\n"
                       "set xrange [0:1]; set yrange [0:1]; set zrange [0:1]\n"
                       "splot '-' using 1:2:3 with linespoints pt 7 lc palette title 'grad'\n"
                       "0 0 0.2\n1 1 0.9\n0.5 0.5 0.5\ne\n",
                       "g.svg");
    PV_CHECK(svg != NULL);
    if (!svg) return;
    /* the key row: segments `d='Mx,y Lx2,y'` and points `translate(x,y)` at the top */
    double seg_x[32], pt_x[8];
    unsigned seg_rgb[32], pt_rgb[8];
    int nseg = 0, npt = 0;
    for (const char *p = svg; (p = strstr(p, "<path stroke='rgb(")) != NULL; p++) {
        unsigned r, g, b;
        double x0, y0, x1, y1;
        if (sscanf(p, "<path stroke='rgb(%u, %u, %u)'  d='M%lf,%lf L%lf,%lf", &r, &g, &b, &x0, &y0,
                   &x1, &y1) == 7 && y0 == y1 && y0 < 60 && nseg < 32) {
            seg_x[nseg] = x0;
            seg_rgb[nseg++] = r << 16 | g << 8 | b;
        }
    }
    for (const char *p = svg; (p = strstr(p, "<use xlink:href='#gpPt6' transform='translate(")) != NULL; p++) {
        unsigned r, g, b;
        double x, y, sc;
        if (sscanf(p, "<use xlink:href='#gpPt6' transform='translate(%lf,%lf) scale(%lf)' "
                      "color='rgb(%u, %u, %u)'", &x, &y, &sc, &r, &g, &b) == 6 && y < 60 && npt < 8) {
            pt_x[npt] = x;
            pt_rgb[npt++] = r << 16 | g << 8 | b;
        }
    }
    free(svg);
    PV_CHECK_EQ(nseg, 24);
    PV_CHECK_EQ(npt, 3);

    pv_termdim t;
    gp_svg_termdim(&t, 640, 480);
    pv_pal pal;
    pv_pal_default(&pal);
    /* the data's cb range is [0.2:0.9]: its gray runs 0 to 1 */
    pv_key_entry key[1] = {{.title = "grad", .sample = PV_KS_LINEPOINT, .pt = 7, .ps = 1, .lw = 1,
                            .gradient = true, .gray_from = 0, .gray_to = 1}};
    pv_frame_spec s;
    spec_01(&s);
    s.key = key;
    s.nkey = 1;
    s.pal = &pal;
    pv_view3d v;
    view_01(&v, &t, 60, 30, 0, 0);
    pv_frame f = {0};
    PV_CHECK(pv_frame_build(&f, &s, &v));
    int ks = 0, kp = 0;
    for (int k = 0; k < f.n; k++) {
        const pv_fitem *it = &f.items[k];
        if (it->kind == PV_FI_POINT && kp < npt) {
            PV_CHECK(fabs(it->x[0] / 100.0 - pt_x[kp]) < 0.011);
            PV_CHECK_EQ(it->argb, pt_rgb[kp]);
            kp++;
        } else if (it->kind == PV_FI_PATH && it->n == 2 && it->y[0] == it->y[1] &&
                   it->layer == PV_FRAME_FRONT && it->argb != 0 && ks < nseg) {
            PV_CHECK(fabs(it->x[0] / 100.0 - seg_x[ks]) < 0.011);
            PV_CHECK_EQ(it->argb, seg_rgb[ks]);
            ks++;
        }
    }
    PV_CHECK_EQ(kp, 3);
    PV_CHECK_EQ(ks, 24);
    pv_frame_fini(&f);
}

int main(void)
{
    test_layers();
    test_text_colours();
    if (!gp_have()) {
        fprintf(stderr, "gnuplot not found: svg checks skipped\n");
        return 77;
    }
    test_svg_positions();
    test_svg_gradient_key();
    gp_cleanup();
    return pv_test_result("layout");
}
