/*
 * pvox settings: the option-name table (`set`/`unset`/`show` handlers per gnuplot 5.4
 * name), `show colornames` and `show all`.
 */
#include "settings_int.h"

#include <stdlib.h>
#include <string.h>

/* =====================================================================================
 * The option table
 * ===================================================================================== */

#define S(pat, name) {pat, PV_OPT_STORED, sp_set_##name, sp_unset_##name, sp_show_##name, NULL}
#define I(pat, why) {pat, PV_OPT_IGNORED, NULL, NULL, NULL, why}
#define X(pat) {pat, PV_OPT_INTERP, NULL, NULL, NULL, NULL}

/* ticslevel shares unset and show with xyplane (settings_view.c) */
#define sp_show_ticslevel sp_show_xyplane
#define sp_unset_ticslevel sp_unset_xyplane

static const char no_text[] = "pvox does not draw text annotations";
static const char no_axis2[] = "pvox has no secondary axes";
static const char no_2d[] = "pvox draws no polar, parallel-axis or spider plots";

/* Order matters only where gnuplot's shortest prefixes overlap (none do after probing). */
const pv_opt pv_opts[] = {
    S("an$gles", angles),
    S("ar$row", arrow),
    S("au$toscale", autoscale),
    I("b$ars", "pvox draws error bars of gnuplot's default size"),
    I("bmar$gin", "pvox computes its own margins"),
    S("bor$der", border),
    I("boxdepth", "pvox draws boxes in 2D plots only"),
    S("box$width", boxwidth),
    I("cbda$ta", "pvox has no time axes"),
    I("cbdti$cs", "pvox has no time axes"),
    S("cbl$abel", cblabel),
    I("cbmti$cs", "pvox does not draw minor tics"),
    S("cbr$ange", cbrange),
    S("cbti$cs", cbtics),
    I("cl$abel", "pvox does not draw contours"),
    I("cli$p", "pvox clips as gnuplot's defaults do"),
    I("cntrl$abel", "pvox does not draw contours"),
    I("cntrp$aram", "pvox does not draw contours"),
    I("color", "pvox always draws in colour"),
    S("colorb$ox", colorbox),
    I("colors$equence", "pvox uses gnuplot's default linetype colours"),
    I("cont$ours", "pvox does not draw contours"), /* `set contour` and `set contours` */
    I("dasht$ype", "pvox draws solid lines"),
    S("dataf$ile", datafile),
    I("dec$imalsign", "pvox prints numbers with a decimal point"),
    I("dg$rid3d", "pvox does not grid scattered data"),
    S("du$mmy", dummy),
    I("enc$oding", "pvox writes UTF-8 text"),
    I("errorbars", "pvox draws error bars of gnuplot's default size"),
    I("fit", "`fit` is not carried out by pvox " PV_VERSION_MAJOR_MINOR),
    I("font$path", "pvox uses the system fonts"),
    S("form$at", format),
    S("g$rid", grid),
    S("hid$den3d", hidden3d),
    I("his$tory", "pvox is not interactive"),
    I("historysize", "pvox is not interactive"),
    S("is$osamples", isosamples),
    S("isosurf$ace", isosurface),
    S("jitter", jitter),
    S("k$ey", key),
    S("la$bel", label),
    S("linetype", linetype),
    I("link", no_axis2),
    I("lmar$gin", "pvox computes its own margins"),
    I("loa$dpath", "pvox loads files by the given path"),
    I("loc$ale", "pvox uses the C locale"),
    S("log$scale", logscale),
    S("mac$ros", macros),
    I("map$ping", "pvox uses cartesian coordinates"),
    I("mar$gin", "pvox computes its own margins"),
    I("mar$gins", "pvox computes its own margins"),
    I("micro", "pvox prints ASCII text"),
    I("minus$sign", "pvox prints ASCII text"),
    I("mono$chrome", "pvox always draws in colour"),
    I("mo$use", "pvox is not interactive"),
    I("mcbt$ics", "pvox does not draw minor tics"),
    I("mrt$ics", no_2d),
    I("mtt$ics", no_2d),
    I("multi$plot", "pvox draws one plot per image"),
    I("mx2t$ics", no_axis2),
    I("mxt$ics", "pvox does not draw minor tics"),
    I("my2t$ics", no_axis2),
    I("myt$ics", "pvox does not draw minor tics"),
    I("mzt$ics", "pvox does not draw minor tics"),
    I("nonlinear", "pvox draws linear axes"),
    S("obj$ect", object),
    I("of$fsets", "pvox autoscales 2D plots without offsets"),
    I("or$igin", "pvox draws one plot per image"),
    S("o$utput", output),
    I("overflow", "pvox follows gnuplot's default integer overflow rule"),
    S("pal$ette", palette),
    S("pa$rametric", parametric),
    I("paxis", no_2d),
    I("pixmap", "pvox does not draw pixmaps"),
    S("pm$3d", pm3d),
    S("pointint$ervalbox", pointintervalbox),
    S("poi$ntsize", pointsize),
    S("pol$ar", polar),
    X("pr$int"),
    I("psdir", "pvox writes PNG only"),
    I("rax$is", no_2d),
    I("rgbmax", "pvox does not draw images"),
    I("rlabel", no_2d),
    I("rmar$gin", "pvox computes its own margins"),
    I("rr$ange", no_2d),
    I("rti$cs", no_2d),
    S("sa$mples", samples),
    I("si$ze", "pvox sizes the plot to the terminal"),
    I("spider$plot", no_2d),
    S("st$yle", style),
    S("su$rface", surface),
    X("table"),
    S("t$erminal", terminal),
    I("termopt$ion", "use set terminal options instead"),
    I("theta", no_2d),
    S("tic$s", tics),
    I("ticsc$ale", "use set tics scale"),
    S("ticsl$evel", ticslevel),
    I("timef$mt", "pvox has no time axes"),
    I("times$tamp", no_text),
    S("tit$le", title),
    I("tmar$gin", "pvox computes its own margins"),
    S("tr$ange", trange),
    I("tti$cs", no_2d),
    S("ur$ange", urange),
    X("vgrid"),
    S("vi$ew", view),
    S("vr$ange", vrange),
    X("vxr$ange"),
    X("vyr$ange"),
    X("vzr$ange"),
    I("wall$s", "pvox does not draw walls"),
    I("x2da$ta", no_axis2),
    I("x2dti$cs", no_axis2),
    I("x2l$abel", no_axis2),
    I("x2mti$cs", no_axis2),
    I("x2r$ange", no_axis2),
    I("x2ti$cs", no_axis2),
    I("x2zeroa$xis", no_axis2),
    I("xda$ta", "pvox has no time axes"),
    I("xdti$cs", "pvox has no time axes"),
    S("xl$abel", xlabel),
    I("xmti$cs", "pvox does not draw minor tics"),
    S("xr$ange", xrange),
    S("xti$cs", xtics),
    S("xyp$lane", xyplane),
    S("xzeroa$xis", xzeroaxis),
    I("y2da$ta", no_axis2),
    I("y2dti$cs", no_axis2),
    I("y2l$abel", no_axis2),
    I("y2mti$cs", no_axis2),
    I("y2r$ange", no_axis2),
    I("y2ti$cs", no_axis2),
    I("y2zeroa$xis", no_axis2),
    I("yda$ta", "pvox has no time axes"),
    I("ydti$cs", "pvox has no time axes"),
    S("yl$abel", ylabel),
    I("ymti$cs", "pvox does not draw minor tics"),
    S("yr$ange", yrange),
    S("yti$cs", ytics),
    S("yzeroa$xis", yzeroaxis),
    I("zda$ta", "pvox has no time axes"),
    I("zdti$cs", "pvox has no time axes"),
    I("z$ero", "pvox uses gnuplot's default zero threshold"),
    S("zeroa$xis", zeroaxis),
    S("zl$abel", zlabel),
    I("zmti$cs", "pvox does not draw minor tics"),
    S("zr$ange", zrange),
    S("zti$cs", ztics),
    S("zzeroa$xis", zzeroaxis),
};

