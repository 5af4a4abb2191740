/*
 * pvox settings: `set/unset/show terminal` and `output` (DEC-10: pngcairo by default).
 *
 * `compression N` and `filter none|sub|up|average|paeth|adaptive` are pvox extensions
 * (README, "Plotting"): the PNG encoder's zlib level and row filter, handed to
 * pv_png_write by exec. Like every other terminal option they stay when the same terminal
 * is set again and return to the default when the terminal type changes.
 */
#include "settings_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void term_reset(pv_term *t, pv_term_kind kind)
{
    free(t->font);
    free(t->font_name);
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->width = 640;
    t->height = 480;
    t->fontscale = 1.0;
    t->background = 0xFFFFFFu;
    t->enhanced = true;
    t->linewidth = 1.0;
    t->png_level = -1;
    t->png_filter = PV_PNGF_DEFAULT;
}

static void split_font(pv_term *t)
{
    free(t->font_name);
    t->font_name = NULL;
    t->font_size = 0.0;
    if (!t->font) return;
    const char *comma = strchr(t->font, ',');
    size_t n = comma ? (size_t)(comma - t->font) : strlen(t->font);
    if (n > 0) {
        t->font_name = malloc(n + 1);
        if (t->font_name) {
            memcpy(t->font_name, t->font, n);
            t->font_name[n] = '\0';
        }
    }
    if (comma) t->font_size = atof(comma + 1);
}

static double size_unit(pv_sp *p)
{
    if (sp_word(p, "in")) return 72.0;
    if (sp_word(p, "cm")) return 72.0 / 2.54;
    sp_word(p, "px");
    return 1.0;
}

static pv_status term_size(pv_sp *p, int *w, int *h)
{
    double dw = *w, dh = *h;
    size_t at = pv_cur_offset(p->c);
    pv_status st = sp_real(p, &dw);
    if (st != PV_OK) return st;
    double unit = size_unit(p);
    if (sp_op(p, ",")) {
        if ((st = sp_real(p, &dh)) != PV_OK) return st;
        unit = size_unit(p);
    }
    if (!p->exec) return PV_OK;
    dw *= unit, dh *= unit;
    if (!(dw >= 1.0 && dh >= 1.0 && dw <= 65535.0 && dh <= 65535.0))
        return pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at,
                               "terminal size must be between 1 and 65535 pixels");
    *w = (int)dw, *h = (int)dh;
    return PV_OK;
}

/* `compression N`: zlib level 0..9, checked when run (the value is an expression). */
static pv_status png_compression(pv_sp *p, int *level)
{
    size_t at = pv_cur_offset(p->c);
    int n = *level;
    pv_status st = sp_int(p, &n);
    if (st != PV_OK || !p->exec) return st;
    if (n < 0 || n > 9)
        return pv_source_error(p->c->ctx, PV_ESCRIPT, p->c->tl->src, at,
                               "compression level must be between 0 and 9");
    *level = n;
    return PV_OK;
}

/* Names of PV_PNGF_NONE .. PV_PNGF_ADAPTIVE, in enum order (show prints them too). */
static const char *const png_filter_names[] = {"none", "sub", "up", "average", "paeth",
                                               "adaptive"};

static pv_status png_filter(pv_sp *p, int *filter)
{
    for (int i = 0; i < (int)(sizeof png_filter_names / sizeof *png_filter_names); i++)
        if (sp_word(p, png_filter_names[i])) {
            *filter = PV_PNGF_NONE + i;
            return PV_OK;
        }
    return sp_err(p, PV_ESYNTAX, "expecting none, sub, up, average, paeth or adaptive");
}

static bool legacy_color(pv_sp *p)
{
    const pv_token *tk = pv_cur_peek(p->c);
    if (sp_end(p) || tk->kind != PV_TK_NAME || tk->sval[0] != 'x' || strlen(tk->sval) != 7)
        return false;
    return strspn(tk->sval + 1, "0123456789abcdefABCDEF") == 6;
}

static pv_status term_options(pv_sp *p, pv_term *t)
{
    pv_status st = PV_OK;
    while (st == PV_OK && !sp_end(p)) {
        if (sp_word(p, "si$ze")) st = term_size(p, &t->width, &t->height);
        else if (sp_word(p, "font") || sp_word(p, "fn")) st = sp_string(p, &t->font);
        else if (sp_word(p, "fontscale")) st = sp_real(p, &t->fontscale);
        else if (sp_word(p, "backg$round")) {
            uint32_t argb = t->background;
            sp_word(p, "rgb$color");
            st = sp_rgb_value(p, &argb);
            if (st == PV_OK) t->background = argb & 0xFFFFFFu;
        } else if (sp_word(p, "transp$arent")) t->transparent = true;
        else if (sp_word(p, "notransp$arent")) t->transparent = false;
        else if (sp_word(p, "enh$anced")) t->enhanced = true;
        else if (sp_word(p, "noenh$anced")) t->enhanced = false;
        else if (sp_word(p, "crop")) t->crop = true;
        else if (sp_word(p, "nocrop")) t->crop = false;
        else if (sp_word(p, "true$color")) t->truecolor = true;
        else if (sp_word(p, "notrue$color")) t->truecolor = false;
        else if (sp_word(p, "lw") || sp_word(p, "linew$idth")) st = sp_real(p, &t->linewidth);
        else if (sp_word(p, "compr$ession")) st = png_compression(p, &t->png_level);
        else if (sp_word(p, "filter")) st = png_filter(p, &t->png_filter);
        else if (sp_word(p, "dl") || sp_word(p, "dashl$ength") || sp_word(p, "pointscale") ||
                 sp_word(p, "ps")) {
            double d = 0;
            st = sp_real(p, &d);
        } else if (sp_word(p, "mono$chrome") || sp_word(p, "col$or") || sp_word(p, "colour") ||
                   sp_word(p, "rounded") || sp_word(p, "butt") || sp_word(p, "square") ||
                   sp_word(p, "interlace") || sp_word(p, "nointerlace") || sp_word(p, "tiny") ||
                   sp_word(p, "small") || sp_word(p, "medium") || sp_word(p, "large") ||
                   sp_word(p, "giant") || sp_word(p, "dashed") || sp_word(p, "solid")) {
            /* accepted; nothing pvox draws depends on them */
        } else if (t->kind == PV_TERM_PNG && legacy_color(p)) {
            pv_cur_next(p->c); /* png's old `xRRGGBB` colour list: accepted, unused */
        } else st = sp_err(p, PV_ESYNTAX, "unrecognized terminal option");
    }
    return st;
}

