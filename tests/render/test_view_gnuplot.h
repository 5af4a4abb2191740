/*
 * gnuplot as an oracle for the frame tests (palette, tics, view): run a script, read the
 * file it wrote. Header-only; each test includes it once. gnuplot 5.4 must be on PATH
 * (Debian gnuplot-nox); gp_have() tells whether it is.
 */
#ifndef PV_TEST_VIEW_GNUPLOT_H
#define PV_TEST_VIEW_GNUPLOT_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvox/view.h"

static char gp_dir[64];

/* Is gnuplot runnable? Also makes the scratch directory. */
static bool gp_have(void)
{
    if (system("gnuplot -e 'exit' >/dev/null 2>&1") != 0) return false;
    strcpy(gp_dir, "/tmp/pv_gp_XXXXXX");
    return mkdtemp(gp_dir) != NULL;
}

static inline void gp_cleanup(void)
{
    char cmd[128];
    if (!gp_dir[0] || getenv("PV_GP_KEEP")) return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", gp_dir);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", gp_dir);
}

/* The malloc'd contents of a file in the scratch directory, or NULL. */
static inline char *gp_read(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", gp_dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf) buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Run `script` (cwd = the scratch directory; stderr+stdout to out.txt). Returns the
 * malloc'd contents of `outfile` (a name in the scratch directory) or NULL. */
static char *gp_run(const char *script, const char *outfile)
{
    char path[256], cmd[512];
    snprintf(path, sizeof path, "%s/script.gp", gp_dir);
    FILE *f = fopen(path, "w");
    if (!f) return NULL;
    fputs(script, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/%s", gp_dir, outfile);
    remove(path);
    snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot script.gp >out.txt 2>&1", gp_dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "gnuplot failed on:\n%s\n", script);
        return NULL;
    }
    return gp_read(outfile);
}

/* gnuplot's svg terminal metrics (default font Arial 12; measured with GPVAL_TERM_*):
 * 100 units per pixel, no half-pixel offset: svg x = x/100, svg y = (ymax - y)/100. */
static inline void gp_svg_termdim(pv_termdim *t, int w, int h)
{
    memset(t, 0, sizeof *t);
    t->width = w;
    t->height = h;
    t->xmax = 100 * w;
    t->ymax = 100 * h;
    t->h_char = 839;
    t->v_char = 1800;
    t->h_tic = t->v_tic = 900;
    t->font_pt = 12;
    t->font_px = 16;
    t->linewidth = 1;
}

#endif
