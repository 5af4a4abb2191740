/*
 * Tests for the settings module: `set`/`unset`/`show` parsed from real script text with
 * lang's lexer and cursor, run first in check mode (nothing may change) then in exec
 * mode, with the fields the renderer reads asserted; errors located; DEC-11
 * warnings printed once per name.
 */
#include "settings_harness.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- stderr capture (warnings are printed, not returned) ---------------------------- */

static FILE *cap_file;
static int cap_saved = -1;

static void cap_begin(void)
{
    fflush(stderr);
    cap_file = tmpfile();
    cap_saved = dup(fileno(stderr));
    dup2(fileno(cap_file), fileno(stderr));
}

/* Returns the captured text (malloc'd). */
static char *cap_end(void)
{
    fflush(stderr);
    dup2(cap_saved, fileno(stderr));
    close(cap_saved);
    long n = ftell(cap_file);
    char *buf = calloc((size_t)(n > 0 ? n : 0) + 1, 1);
    rewind(cap_file);
    if (n > 0 && fread(buf, 1, (size_t)n, cap_file) != (size_t)n) buf[0] = '\0';
    fclose(cap_file);
    return buf;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* ---- running script text ------------------------------------------------------------- */

/* Check mode must accept and change nothing observable, then exec. */
static pv_status run(pv_settings *s, const char *text)
{
    pv_status st = run_mode(s, text, false, NULL);
    if (st != PV_OK) return st;
    return run_mode(s, text, true, NULL);
}

/* ---- tests ------------------------------------------------------------------------- */

static void test_defaults(void)
{
    pv_settings *s = pv_settings_create(ctx);
    PV_CHECK(s != NULL);
    PV_CHECK_EQ(s->term.kind, PV_TERM_PNGCAIRO);
    PV_CHECK_EQ(s->term.width, 640);
    PV_CHECK_EQ(s->term.height, 480);
    PV_CHECK(s->output == NULL);
    PV_CHECK_NEAR(s->view.rot_x, 60, 0);
    PV_CHECK_NEAR(s->view.rot_z, 30, 0);
    PV_CHECK_NEAR(s->view.scale, 1, 0);
    PV_CHECK_EQ(s->border, 31);
    PV_CHECK(s->key.on);
    PV_CHECK(!s->xyplane_absolute);
    PV_CHECK_NEAR(s->xyplane_rel, 0.5, 0);
    PV_CHECK(s->range[PV_AX_X].auto_min && s->range[PV_AX_X].auto_max);
    PV_CHECK(!s->range[PV_AX_U].auto_min);
    PV_CHECK_NEAR(s->range[PV_AX_U].min, -5, 0);
    PV_CHECK_NEAR(s->range[PV_AX_V].max, 5, 0);
    PV_CHECK(!s->range[PV_AX_U].user_set);
    PV_CHECK_EQ(s->samples[0], 100);
    PV_CHECK_EQ(s->isosamples[1], 10);
    PV_CHECK_EQ(s->palette.kind, PV_PAL_RGBFORMULAE);
    PV_CHECK_EQ(s->palette.formulae[0], 7);
    PV_CHECK_EQ(s->palette.formulae[2], 15);
    PV_CHECK_EQ(s->fill.kind, PV_FILL_EMPTY);
    PV_CHECK_EQ(s->iso_inside_offset, 1);
    PV_CHECK(!s->jitter.on);
    PV_CHECK(s->colorbox.on);
    PV_CHECK_EQ(pv_settings_lt_rgb(s, 1), 0x9400d3);
    PV_CHECK_EQ(pv_settings_lt_rgb(s, 9), 0x9400d3);
    PV_CHECK_EQ(pv_settings_lt_rgb(s, 2), 0x009e73);
    pv_settings_destroy(s);
    pv_settings_destroy(NULL);
}

static void test_article(void)
{
    pv_settings *s = pv_settings_create(ctx);
    const char *common =
        "set term pngcairo size 800,600\n"
        "set xrange [0:1]; set yrange [0:1]; set zrange [0:1]\n"
        "set view 65,40\n"
        "set xyplane at -0.1\n"
        "set border 4095\n"
        "unset key\n"
        "set palette define (0 \"red\", 0.5 \"white\", 1 \"blue\")\n";
    /* check mode changes nothing */
    PV_CHECK_EQ(run_mode(s, common, false, NULL), PV_OK);
    PV_CHECK_EQ(s->term.width, 640);
    PV_CHECK_NEAR(s->view.rot_x, 60, 0);
    PV_CHECK_EQ(s->border, 31);
    PV_CHECK(s->key.on);
    PV_CHECK(s->range[PV_AX_X].auto_min);
    PV_CHECK_EQ(s->palette.kind, PV_PAL_RGBFORMULAE);

    PV_CHECK_EQ(run_mode(s, common, true, NULL), PV_OK);
    PV_CHECK_EQ(s->term.kind, PV_TERM_PNGCAIRO);
    PV_CHECK_EQ(s->term.width, 800);
    PV_CHECK_EQ(s->term.height, 600);
    for (int ax = PV_AX_X; ax <= PV_AX_Z; ax++) {
        PV_CHECK(!s->range[ax].auto_min && !s->range[ax].auto_max);
        PV_CHECK_NEAR(s->range[ax].min, 0, 0);
        PV_CHECK_NEAR(s->range[ax].max, 1, 0);
    }
    PV_CHECK(s->range[PV_AX_CB].auto_min);
    PV_CHECK_NEAR(s->view.rot_x, 65, 0);
    PV_CHECK_NEAR(s->view.rot_z, 40, 0);
    PV_CHECK_NEAR(s->view.scale, 1, 0);
    PV_CHECK(s->xyplane_absolute);
    PV_CHECK_NEAR(s->xyplane_z, -0.1, 1e-15);
    PV_CHECK_EQ(s->border, 4095);
    PV_CHECK(!s->key.on);
    PV_CHECK_EQ(s->palette.kind, PV_PAL_DEFINED);
    PV_CHECK_EQ(s->palette.ngrad, 3);
    if (s->palette.ngrad == 3) {
        PV_CHECK_NEAR(s->palette.grad[0].pos, 0, 0);
        PV_CHECK_NEAR(s->palette.grad[0].r, 1, 0);
        PV_CHECK_NEAR(s->palette.grad[0].g, 0, 0);
        PV_CHECK_NEAR(s->palette.grad[1].pos, 0.5, 0);
        PV_CHECK_NEAR(s->palette.grad[1].b, 1, 0);
        PV_CHECK_NEAR(s->palette.grad[2].b, 1, 0);
        PV_CHECK_NEAR(s->palette.grad[2].r, 0, 0);
    }

    /* the scenes' other settings */
    PV_CHECK_EQ(run(s, "set jitter spread 0.3\nset style fill transparent solid 0.4\n"
                       "set pm3d depthorder\nset samp 100; set iso 100\nset cbr [-3:3]\n"
                       "set out \"slfr\" . gprintf('%02g', 7) . '.png'\n"),
                PV_OK);
    PV_CHECK(s->jitter.on);
    PV_CHECK_NEAR(s->jitter.spread, 0.3, 1e-15);
    PV_CHECK_EQ(s->fill.kind, PV_FILL_SOLID);
    PV_CHECK(s->fill.transparent);
    PV_CHECK_NEAR(s->fill.density, 0.4, 1e-15);
    PV_CHECK(s->pm3d.depthorder);
    PV_CHECK(!s->pm3d.implicit); /* only a bare `set pm3d` or `at` makes it implicit */
    PV_CHECK_EQ(run(s, "set pm3d at b"), PV_OK);
    PV_CHECK(s->pm3d.implicit);
    PV_CHECK_STR(s->pm3d.at, "b");
    PV_CHECK_EQ(s->samples[0], 100);
    PV_CHECK_EQ(s->samples[1], 100);
    PV_CHECK_EQ(s->isosamples[0], 100);
    PV_CHECK_EQ(s->isosamples[1], 100);
    PV_CHECK_NEAR(s->range[PV_AX_CB].min, -3, 0);
    PV_CHECK_NEAR(s->range[PV_AX_CB].max, 3, 0);
    PV_CHECK(!s->range[PV_AX_CB].auto_min);
    PV_CHECK_STR(s->output, "slfr07.png");
    PV_CHECK_EQ(run(s, "set out"), PV_OK);
    PV_CHECK(s->output == NULL);

    /* reset keeps terminal, output; restores the rest */
    PV_CHECK_EQ(run(s, "set output 'keep.png'"), PV_OK);
    pv_settings_reset(s);
    PV_CHECK_EQ(s->term.width, 800);
    PV_CHECK_STR(s->output, "keep.png");
    PV_CHECK_NEAR(s->view.rot_x, 60, 0);
    PV_CHECK_EQ(s->border, 31);
    PV_CHECK(s->key.on);
    PV_CHECK_EQ(s->palette.kind, PV_PAL_RGBFORMULAE);
    PV_CHECK(s->range[PV_AX_X].auto_min);
    PV_CHECK(!s->jitter.on);
    pv_settings_reset_all(s);
    PV_CHECK_EQ(s->term.width, 640);
    PV_CHECK(s->output == NULL);
    pv_settings_destroy(s);
}

static void test_experiments(void)
{
    pv_settings *s = pv_settings_create(ctx);
    /* every `set` form the gnuplot experiments use (svg terminal aside: DEC-10) */
    PV_CHECK_EQ(run(s, "set urange [0:1]; set vrange [0:1]\n"
                       "set samples 4,5; set isosamples 3,2\n"
                       "unset key; unset border; unset tics; unset colorbox\n"
                       "set isosurface triangles; set isosurface noinsidecolor\n"
                       "set style fill solid 1.0 border lc \"black\"\n"
                       "set pm3d border lc \"blue\" lw 0.5\n"
                       "set pm3d lighting primary 0.8 specular 0.0\n"
                       "set palette negative\n"
                       "set autoscale cbfix\n"
                       "set hidden3d\n"),
                PV_OK);
    PV_CHECK(s->range[PV_AX_U].user_set && s->range[PV_AX_V].user_set);
    PV_CHECK_NEAR(s->range[PV_AX_U].max, 1, 0);
    PV_CHECK_EQ(s->samples[0], 4);
    PV_CHECK_EQ(s->samples[1], 5);
    PV_CHECK_EQ(s->isosamples[0], 3);
    PV_CHECK_EQ(s->isosamples[1], 2);
    PV_CHECK(!s->key.on);
    PV_CHECK_EQ(s->border, 0);
    PV_CHECK(!s->tics[PV_AX_X].on && !s->tics[PV_AX_CB].on);
    PV_CHECK(!s->colorbox.on);
    PV_CHECK(s->iso_triangles);
    PV_CHECK_EQ(s->iso_inside_offset, 0);
    PV_CHECK_EQ(s->fill.kind, PV_FILL_SOLID);
    PV_CHECK(s->fill.border);
    PV_CHECK_EQ(s->fill.border_color.kind, PV_COLOR_RGB);
    PV_CHECK_EQ(s->fill.border_color.argb, 0x000000);
    PV_CHECK(s->pm3d.border_on);
    PV_CHECK_EQ(s->pm3d.border.lc.argb, 0x0000ff);
    PV_CHECK_NEAR(s->pm3d.border.lw, 0.5, 0);
    PV_CHECK(s->pm3d.lighting);
    PV_CHECK_NEAR(s->pm3d.primary, 0.8, 1e-15);
    PV_CHECK_NEAR(s->pm3d.specular, 0.0, 0);
    PV_CHECK(s->palette.negative);
    PV_CHECK(s->range[PV_AX_CB].fix_min && s->range[PV_AX_CB].fix_max);
    PV_CHECK(s->hidden3d);

    PV_CHECK_EQ(run(s, "set samples 4; set isosurface insidecolor 3; set view map\n"
                       "set xrange [0:*]; set cbrange [*:*]; unset cbrange\n"
                       "set isosurface mixed; set isosurface insidecolor\n"
                       "set palette defined (-1 \"red\", 0 \"white\", 1 \"blue\")\n"
                       "unset hidden3d; unset pm3d\n"),
                PV_OK);
    PV_CHECK_EQ(s->samples[0], 4);
    PV_CHECK_EQ(s->samples[1], 4);
    PV_CHECK(s->view.map);
    PV_CHECK(!s->range[PV_AX_X].auto_min && s->range[PV_AX_X].auto_max);
    PV_CHECK(s->range[PV_AX_CB].auto_min && s->range[PV_AX_CB].auto_max);
    PV_CHECK(!s->iso_triangles);
    PV_CHECK_EQ(s->iso_inside_offset, 1);
    PV_CHECK_EQ(s->palette.ngrad, 3);
    if (s->palette.ngrad == 3) PV_CHECK_NEAR(s->palette.grad[1].pos, 0.5, 0);
    PV_CHECK(!s->hidden3d);
    PV_CHECK(!s->pm3d.implicit);

    PV_CHECK_EQ(run(s, "set palette defined (0 \"red\", 1 \"white\", 3 \"blue\")"), PV_OK);
    if (s->palette.ngrad == 3) PV_CHECK_NEAR(s->palette.grad[1].pos, 1.0 / 3, 1e-15);
    PV_CHECK_EQ(run(s, "set palette defined (0 1 0 0, 1 0 0 1)"), PV_OK);
    PV_CHECK_EQ(s->palette.ngrad, 2);
    PV_CHECK_EQ(run(s, "set palette rgb 33,13,10; set palette cubehelix start 0.2 cycles -1 saturation 0.5"), PV_OK);
    PV_CHECK_EQ(s->palette.kind, PV_PAL_CUBEHELIX);
    PV_CHECK_EQ(s->palette.formulae[0], 33);
    PV_CHECK_NEAR(s->palette.ch_start, 0.2, 1e-15);
    PV_CHECK_EQ(run(s, "set palette maxcolors 8 gamma 2 positive model RGB"), PV_OK);
    PV_CHECK_EQ(s->palette.maxcolors, 8);
    PV_CHECK(!s->palette.negative);
    PV_CHECK_EQ(run(s, "set palette"), PV_OK);
    PV_CHECK_EQ(s->palette.kind, PV_PAL_RGBFORMULAE);
    PV_CHECK_EQ(s->palette.formulae[0], 7);

    PV_CHECK_EQ(run(s, "set jitter over 0 spread 3 square"), PV_OK);
    PV_CHECK_NEAR(s->jitter.spread, 3, 0);
    PV_CHECK_EQ(s->jitter.style, 1);
    PV_CHECK_EQ(run(s, "set jitter spread 0"), PV_OK);
    PV_CHECK_NEAR(s->jitter.spread, 1, 0);
    PV_CHECK_EQ(run(s, "unset jitter"), PV_OK);
    PV_CHECK(!s->jitter.on);
    pv_settings_destroy(s);
}

static void test_misc(void)
{
    pv_settings *s = pv_settings_create(ctx);
    PV_CHECK_EQ(run(s, "set term png size 300,200 font \"Arial,10\" fontscale 1.5 "
                       "background \"#102030\" transparent noenhanced crop"),
                PV_OK);
    PV_CHECK_EQ(s->term.kind, PV_TERM_PNG);
    PV_CHECK_EQ(s->term.width, 300);
    PV_CHECK_EQ(s->term.height, 200);
    PV_CHECK_STR(s->term.font_name, "Arial");
    PV_CHECK_NEAR(s->term.font_size, 10, 0);
    PV_CHECK_NEAR(s->term.fontscale, 1.5, 0);
    PV_CHECK_EQ(s->term.background, 0x102030);
    PV_CHECK(s->term.transparent && !s->term.enhanced && s->term.crop);
    PV_CHECK_EQ(run(s, "set te pngcairo"), PV_OK);
    PV_CHECK_EQ(s->term.kind, PV_TERM_PNGCAIRO);
    PV_CHECK_EQ(s->term.width, 640);

    PV_CHECK_EQ(run(s, "set view 50,,2; set view ,100"), PV_OK);
    PV_CHECK_NEAR(s->view.rot_x, 50, 0);
    PV_CHECK_NEAR(s->view.rot_z, 100, 0);
    PV_CHECK_NEAR(s->view.scale, 2, 0);
    PV_CHECK_EQ(run(s, "set view equal xyz"), PV_OK);
    PV_CHECK_EQ(s->view.equal, 2);
    PV_CHECK_EQ(run(s, "set xyplane relative 0.25"), PV_OK);
    PV_CHECK(!s->xyplane_absolute);
    PV_CHECK_NEAR(s->xyplane_rel, 0.25, 0);
    PV_CHECK_EQ(run(s, "set ticslevel 0.1"), PV_OK);
    PV_CHECK_NEAR(s->xyplane_rel, 0.1, 1e-15);

    PV_CHECK_EQ(run(s, "set xr [1:2]; set xr [:5] reverse"), PV_OK);
    PV_CHECK_NEAR(s->range[PV_AX_X].min, 1, 0);
    PV_CHECK_NEAR(s->range[PV_AX_X].max, 5, 0);
    PV_CHECK(s->range[PV_AX_X].reverse);
    PV_CHECK_EQ(run(s, "set autoscale xmax; unset autoscale y"), PV_OK);
    PV_CHECK(!s->range[PV_AX_X].auto_min && s->range[PV_AX_X].auto_max);
    PV_CHECK(!s->range[PV_AX_Y].auto_min && !s->range[PV_AX_Y].auto_max);

    PV_CHECK_EQ(run(s, "set border 3 back lw 2 lc rgb 'red'"), PV_OK);
    PV_CHECK_EQ(s->border, 3);
    PV_CHECK_EQ(s->border_layer, PV_LAYER_BACK);
    PV_CHECK_NEAR(s->border_lp.lw, 2, 0);
    PV_CHECK_EQ(s->border_lp.lc.argb, 0xff0000);
    PV_CHECK_EQ(run(s, "set border lw 3"), PV_OK); /* only what is given changes */
    PV_CHECK_EQ(s->border, 3);
    PV_CHECK_EQ(s->border_layer, PV_LAYER_BACK);
    PV_CHECK_NEAR(s->border_lp.lw, 3, 0);
    PV_CHECK_EQ(run(s, "set border"), PV_OK); /* bare: default */
    PV_CHECK_EQ(s->border, 31);
    PV_CHECK_EQ(s->border_layer, PV_LAYER_FRONT);
    PV_CHECK_EQ(run(s, "set style fill transparent solid; set style fill noborder"), PV_OK);
    PV_CHECK(s->fill.transparent && !s->fill.border);
    PV_CHECK_NEAR(s->fill.density, 0.5, 0);
    PV_CHECK_EQ(run(s, "set style fill solid"), PV_OK);
    PV_CHECK(!s->fill.transparent);
    PV_CHECK_NEAR(s->fill.density, 1, 0);

    PV_CHECK_EQ(run(s, "set key top left box opaque title 'T'"), PV_OK);
    PV_CHECK(s->key.on && s->key.box && s->key.opaque);
    PV_CHECK_EQ(s->key.hpos, PV_KEYPOS_LEFT);
    PV_CHECK_STR(s->key.title, "T");

    PV_CHECK_EQ(run(s, "set title \"hi\" offset 0,1 font \",14\" tc rgb \"red\"\n"
                       "set xlabel 'x' . 'y'; set cblabel 'V' rotate by 45"),
                PV_OK);
    PV_CHECK_STR(s->title.text, "hi");
    PV_CHECK_NEAR(s->title.offset[1], 1, 0);
    PV_CHECK_STR(s->title.font, ",14");
    PV_CHECK_EQ(s->title.tc.argb, 0xff0000);
    PV_CHECK_STR(s->label[PV_AX_X].text, "xy");
    PV_CHECK_NEAR(s->label[PV_AX_CB].rotate, 45, 0);
    PV_CHECK_EQ(run(s, "set title"), PV_OK); /* text cleared, offset kept (gnuplot) */
    PV_CHECK(s->title.text == NULL);
    PV_CHECK_NEAR(s->title.offset[1], 1, 0);
    PV_CHECK_EQ(run(s, "set title 'again'; unset title"), PV_OK);
    PV_CHECK(s->title.text == NULL);
    PV_CHECK_EQ(run(s, "set urange [0:1]; unset urange"), PV_OK);
    PV_CHECK(s->range[PV_AX_U].auto_min && !s->range[PV_AX_U].user_set);

    PV_CHECK_EQ(run(s, "set xtics 0.5 nomirror out; set ytics 0,0.2,1; set ztics ('a' 1, 'b' 2)\n"
                       "set cbtics format '%.1f'"),
                PV_OK);
    PV_CHECK(s->tics[PV_AX_X].has_incr && !s->tics[PV_AX_X].mirror && s->tics[PV_AX_X].outward);
    PV_CHECK_NEAR(s->tics[PV_AX_X].incr, 0.5, 0);
    PV_CHECK_NEAR(s->tics[PV_AX_Y].start, 0, 0);
    PV_CHECK_NEAR(s->tics[PV_AX_Y].incr, 0.2, 1e-15);
    PV_CHECK_NEAR(s->tics[PV_AX_Y].end, 1, 0);
    PV_CHECK_STR(s->tics[PV_AX_CB].format, "%.1f");
    /* `set grid`: x and y unless an axis is named; `no...` and `m...` words; layer; the
     * major and minor line properties (minor copies major without a comma) */
    PV_CHECK_EQ(run(s, "set grid"), PV_OK);
    PV_CHECK(s->grid.major[PV_AX_X] && s->grid.major[PV_AX_Y] && !s->grid.major[PV_AX_Z]);
    PV_CHECK_EQ(s->grid.layer, -1);
    PV_CHECK_EQ(s->grid.lp.lt, 0);
    PV_CHECK_NEAR(s->grid.lp.lw, 0.5, 0);
    PV_CHECK_EQ(run(s, "set grid noxtics ztics front lt 3 lw 2"), PV_OK);
    PV_CHECK(!s->grid.major[PV_AX_X] && s->grid.major[PV_AX_Y] && s->grid.major[PV_AX_Z]);
    PV_CHECK_EQ(s->grid.layer, 1);
    PV_CHECK_EQ(s->grid.lp.lt, 3);
    PV_CHECK_NEAR(s->grid.mlp.lw, 2, 0);
    PV_CHECK_EQ(run(s, "set grid back lw 1, lw 3"), PV_OK);
    PV_CHECK_NEAR(s->grid.lp.lw, 1, 0);
    PV_CHECK_NEAR(s->grid.mlp.lw, 3, 0);
    PV_CHECK_EQ(s->grid.layer, 0);
    PV_CHECK_EQ(run(s, "unset grid"), PV_OK);
    PV_CHECK(!s->grid.major[PV_AX_Y] && !s->grid.major[PV_AX_Z]);
    PV_CHECK(run(s, "set grid 'oops'") != PV_OK);
    /* `set arrow`: lowest free tag, ends with coordinate systems, heads and fills, an
     * existing arrow changes only what is given, `unset arrow N` */
    PV_CHECK_EQ(run(s, "set arrow from 0,0,0 to 1,2,3; set arrow 3 from screen 0.1,0.2 rto "
                       "screen 0.1,0 heads filled size screen 0.02,20,40 front lc rgb 'red'"),
                PV_OK);
    PV_CHECK_EQ(s->narrows, 2);
    if (s->narrows == 2) {
        PV_CHECK_EQ(s->arrows[0].tag, 1);
        PV_CHECK_NEAR(s->arrows[0].to[2], 3, 0);
        PV_CHECK_EQ(s->arrows[0].heads, PV_ARROW_HEAD);
        PV_CHECK_EQ(s->arrows[1].tag, 3);
        PV_CHECK(s->arrows[1].relative && s->arrows[1].front && s->arrows[1].head_given);
        PV_CHECK_EQ(s->arrows[1].from_sys[0], PV_SYS_SCREEN);
        PV_CHECK_EQ(s->arrows[1].fill, PV_ARROW_FILLED);
        PV_CHECK_NEAR(s->arrows[1].head_back, 40, 0);
    }
    PV_CHECK_EQ(run(s, "set arrow 1 nohead; set arrow from 0,0 to 1,1"), PV_OK);
    PV_CHECK(s->narrows == 3 && s->arrows[0].heads == PV_ARROW_NOHEAD &&
             s->arrows[0].to[1] == 2 && s->arrows[1].tag == 2);
    PV_CHECK_EQ(run(s, "unset arrow 2"), PV_OK);
    PV_CHECK_EQ(s->narrows, 2);
    PV_CHECK(run(s, "set arrow 0 from 0,0 to 1,1") != PV_OK);
    PV_CHECK(run(s, "set arrow 5 from 0,0 to 1,1 sideways") != PV_OK);
    PV_CHECK_EQ(run(s, "unset arrow"), PV_OK);
    PV_CHECK_EQ(s->narrows, 0);
    /* `autofreq` returns to computed tics; `set tics autofreq` is not an axis's */
    PV_CHECK_EQ(run(s, "set ytics autofreq"), PV_OK);
    PV_CHECK(!s->tics[PV_AX_Y].has_incr && s->tics[PV_AX_X].has_incr);
    PV_CHECK_EQ(run(s, "set ytics autofreq 0.25"), PV_OK);
    PV_CHECK(s->tics[PV_AX_Y].has_incr);
    PV_CHECK_NEAR(s->tics[PV_AX_Y].incr, 0.25, 0);
    PV_CHECK_EQ(run(s, "set ytics 0,0.2,1"), PV_OK);

    PV_CHECK_EQ(run(s, "set style line 3 lc rgb '#80ff0000' lw 2 pt 7 ps 1.5 dt 2\n"
                       "set linetype 2 lc rgb 'green' lw 3\n"
                       "set style data lp; set style function dots"),
                PV_OK);
    PV_CHECK(s->nlinestyle > 3 && s->linestyle[3].defined);
    if (s->nlinestyle > 3) {
        PV_CHECK_EQ(s->linestyle[3].lc.argb, 0x80ff0000u);
        PV_CHECK_EQ(s->linestyle[3].pt, 7);
        PV_CHECK_NEAR(s->linestyle[3].ps, 1.5, 0);
        PV_CHECK_EQ(s->linestyle[3].dt, 2);
    }
    PV_CHECK_EQ(pv_settings_lt_rgb(s, 2), 0x00ff00);
    PV_CHECK_EQ(s->style_data, PV_STYLE_LINESPOINTS);
    PV_CHECK_EQ(s->style_function, PV_STYLE_DOTS);
    PV_CHECK_EQ(run(s, "set style line 4 lc palette frac 0.3 pt 7 ps variable\n"
                       "set style line 5 lc palette cb -2; set style line 6 lc rgb variable\n"
                       "set style line 7 lt 3 lw 2; set style line 8 ls 3 lw 4\n"
                       "set style line 9 lc 0xff8000; set style line 10 lc black pt variable"),
                PV_OK);
    if (s->nlinestyle > 10) {
        PV_CHECK_EQ(s->linestyle[4].lc.kind, PV_COLOR_PALETTE_FRAC);
        PV_CHECK_NEAR(s->linestyle[4].lc.value, 0.3, 1e-15);
        PV_CHECK_NEAR(s->linestyle[4].ps, -2, 0);
        PV_CHECK_EQ(s->linestyle[5].lc.kind, PV_COLOR_PALETTE_CB);
        PV_CHECK_NEAR(s->linestyle[5].lc.value, -2, 0);
        PV_CHECK_EQ(s->linestyle[6].lc.kind, PV_COLOR_RGB_VARIABLE);
        PV_CHECK_EQ(s->linestyle[7].lc.kind, PV_COLOR_LT);
        PV_CHECK_EQ(s->linestyle[7].lc.lt, 3);
        PV_CHECK_EQ(s->linestyle[8].lc.argb, 0x80ff0000u); /* copied from ls 3 */
        PV_CHECK_NEAR(s->linestyle[8].lw, 4, 0);
        PV_CHECK_EQ(s->linestyle[9].lc.kind, PV_COLOR_LT); /* `lc N`: a linetype number */
        PV_CHECK_EQ(s->linestyle[10].lc.kind, PV_COLOR_BLACK);
        PV_CHECK_EQ(s->linestyle[10].pt, -3);
    }
    PV_CHECK_EQ(run(s, "set term png x000000 xffffff size 100,100; set term pngcairo"), PV_OK);
    pv_settings_reset(s); /* reset keeps linetypes, drops line styles */
    PV_CHECK_EQ(pv_settings_lt_rgb(s, 2), 0x00ff00);
    PV_CHECK(s->nlinestyle == 0);

    PV_CHECK_EQ(run(s, "set datafile separator comma; set datafile missing '?'\n"
                       "set datafile commentschars '#!'; set dummy u,v; set angles degrees\n"
                       "set macros; set pointsize 2; set pointintervalbox 3; set parametric"),
                PV_OK);
    PV_CHECK_EQ(s->datafile.separator, ',');
    PV_CHECK_STR(s->datafile.missing, "?");
    PV_CHECK_STR(s->datafile.commentschars, "#!");
    /* switching parametric on names the dummies t, y (gnuplot), whatever `set dummy` said */
    PV_CHECK_STR(s->dummy[0], "t");
    PV_CHECK_STR(s->dummy[1], "y");
    PV_CHECK(s->angles_degrees);
    PV_CHECK_NEAR(s->pointsize, 2, 0);
    PV_CHECK_NEAR(s->pointintervalbox, 3, 0);
    PV_CHECK(s->parametric);
    PV_CHECK_EQ(run(s, "set dummy u,v; set parametric"), PV_OK); /* already on: kept */
    PV_CHECK_STR(s->dummy[0], "u");
    PV_CHECK_EQ(run(s, "unset parametric"), PV_OK); /* off: x, y again */
    PV_CHECK(!s->parametric);
    PV_CHECK_STR(s->dummy[0], "x");
    PV_CHECK_STR(s->dummy[1], "y");
    PV_CHECK_EQ(run(s, "set parametric"), PV_OK);
    PV_CHECK_EQ(run(s, "set logscale xz 2"), PV_OK);
    PV_CHECK(s->range[PV_AX_X].log && s->range[PV_AX_Z].log && !s->range[PV_AX_Y].log);
    PV_CHECK_NEAR(s->range[PV_AX_Z].log_base, 2, 0);

    /* variables reach expressions */
    pv_value v = pv_real(72.5);
    pv_env_set(env, "rx", &v);
    PV_CHECK_EQ(run(s, "set view rx, rx*2"), PV_OK);
    PV_CHECK_NEAR(s->view.rot_x, 72.5, 0);
    PV_CHECK_NEAR(s->view.rot_z, 145, 0);
    pv_settings_destroy(s);
}

static void test_colors(void)
{
    uint32_t c = 0;
    PV_CHECK(pv_color_lookup("red", &c) && c == 0xff0000);
    PV_CHECK(pv_color_lookup("white", &c) && c == 0xffffff);
    PV_CHECK(pv_color_lookup("dark-violet", &c) && c == 0x9400d3);
    PV_CHECK(pv_color_lookup("redd", &c) && c == 0xff0000); /* gnuplot's prefix rule */
    PV_CHECK(pv_color_lookup("grey80", &c) && c == 0xcccccc);
    PV_CHECK(!pv_color_lookup("Red", &c));
    PV_CHECK(pv_color_parse_string("#80ff0000", &c) && c == 0x80ff0000u);
    PV_CHECK(pv_color_parse_string("0x00ff00", &c) && c == 0x00ff00);
    PV_CHECK(!pv_color_parse_string("#zz", &c));
    /* gnuplot's sscanf("#%lx"): trailing text after the digits is ignored */
    PV_CHECK(pv_color_parse_string("#DDAA00' @fs", &c) && c == 0xddaa00);
    PV_CHECK_EQ(pv_color_count(), 111);
    PV_CHECK_STR(pv_color_name(0x000000), "black");
}

/* The name table: each pattern's shortest form (probed from gnuplot 5.4.4) and its full
 * name dispatch to that entry, and the form one letter shorter never does. */
static void test_table(void)
{
    /* gnuplot 5.4.4 `help set` names, less help-only topics, plus mcbtics and mrtics */
    PV_CHECK_EQ(pv_nopts, 150);
    for (int k = 0; k < pv_nopts; k++) {
        const char *pat = pv_opts[k].pattern;
        char shortest[64], full[64];
        size_t n = 0, m = 0;
        bool opt = false;
        for (const char *q = pat; *q; q++) {
            if (*q == '$') {
                opt = true;
                continue;
            }
            if (!opt) shortest[n++] = *q;
            full[m++] = *q;
        }
        shortest[n] = full[m] = '\0';
        int first_short = -1, first_full = -1;
        for (int j = 0; j < pv_nopts; j++) {
            if (first_short < 0 && pv_word_matches(shortest, pv_opts[j].pattern)) first_short = j;
            if (first_full < 0 && pv_word_matches(full, pv_opts[j].pattern)) first_full = j;
        }
        /* "mar$gin"/"mar$gins" share a prefix; both are ignored alike */
        if (strcmp(full, "margins") != 0) {
            if (first_short != k || first_full != k) fprintf(stderr, "pattern %s\n", pat);
            PV_CHECK_EQ(first_short, k);
            PV_CHECK_EQ(first_full, k);
        }
        if (n > 1) {
            shortest[n - 1] = '\0';
            PV_CHECK(!pv_word_matches(shortest, pat));
        }
    }
}

static void test_errors(void)
{
    pv_settings *s = pv_settings_create(ctx);
    expect_error(s, "set foo 1", "unrecognized option 'foo'", "t.gp:1:5", true);
    expect_error(s, "unset foo", "unrecognized option", "t.gp:1:7", true);
    expect_error(s, "show foo", "unrecognized option", "t.gp:1:6", true);
    expect_error(s, "set xrange [0:1", "unfinished range", "t.gp:1:", true);
    expect_error(s, "set xrange 0:1", "unrecognized option", "t.gp:1:12", true);
    expect_error(s, "set term svg", "not supported by pvox", "t.gp:1:10", true);
    expect_error(s, "set term png foo", "unrecognized terminal option", "t.gp:1:14", true);
    expect_error(s, "set view 400,1", "rot_x must be in [0:360]", "t.gp:1:10", false);
    expect_error(s, "set view 60,30,1,0", "zscale must be > 0", "t.gp:1:18", false);
    PV_CHECK_NEAR(s->view.rot_x, 60, 0); /* view unchanged */
    expect_error(s, "set view 60,30 foo", "',' expected", "t.gp:1:16", true);
    expect_error(s, "set samples 1", "sampling rate must be > 1", "t.gp:1:13", false);
    PV_CHECK_EQ(s->samples[0], 100);
    expect_error(s, "set palette defined (1 'red', 0 'blue')", "not monotonic", "t.gp:1:", false);
    expect_error(s, "set palette defined (0 'red', 1 'bluee')", "unknown color name", "t.gp:1:33", true);
    expect_error(s, "set palette defined (0 'red' 1 'blue')", "expected comma", "t.gp:1:30", true);
    expect_error(s, "set palette foo", "invalid palette option", "t.gp:1:13", true);
    expect_error(s, "set style line 1 lc rgb 'Red'", "unrecognized color name", "t.gp:1:", true);
    expect_error(s, "set key foo", "unknown key option", "t.gp:1:9", true);
    expect_error(s, "set border 3 lc rgb 'nosuchcolour'", "unrecognized color name", "t.gp:1:21", true);
    expect_error(s, "set style line 0 lw 2", "tag must be > zero", "t.gp:1:16", false);
    expect_error(s, "set style line 1 lw 2 foo", "extraneous arguments to set style line", "t.gp:1:23", true);
    expect_error(s, "set autoscale q", "Invalid axis", "t.gp:1:15", true);
    expect_error(s, "set pm3d foo", "invalid pm3d option", "t.gp:1:10", true);
    expect_error(s, "set colorbox foo", "invalid colorbox option", "t.gp:1:14", true);
    expect_error(s, "set jitter foo", "unrecognized keyword", "t.gp:1:12", true);
    expect_error(s, "set datafile foo", "expecting datafile modifier", "t.gp:1:14", true);
    expect_error(s, "set pointsize 2 3", "unexpected or unrecognized token: 3", "t.gp:1:17", true);
    expect_error(s, "set output 'a' 'b'", "unexpected or unrecognized token", "t.gp:1:16", true);
    expect_error(s, "set angles foo", "expecting 'radians' or 'degrees'", "t.gp:1:12", true);
    expect_error(s, "set isosurface", "unrecognized option", "t.gp:1:", true);
    expect_error(s, "set isosurface triangles noinsidecolor", "unrecognized option", "t.gp:1:26", true);
    expect_error(s, "set style data foo", "unrecognized plot type", "t.gp:1:16", true);
    expect_error(s, "set xyplane", "constant expression required", "t.gp:1:", true);
    expect_error(s, "set view undefined_var", "undefined", "t.gp:1:10", false);
    expect_error(s, "set vgrid $v size 10", "interpreter", "t.gp:1:5", true);
    expect_error(s, "set vxrange [0:1]", "interpreter", "t.gp:1:5", true);
    expect_error(s, "set print 'x'", "interpreter", "t.gp:1:5", true);
    expect_error(s, "set table $t", "interpreter", "t.gp:1:5", true);
    PV_CHECK(ctx->err_code != PV_EINTERNAL);
    pv_settings_destroy(s);
}

static void test_warn_once(void)
{
    pv_settings *s = pv_settings_create(ctx);
    cap_begin();
    pv_status st = run(s, "set grid mxtics; set grid vertical; set loadpath 'd'; set mouse\n"
                          "unset grid; set timestamp; set grid polar\n"
                          "set arrow from 0,0 to 1,1; set arrow 2 from 1,1 to 2,2\n"
                          "set style arrow 1 nohead; set logscale x; set logscale y");
    char *err = cap_end();
    PV_CHECK_EQ(st, PV_OK);
    PV_CHECK_EQ(count(err, "minor, colour-box, vertical and polar grid lines are not drawn"), 1);
    PV_CHECK_EQ(count(err, "set loadpath is ignored"), 1);
    PV_CHECK_EQ(count(err, "set mouse is ignored"), 1);
    PV_CHECK_EQ(count(err, "set timestamp is ignored"), 1);
    PV_CHECK_EQ(count(err, "set arrow is ignored"), 0); /* drawn */
    PV_CHECK_EQ(count(err, "set style arrow is ignored"), 1);
    PV_CHECK_EQ(count(err, "warning: set logscale"), 0); /* drawn */
    PV_CHECK_EQ(count(err, "warning:"), 5);
    if (count(err, "warning:") != 5) fprintf(stderr, "captured:\n%s\n", err);
    free(err);
    /* again in the same run: silent */
    cap_begin();
    st = run(s, "set grid cbtics; set mouse");
    err = cap_end();
    PV_CHECK_EQ(st, PV_OK);
    PV_CHECK_EQ(count(err, "warning:"), 0);
    free(err);
    pv_settings_destroy(s);
}

static void test_show(void)
{
    pv_settings *s = pv_settings_create(ctx);
    FILE *f = tmpfile();
    PV_CHECK_EQ(run(s, "set view 65,40; set xrange [0:1]; set samples 4,5"), PV_OK);
    PV_CHECK_EQ(run_mode(s, "show view; show xrange; show samples; show isosurface\n"
                            "show palette; show style fill; show term; show output; show grid\n"
                            "show palette gradient; show all; show colornames",
                         true, f),
                PV_OK);
    long n = ftell(f);
    char *buf = calloc((size_t)n + 1, 1);
    rewind(f);
    PV_CHECK_EQ((long)fread(buf, 1, (size_t)n, f), n);
    fclose(f);
    PV_CHECK(strstr(buf, "view is 65 rot_x, 40 rot_z, 1 scale, 1 scale_z") != NULL);
    PV_CHECK(strstr(buf, "set xrange [ 0.00000 : 1.00000 ] noreverse nowriteback") != NULL);
    PV_CHECK(strstr(buf, "sampling rate is 4, 5") != NULL);
    PV_CHECK(strstr(buf, "isosurfaces will use a mixture of triangles and quadrangles") != NULL);
    PV_CHECK(strstr(buf, "rgb color mapping by rgbformulae are 7,5,15") != NULL);
    PV_CHECK(strstr(buf, "Fill style is empty with border") != NULL);
    PV_CHECK(strstr(buf, "terminal type is pngcairo") != NULL);
    PV_CHECK(strstr(buf, "There are 111 predefined color names") != NULL);
    free(buf);
    /* NULL stream (ranks > 0): parse, print nothing */
    PV_CHECK_EQ(run_mode(s, "show view; show palette gradient", true, NULL), PV_OK);
    pv_settings_destroy(s);
}

/* Colour specs of text and keys: `lt N` takes the linetype's colour when read, `ls N` the
 * line style's (else the linetype's), `default` the element's own; the exported parser. */
static void test_colorspec(void)
{
    pv_settings *s = pv_settings_create(ctx);
    PV_CHECK_EQ(run(s, "set title 'T' tc lt 1; set xlabel 'x' textcolor lt 4\n"
                       "set style line 5 lc rgb 'orange'; set ylabel 'y' tc ls 5\n"
                       "set zlabel 'z' tc ls 3; set cblabel 'c' tc lt -1"),
                PV_OK);
    PV_CHECK_EQ(s->title.tc.kind, PV_COLOR_RGB);
    PV_CHECK_EQ(s->title.tc.argb, 0x9400d3u);
    PV_CHECK_EQ(s->label[PV_AX_X].tc.argb, 0xe69f00u);
    PV_CHECK_EQ(s->label[PV_AX_Y].tc.kind, PV_COLOR_RGB);
    PV_CHECK_EQ(s->label[PV_AX_Y].tc.argb, 0xffa500u);
    PV_CHECK_EQ(s->label[PV_AX_Z].tc.kind, PV_COLOR_LT); /* no style 3: linetype 3 */
    PV_CHECK_EQ(s->label[PV_AX_Z].tc.lt, 3);
    PV_CHECK_EQ(s->label[PV_AX_CB].tc.kind, PV_COLOR_BLACK);
    PV_CHECK_EQ(run(s, "set title 'T' tc default; set xlabel 'x' tc lt -2\n"
                       "set key tc lt 2 opaque fc rgb 'gray'; set xtics tc lt 3"),
                PV_OK);
    PV_CHECK_EQ(s->title.tc.kind, PV_COLOR_DEFAULT);
    PV_CHECK_EQ(s->label[PV_AX_X].tc.argb, 0xff000000u); /* nodraw: invisible */
    PV_CHECK_EQ(s->key.tc.argb, 0x009e73u);
    PV_CHECK(s->key.opaque && s->key.opaque_fc.kind == PV_COLOR_RGB);

    /* the public parser, cursor after `tc`: with and without settings */
    const char *text = "lt 2";
    pv_source *src = pv_source_create(ctx, "c.gp", text, strlen(text), 1);
    pv_toklist tl;
    PV_CHECK(src && pv_lex(ctx, src, &tl) == PV_OK);
    pv_cursor c = {ctx, &tl, 0, 2};
    pv_color col;
    PV_CHECK_EQ(pv_settings_parse_colorspec(s, env, &c, true, &col), PV_OK);
    PV_CHECK(col.kind == PV_COLOR_RGB && col.argb == 0x009e73u);
    c.pos = 0;
    PV_CHECK_EQ(pv_settings_parse_colorspec(NULL, env, &c, true, &col), PV_OK);
    PV_CHECK(col.kind == PV_COLOR_LT && col.lt == 2);
    pv_toklist_fini(&tl);
    pv_source_destroy(src);
    pv_settings_destroy(s);
}

/* `set key` placements as gnuplot 5.4 stores them; `set view projection`; `set noNAME`. */
static void test_key_view_no(void)
{
    pv_settings *s = pv_settings_create(ctx);
    PV_CHECK_EQ(run(s, "set key under Left reverse samplen 0.6"), PV_OK);
    PV_CHECK(!s->key.inside && s->key.margin == PV_KEYMARGIN_B);
    PV_CHECK(s->key.vpos == PV_KEYPOS_BOTTOM && s->key.hpos == PV_KEYPOS_CENTER);
    PV_CHECK(!s->key.vertical && s->key.left_justify && s->key.reverse);
    PV_CHECK_NEAR(s->key.samplen, 0.6, 1e-15);
    PV_CHECK_EQ(run(s, "set key inside left center; set key maxrows 3 maxcols auto box 3"),
                PV_OK);
    PV_CHECK(s->key.inside && s->key.margin == 0 && !s->key.fixed);
    PV_CHECK(s->key.hpos == PV_KEYPOS_LEFT && s->key.vpos == PV_KEYPOS_CENTER);
    PV_CHECK(s->key.box && s->key.box_lp.lt == 3 && s->key.maxrows == 3 && s->key.maxcols == 0);
    PV_CHECK_EQ(run(s, "set key at screen 0.5, 0.25 title 'K' font ',8'"), PV_OK);
    PV_CHECK(s->key.user_at && s->key.at[0] == 0.5 && s->key.at[1] == 0.25);
    PV_CHECK_STR(s->key.title, "K");
    PV_CHECK_STR(s->key.font, ",8");
    PV_CHECK_EQ(run(s, "set key default"), PV_OK);
    PV_CHECK(s->key.fixed && s->key.title == NULL && s->key.font == NULL && !s->key.box);

    PV_CHECK_EQ(run(s, "set view 60,30,2; set view projection xz"), PV_OK);
    PV_CHECK_EQ(s->view.projection, PV_VIEW_PROJ_XZ);
    PV_CHECK(s->view.rot_x == 270.0 && s->view.rot_z == 0.0 && s->view.scale == 1.0);
    PV_CHECK(s->view.azimuth == -90.0 && !s->view.map);
    PV_CHECK_EQ(run(s, "set view projection yz"), PV_OK);
    PV_CHECK(s->view.rot_x == 90.0 && s->view.rot_z == 90.0);
    PV_CHECK_EQ(run(s, "set view 60,30,2; set view equal xy; set view projection xy"), PV_OK);
    PV_CHECK(s->view.map && s->view.projection == 0 && s->view.azimuth == 0.0);
    PV_CHECK(s->view.scale == 1.0 && s->view.equal == 0 && s->view.rot_x == 60.0);
    PV_CHECK_EQ(run(s, "set view 10"), PV_OK); /* leaving the map: the surface's scale */
    PV_CHECK(!s->view.map && s->view.rot_x == 10.0 && s->view.scale == 2.0);
    expect_error(s, "set view projection", "expecting xy or xz or yz", "t.gp:1:20", true);

    PV_CHECK_EQ(run(s, "set nokey; set noborder; set nolog x; set nomztics; set nocontour"),
                PV_OK);
    PV_CHECK(!s->key.on && s->border == 0);
    expect_error(s, "set nox", "unrecognized option 'nox'", "t.gp:1:5", true);
    expect_error(s, "set noxtics 1", "unexpected or unrecognized token: 1", "t.gp:1:13", true);
    pv_settings_destroy(s);
}

/* `set label` (tags, text before or after the options, changing one, unset, reset), `set
 * object` rectangles, zero axes, `set tics axis`, `pm3d interpolate/noclipcb`. The show
 * line is gnuplot 5.4.4's for these labels. */
static void test_annotations(void)
{
    pv_settings *s = pv_settings_create(ctx);
    PV_CHECK_EQ(run(s, "set label 1 \"X\" at 4.1, 0, 0\n"
                       "set label \"Y\" at graph 0.5, 0.5 right front tc rgb \"red\" point pt 7 offset 1,2\n"
                       "set label 5 at screen 0.1, 0.2 \"five\"\nset label 1 rotate by 30"),
                PV_OK);
    PV_CHECK_EQ(s->nlabels, 3);
    PV_CHECK(s->labels[0].tag == 1 && s->labels[1].tag == 2 && s->labels[2].tag == 5);
    PV_CHECK(strcmp(s->labels[0].text, "X") == 0 && s->labels[0].rotate == 30);
    PV_CHECK(s->labels[0].at[0] == 4.1 && s->labels[0].sys[2] == PV_SYS_FIRST);
    const pv_label *y = &s->labels[1];
    PV_CHECK(y->just == 2 && y->front && y->point && y->point_lp.pt == 7);
    PV_CHECK(y->sys[0] == PV_SYS_GRAPH && y->sys[1] == PV_SYS_GRAPH && y->sys[2] == PV_SYS_GRAPH);
    PV_CHECK(y->tc.kind == PV_COLOR_RGB && y->offset[0] == 1 && y->offset[1] == 2);
    PV_CHECK(strcmp(s->labels[2].text, "five") == 0 && s->labels[2].sys[0] == PV_SYS_SCREEN);
    FILE *f = tmpfile();
    PV_CHECK_EQ(run_mode(s, "show label", true, f), PV_OK);
    long n = ftell(f);
    char *buf = calloc((size_t)n + 1, 1);
    rewind(f);
    PV_CHECK_EQ((long)fread(buf, 1, (size_t)n, f), n);
    fclose(f);
    PV_CHECK(strstr(buf, "\tlabel 1 \"X\" at (4.10000, 0.00000, 0.00000) left rotated by 30 "
                         "degrees (if possible) back  nopoint\n") != NULL);
    PV_CHECK(strstr(buf, "\tlabel 5 \"five\" at (screen 0.1, 0.2, 0) left not rotated back  "
                         "nopoint\n") != NULL);
    free(buf);
    PV_CHECK_EQ(run(s, "unset label 2"), PV_OK);
    PV_CHECK_EQ(s->nlabels, 2);
    PV_CHECK_EQ(run(s, "set label \"new\""), PV_OK); /* the lowest free tag */
    PV_CHECK(s->nlabels == 3 && s->labels[1].tag == 2);
    expect_error(s, "set label 0 \"a\"", "tag must be > zero", "t.gp:1:", false);
    /* objects: a screen rectangle as voxel.dem sets it, then changed */
    PV_CHECK_EQ(run(s, "set obj 1 rectangle from screen 0,0,0 to screen 1,1,1 behind "
                       "fs solid 1.0 fc \"white\"\nset object 1 front lw 2\n"
                       "set object 3 rect center screen 0.5,0.5 size screen 0.2,0.1 "
                       "fs transparent solid 0.3 noborder"),
                PV_OK);
    PV_CHECK_EQ(s->nobjects, 2);
    const pv_object *o = &s->objects[0];
    PV_CHECK(o->kind == PV_OBJ_RECT && !o->centred && o->layer == PV_OBJ_FRONT && o->lw == 2);
    PV_CHECK(o->sys1[0] == PV_SYS_SCREEN && o->p2[0] == 1 && o->fc.kind == PV_COLOR_RGB);
    PV_CHECK(o->fill.kind == PV_FILL_SOLID && o->fill.border && o->fill.density == 1);
    o = &s->objects[1];
    PV_CHECK(o->centred && o->fill.transparent && !o->fill.border && o->p2[1] == 0.1);
    PV_CHECK_EQ(run(s, "unset object 1"), PV_OK);
    PV_CHECK(s->nobjects == 1 && s->objects[0].tag == 3);
    /* circles, ellipses, polygons: their geometry */
    PV_CHECK_EQ(run(s, "set object 4 circle at 1,2 size 0.5 arc [30:120] nowedge front\n"
                       "set object 5 ellipse center graph 0.5,0.5 size 2,1 angle 30 units xx\n"
                       "set object 6 polygon from 0,0 to 1,0 rto 0,1 to 0,0 fc rgb 'red'\n"
                       "set object 7 rect from 1,1 rto 2,3"),
                PV_OK);
    o = &s->objects[1];
    PV_CHECK(o->kind == PV_OBJ_CIRCLE && o->centred && o->p1[1] == 2 && o->p2[0] == 0.5);
    PV_CHECK(o->arc[0] == 30 && o->arc[1] == 120 && !o->wedge && o->layer == PV_OBJ_FRONT);
    o = &s->objects[2];
    PV_CHECK(o->kind == PV_OBJ_ELLIPSE && o->sys1[0] == PV_SYS_GRAPH && o->angle == 30 &&
             o->units == 1 && o->p2[0] == 2 && o->p2[1] == 1);
    o = &s->objects[3];
    PV_CHECK(o->kind == PV_OBJ_POLYGON && o->nv == 4 && o->vrel[2] && !o->vrel[3]);
    PV_CHECK(o->v[1][0] == 1 && o->v[2][1] == 1 && o->fc.kind == PV_COLOR_RGB);
    o = &s->objects[4];
    PV_CHECK(o->kind == PV_OBJ_RECT && o->p2[0] == 3 && o->p2[1] == 4);
    PV_CHECK_EQ(run(s, "set object 6 polygon to 5,5"), PV_OK); /* a new vertex list */
    PV_CHECK(s->objects[3].nv == 1);
    PV_CHECK_EQ(run(s, "unset object"), PV_OK);
    /* tic lists: a quoted label then its position ("low" -3 is not a difference), add */
    PV_CHECK_EQ(run(s, "set xtics (\"low\" -3, \"mid\" 0, 2.5 1, \"%.1f\" 3)"), PV_OK);
    PV_CHECK(s->tics[PV_AX_X].nuser == 4 && s->tics[PV_AX_X].user_only);
    PV_CHECK(s->tics[PV_AX_X].user[0].pos == -3 && !strcmp(s->tics[PV_AX_X].user[0].label, "low"));
    PV_CHECK(s->tics[PV_AX_X].user[2].label == NULL && s->tics[PV_AX_X].user[2].level == 1);
    PV_CHECK_EQ(run(s, "set xtics add (\"far\" 10)"), PV_OK);
    PV_CHECK(s->tics[PV_AX_X].nuser == 5);
    PV_CHECK_EQ(run(s, "set xtics 1"), PV_OK); /* a series replaces the list */
    PV_CHECK(s->tics[PV_AX_X].nuser == 0 && !s->tics[PV_AX_X].user_only);
    /* zero axes: gnuplot's axis linetype unless lt is given */
    PV_CHECK_EQ(run(s, "set xzeroaxis; set yzeroaxis lt -1; set zzeroaxis lc rgb \"red\" lw 2"),
                PV_OK);
    PV_CHECK(s->zeroaxis[0].on && s->zeroaxis[0].lp.lt == 0);
    PV_CHECK(s->zeroaxis[1].on && s->zeroaxis[1].lp.lt == -1);
    PV_CHECK(s->zeroaxis[2].lp.lt == 0 && s->zeroaxis[2].lp.lc.kind == PV_COLOR_RGB &&
             s->zeroaxis[2].lp.lw == 2);
    PV_CHECK_EQ(run(s, "unset zeroaxis"), PV_OK);
    PV_CHECK(!s->zeroaxis[0].on && !s->zeroaxis[1].on && !s->zeroaxis[2].on);
    PV_CHECK_EQ(run(s, "set tics axis nomirror; set ytics border"), PV_OK);
    PV_CHECK(s->tics[PV_AX_X].on_axis && !s->tics[PV_AX_Y].on_axis && s->tics[PV_AX_CB].on_axis);
    PV_CHECK_EQ(run(s, "set pm3d interpolate 2,3 noclipcb"), PV_OK);
    PV_CHECK(s->pm3d.interp[0] == 2 && s->pm3d.interp[1] == 3 && s->pm3d.noclipcb);
    /* set format: one axis, xy, all; a bare one restores "% h" */
    PV_CHECK_EQ(run(s, "set format '%g'; set format x '%.2f'; set format y; set format xy '%.1e'"),
                PV_OK);
    PV_CHECK(strcmp(s->tics[PV_AX_X].format, "%.1e") == 0 && strcmp(s->tics[PV_AX_Y].format, "%.1e") == 0);
    PV_CHECK(strcmp(s->tics[PV_AX_Z].format, "%g") == 0 && strcmp(s->format_other[2], "%g") == 0);
    f = tmpfile();
    PV_CHECK_EQ(run_mode(s, "set format y; show format", true, f), PV_OK);
    n = ftell(f);
    buf = calloc((size_t)n + 1, 1);
    rewind(f);
    PV_CHECK_EQ((long)fread(buf, 1, (size_t)n, f), n);
    fclose(f);
    PV_CHECK(strcmp(buf, "\n\ttic format is:\n\t  x-axis: \"%.1e\"\n\t  y-axis: \"% h\"\n"
                         "\t  x2-axis: \"%g\"\n\t  y2-axis: \"%g\"\n\t  z-axis: \"%g\"\n"
                         "\t  cb-axis: \"%g\"\n\t  r-axis: \"%g\"\n\n") == 0);
    free(buf);
    /* reset forgets labels and objects */
    pv_settings_reset(s);
    PV_CHECK(s->nlabels == 0 && s->nobjects == 0 && !s->tics[PV_AX_X].on_axis);
    pv_settings_destroy(s);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    pv_options opt;
    memset(&opt, 0, sizeof opt);
    opt.log_level = PV_LOG_WARN;
    ctx = pv_ctx_create(MPI_COMM_WORLD, &opt);
    env = pv_env_create(ctx);
    if (!ctx || !env) {
        fprintf(stderr, "cannot create context\n");
        MPI_Finalize();
        return 1;
    }
    test_defaults();
    test_colors();
    test_article();
    test_experiments();
    test_misc();
    test_table();
    test_errors();
    test_warn_once();
    test_show();
    test_colorspec();
    test_key_view_no();
    test_annotations();
    int rc = pv_test_result("test_settings");
    pv_env_destroy(env);
    pv_ctx_destroy(ctx);
    MPI_Finalize();
    return rc;
}