pv_status sp_set_terminal(pv_sp *p)
{
    pv_settings *s = p->s;
    if (sp_end(p)) {
        if (p->exec)
            pv_msg(p->c->ctx, "\nAvailable terminal types:\n"
                              "           png  PNG images (pvox renders with cairo)\n"
                              "      pngcairo  png terminal based on cairo\n\n");
        return PV_OK;
    }
    if (sp_word(p, "push") || sp_word(p, "pop")) return sp_expect_end(p); /* one terminal */
    pv_term_kind kind;
    if (sp_word(p, "pngc$airo")) kind = PV_TERM_PNGCAIRO;
    else if (sp_word(p, "png")) kind = PV_TERM_PNG;
    else {
        const pv_token *t = pv_cur_peek(p->c);
        if (t->kind == PV_TK_NAME)
            return sp_err(p, PV_ESCRIPT, "terminal '%s' is not supported by pvox; "
                          "supported terminals: png, pngcairo", t->sval);
        return sp_err(p, PV_ESYNTAX, "unknown or ambiguous terminal type; "
                      "supported terminals: png, pngcairo");
    }
    /* parse into a copy; switching the terminal type starts from its defaults */
    pv_term t = s->term;
    t.font = sp_strdup(s->term.font);
    t.font_name = NULL;
    if (kind != s->term.kind) term_reset(&t, kind);
    pv_status st = term_options(p, &t);
    if (st != PV_OK || !p->exec) {
        free(t.font);
        free(t.font_name);
        return st;
    }
    split_font(&t);
    free(s->term.font);
    free(s->term.font_name);
    s->term = t;
    return PV_OK;
}

pv_status sp_unset_terminal(pv_sp *p)
{
    /* gnuplot: back to the startup terminal, pvox's default (DEC-10) */
    if (p->exec) term_reset(&p->s->term, PV_TERM_PNGCAIRO);
    return sp_expect_end(p);
}

pv_status sp_set_output(pv_sp *p)
{
    char *name = NULL;
    pv_status st = PV_OK;
    if (!sp_end(p)) st = sp_string(p, &name);
    if (st == PV_OK) st = sp_expect_end(p);
    if (st != PV_OK || !p->exec) {
        free(name);
        return st;
    }
    free(p->s->output);
    p->s->output = name && name[0] ? name : NULL;
    if (name && !name[0]) free(name);
    return PV_OK;
}

pv_status sp_unset_output(pv_sp *p)
{
    if (p->exec) {
        free(p->s->output);
        p->s->output = NULL;
    }
    return sp_expect_end(p);
}

/* ---- show ------------------------------------------------------------------------ */

pv_status sp_show_terminal(pv_sp *p)
{
    const pv_term *t = &p->s->term;
    if (OUT) {
        fprintf(OUT, "\n   terminal type is %s ", t->kind == PV_TERM_PNG ? "png" : "pngcairo");
        if (t->transparent) fprintf(OUT, " transparent");
        else fprintf(OUT, " background \"#%06x\"", (unsigned)t->background);
        fprintf(OUT, " %senhanced", t->enhanced ? "" : "no");
        if (t->font) fprintf(OUT, " font \"%s\"", t->font);
        fprintf(OUT, " fontscale %.1f size %d, %d ", t->fontscale, t->width, t->height);
        /* pvox's extensions, only when not default (gnuplot prints no such words) */
        if (t->png_level >= 0) fprintf(OUT, "compression %d ", t->png_level);
        if (t->png_filter > PV_PNGF_DEFAULT && t->png_filter <= PV_PNGF_ADAPTIVE)
            fprintf(OUT, "filter %s ", png_filter_names[t->png_filter - PV_PNGF_NONE]);
        fprintf(OUT, "\n\n");
    }
    return sp_done(p);
}

pv_status sp_show_output(pv_sp *p)
{
    if (OUT) {
        if (p->s->output) fprintf(OUT, "\n\toutput is sent to '%s'\n\n", p->s->output);
        else fprintf(OUT, "\n\toutput is not set: plots go to numbered files\n\n");
    }
    return sp_done(p);
}
