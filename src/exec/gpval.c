/*
 * exec/gpval.c: the GPVAL_* variables gnuplot defines, with pvox's own values (README
 * "Variables gnuplot defines"). Scripts test them to adapt to the program running them:
 * `if (strstrt(GPVAL_TERMINALS, "pngcairo"))`, `GPVAL_VERSION >= 5.2`, the
 * GPVAL_[XYZ]_MIN/MAX of the last plot.
 *
 * GPVAL_VERSION and GPVAL_PATCHLEVEL name the gnuplot release whose language pvox speaks
 * (5.4 patchlevel 4); GPVAL_PVOX_VERSION names pvox. GPVAL_TERMINALS lists what `set term`
 * accepts, GPVAL_COMPILE_OPTIONS what pvox has (no readline, no libcerf, ...).
 *
 * Three moments set them: interpreter start (pv_gpval_init), after every `set`/`unset`/
 * `reset` (pv_gpval_settings: terminal, output, encoding, view) and after every frame
 * (pv_gpval_frame: the ranges the frame used, GPVAL_LAST_PLOT).
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"

#include <float.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static void set_str(pv_interp *I, const char *name, const char *s)
{
    pv_value v = pv_str(s ? s : "");
    pv_env_set(I->env, name, &v);
    pv_value_free(&v);
}

static void set_real(pv_interp *I, const char *name, double x)
{
    pv_value v = pv_real(x);
    pv_env_set(I->env, name, &v);
}

static void set_int(pv_interp *I, const char *name, int64_t x)
{
    pv_value v = pv_int(x);
    pv_env_set(I->env, name, &v);
}

/* GPVAL_<AX>_MIN/MAX/LOG of one axis. */
static void set_axis(pv_interp *I, const char *ax, double lo, double hi, double log_base)
{
    char name[40];
    snprintf(name, sizeof name, "GPVAL_%s_MIN", ax);
    set_real(I, name, lo);
    snprintf(name, sizeof name, "GPVAL_%s_MAX", ax);
    set_real(I, name, hi);
    snprintf(name, sizeof name, "GPVAL_%s_LOG", ax);
    set_real(I, name, log_base);
}

/* The axes gnuplot reports, in its order, with the settings axis each maps to (-1: an
 * axis pvox does not have; it reports gnuplot's "never used" values). */
static const struct {
    const char *name;
    int axis;
} gp_axes[] = {
    {"X", PV_AX_X}, {"Y", PV_AX_Y}, {"X2", -1}, {"Y2", -1}, {"Z", PV_AX_Z}, {"CB", PV_AX_CB},
    {"T", PV_AX_T}, {"U", PV_AX_U}, {"V", PV_AX_V}, {"R", -1},
};

/* Before any plot: the ranges as set (autoscaled ends at gnuplot's "nothing yet"). */
static void axes_from_settings(pv_interp *I)
{
    for (size_t k = 0; k < sizeof gp_axes / sizeof gp_axes[0]; k++) {
        double lo = DBL_MAX / 2, hi = -DBL_MAX / 2, base = 10;
        if (gp_axes[k].axis >= 0) {
            const pv_range *r = &I->set->range[gp_axes[k].axis];
            if (!r->auto_min) lo = r->min;
            if (!r->auto_max) hi = r->max;
            if (r->log) base = r->log_base;
        }
        set_axis(I, gp_axes[k].name, lo, hi, base);
    }
}