const int pv_nopts = (int)(sizeof pv_opts / sizeof pv_opts[0]);

/* ---- show colornames, show all ---------------------------------------------------- */

pv_status sp_show_colornames(pv_sp *p)
{
    if (OUT) {
        fprintf(OUT, "\tThere are %d predefined color names:\n", pv_color_count());
        for (int k = 0; k < pv_color_count(); k++) {
            uint32_t rgb = 0;
            const char *name = pv_color_at(k, &rgb);
            fprintf(OUT, "  %-18s #%06x = %3u %3u %3u\n", name, (unsigned)rgb,
                    (unsigned)((rgb >> 16) & 255u), (unsigned)((rgb >> 8) & 255u),
                    (unsigned)(rgb & 255u));
        }
    }
    return sp_done(p);
}

pv_status sp_show_all(pv_sp *p)
{
    pv_set_fn all[] = {sp_show_terminal, sp_show_output, sp_show_xrange, sp_show_yrange,
                       sp_show_zrange, sp_show_cbrange, sp_show_urange, sp_show_vrange,
                       sp_show_autoscale, sp_show_view, sp_show_xyplane, sp_show_border,
                       sp_show_key, sp_show_title, sp_show_tics, sp_show_palette,
                       sp_show_colorbox, sp_show_style, sp_show_pm3d, sp_show_samples,
                       sp_show_isosamples, sp_show_isosurface, sp_show_jitter,
                       sp_show_hidden3d, sp_show_pointsize, sp_show_pointintervalbox,
                       sp_show_datafile, sp_show_dummy, sp_show_angles, sp_show_logscale,
                       sp_show_grid};
    pv_status st = sp_expect_end(p);
    if (st != PV_OK) return st;
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) all[k](p);
    return PV_OK;
}