void pv_gpval_settings(pv_interp *I)
{
    const pv_term *t = &I->set->term;
    set_str(I, "GPVAL_TERM", t->kind == PV_TERM_PNG ? "png" : "pngcairo");
    char opt[160];
    snprintf(opt, sizeof opt, " %sbackground \"#%06x\" %s fontscale %.1f size %d, %d ",
             t->transparent ? "transparent " : "", (unsigned)(t->background & 0xffffff),
             t->enhanced ? "enhanced" : "noenhanced", t->fontscale > 0 ? t->fontscale : 1.0,
             t->width, t->height);
    set_str(I, "GPVAL_TERMOPTIONS", opt);
    set_str(I, "GPVAL_OUTPUT", I->set->output ? I->set->output : "");
    const pv_view *v = &I->set->view;
    set_int(I, "GPVAL_VIEW_MAP", v->map ? 1 : 0);
    set_real(I, "GPVAL_VIEW_ROT_X", v->rot_x);
    set_real(I, "GPVAL_VIEW_ROT_Z", v->rot_z);
    set_real(I, "GPVAL_VIEW_SCALE", v->scale);
    set_real(I, "GPVAL_VIEW_ZSCALE", v->zscale);
    set_real(I, "GPVAL_VIEW_AZIMUTH", v->azimuth);
}

void pv_gpval_init(pv_interp *I)
{
    set_real(I, "GPVAL_VERSION", 5.4);
    set_str(I, "GPVAL_PATCHLEVEL", "4");
    set_str(I, "GPVAL_PVOX_VERSION", PV_VERSION_STRING);
    set_str(I, "GPVAL_COMPILE_OPTIONS",
            "    -READLINE  -LIBEDITLINE  -HISTORY  \n    +OBJECTS  +STATS -EXTERNAL_FUNCTIONS \n"
            "    -GD_PNG  -LIBCERF  -ANIMATION  +PVOX  +MPI  +OPENMP  +HDF5  \n");
    set_str(I, "GPVAL_TERMINALS", " png pngcairo ");
    set_str(I, "GPVAL_ENCODING", "default");
    set_str(I, "GPVAL_MINUS_SIGN", "-");
    set_str(I, "GPVAL_MICRO", "u");
    set_str(I, "GPVAL_DEGREE_SIGN", "\302\260");
    set_int(I, "GPVAL_MULTIPLOT", 0);
    set_int(I, "GPVAL_PLOT", 0);
    set_int(I, "GPVAL_SPLOT", 0);
    set_real(I, "GPVAL_pi", 3.14159265358979323846);
    pv_value nan = pv_real(0.0 / 0.0);
    pv_env_set(I->env, "GPVAL_NaN", &nan);
    struct utsname u;
    bool have_uname = uname(&u) == 0;
    set_str(I, "GPVAL_SYSNAME", have_uname ? u.sysname : "");
    set_str(I, "GPVAL_MACHINE", have_uname ? u.machine : "");
    set_int(I, "GPVAL_BITS", (int64_t)(sizeof(void *) * CHAR_BIT));
    set_int(I, "GPVAL_ERRNO", 0);
    set_str(I, "GPVAL_ERRMSG", "");
    set_int(I, "GPVAL_SYSTEM_ERRNO", 0);
    set_str(I, "GPVAL_SYSTEM_ERRMSG", "");
    char cwd[4096];
    set_str(I, "GPVAL_PWD", getcwd(cwd, sizeof cwd) ? cwd : "");
    set_str(I, "GPVAL_LAST_PLOT", "");
    axes_from_settings(I);
    pv_gpval_settings(I);
}

void pv_gpval_frame(pv_interp *I, const char *cmd, bool is_splot, const double min[4],
                    const double max[4])
{
    if (cmd) set_str(I, "GPVAL_LAST_PLOT", cmd);
    set_int(I, "GPVAL_PLOT", is_splot ? 0 : 1);
    set_int(I, "GPVAL_SPLOT", is_splot ? 1 : 0);
    axes_from_settings(I);
    if (!min || !max) return;
    I->last_cb[0] = min[3], I->last_cb[1] = max[3];
    I->have_last_cb = true;
    static const char *const names[4] = {"X", "Y", "Z", "CB"};
    for (int k = 0; k < 4; k++) {
        const pv_range *r = &I->set->range[k];
        set_axis(I, names[k], min[k], max[k], r->log ? r->log_base : 10);
    }
}
