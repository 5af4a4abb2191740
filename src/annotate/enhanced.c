/*
 * gnuplot's enhanced-text markup as pngcairo typesets it (see enhanced.h).
 *
 * The parser follows the structure of gnuplot's enhanced_recursion(): every call handles
 * one character or a braced group at one font, size and baseline, and the text between
 * two "flushes" becomes one piece of uniform style. A flushed piece is turned into what
 * gp_cairo_enhanced_flush() adds to its pango layout: a text range, or blank shapes of a
 * measured width that move the pen (phantom, hidden text, overprint).
 */
#include "enhanced.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The name the recursion starts with, standing for the terminal's default face (gnuplot
 * passes the terminal font's name; any name without ',' or ':' behaves the same). */
#define DEFAULT_FONT "\x01"
/* pngcairo's user space is 200 units per pixel and pango stores sizes and rises as
 * integers of 1/1024 of a unit: both are truncated to 1/204800 px. */
#define PANGO_UNITS_PER_PX (200.0 * 1024.0)

/* ---- the Symbol encoding (gp_cairo.c's table: Adobe Symbol to Unicode) ---------------- */

/* 0x20..0x7F; 0 = the byte itself */
static const uint16_t symbol_low[96] = {
    0,      0,      0x2200, 0,      0x2203, 0,      0,      0x220D, /* 20 */
    0,      0,      0,      0,      0,      0,      0,      0,      /* 28 */
    0,      0,      0,      0,      0,      0,      0,      0,      /* 30 */
    0,      0,      0,      0,      0,      0,      0,      0,      /* 38 */
    0x2245, 0x0391, 0x0392, 0x03A7, 0x0394, 0x0395, 0x03A6, 0x0393, /* 40 @ABCDEFG */
    0x0397, 0x0399, 0x03D1, 0x039A, 0x039B, 0x039C, 0x039D, 0x039F, /* 48 HIJKLMNO */
    0x03A0, 0x0398, 0x03A1, 0x03A3, 0x03A4, 0x03A5, 0x03C2, 0x03A9, /* 50 PQRSTUVW */
    0x039E, 0x03A8, 0x0396, 0,      0x2234, 0,      0x22A5, 0,      /* 58 XYZ[\]^_ */
    0xF8E5, 0x03B1, 0x03B2, 0x03C7, 0x03B4, 0x03B5, 0x03C6, 0x03B3, /* 60 `abcdefg */
    0x03B7, 0x03B9, 0x03D5, 0x03BA, 0x03BB, 0x00B5, 0x03BD, 0x03BF, /* 68 hijklmno */
    0x03C0, 0x03B8, 0x03C1, 0x03C3, 0x03C4, 0x03C5, 0x03D6, 0x03C9, /* 70 pqrstuvw */
    0x03BE, 0x03C8, 0x03B6, 0,      0,      0,      0x223C, 0,      /* 78 xyz{|}~  */
};

/* 0xA0..0xFF; 0 = the byte itself (as ISO-8859-1) */
static const uint16_t symbol_high[96] = {
    0x20AC, 0x03D2, 0x2032, 0x2264, 0x2044, 0x221E, 0x0192, 0x2663, /* A0 */
    0x2666, 0x2665, 0x2660, 0x2194, 0x2190, 0x2191, 0x2192, 0x2193, /* A8 */
    0x00B0, 0x00B1, 0x2033, 0x2265, 0x00D7, 0x221D, 0x2202, 0x2022, /* B0 */
    0x00F7, 0x2260, 0x2261, 0x2248, 0x2026, 0x23D0, 0x23AF, 0x21B5, /* B8 */
    0x2135, 0x2111, 0x211C, 0x2118, 0x2297, 0x2295, 0x2205, 0x2229, /* C0 */
    0x222A, 0x2283, 0x2287, 0x2284, 0x2282, 0x2286, 0x2208, 0x2209, /* C8 */
    0x2220, 0x2207, 0x00AE, 0x00A9, 0x2122, 0x220F, 0x221A, 0x22C5, /* D0 */
    0x00AC, 0x2227, 0x2228, 0x21D4, 0x21D0, 0x21D1, 0x21D2, 0x21D3, /* D8 */
    0x25CA, 0x3008, 0x00AE, 0x00A9, 0x2122, 0x2211, 0x239B, 0x239C, /* E0 (E2..E4 +F87F) */
    0x239D, 0x23A1, 0x23A2, 0x23A3, 0x23A7, 0x23A8, 0x23A9, 0x23AA, /* E8 */
    0xF8FF, 0x3009, 0x222B, 0x2320, 0x23AE, 0x2321, 0x239E, 0x239F, /* F0 */
    0x23A0, 0x23A4, 0x23A5, 0x23A6, 0x23AB, 0x23AC, 0x23AD, 0,      /* F8 */
};

unsigned enh_symbol_unicode(unsigned char c, unsigned *extra)
{
    unsigned u = 0;
    *extra = 0;
    if (c >= 0x20 && c < 0x80) u = symbol_low[c - 0x20];
    if (c >= 0xA0) u = symbol_high[c - 0xA0];
    if (c >= 0xE2 && c <= 0xE4) *extra = 0xF87F; /* sans serif variants */
    return u ? u : c;
}

/* ---- UTF-8 ------------------------------------------------------------------------- */

static size_t utf8_put(char *out, unsigned u)
{
    if (u < 0x80) {
        out[0] = (char)u;
        return 1;
    }
    if (u < 0x800) {
        out[0] = (char)(0xC0 | u >> 6);
        out[1] = (char)(0x80 | (u & 0x3F));
        return 2;
    }
    if (u < 0x10000) {
        out[0] = (char)(0xE0 | u >> 12);
        out[1] = (char)(0x80 | (u >> 6 & 0x3F));
        out[2] = (char)(0x80 | (u & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | u >> 18);
    out[1] = (char)(0x80 | (u >> 12 & 0x3F));
    out[2] = (char)(0x80 | (u >> 6 & 0x3F));
    out[3] = (char)(0x80 | (u & 0x3F));
    return 4;
}

/* Length of the well-formed UTF-8 sequence at p, 0 if there is none. */
static int utf8_len(const unsigned char *p)
{
    int n = *p >= 0xF0 && *p < 0xF8 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC0 ? 2 : 0;
    if (*p >= 0xF8) return 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80) return 0;
    return n;
}

static bool utf8_valid(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = *p < 0x80 ? 1 : utf8_len(p);
        if (n == 0) return false;
        p += n;
    }
    return true;
}

/* A piece's bytes as the UTF-8 pango gets: Symbol pieces byte by byte through the
 * Symbol table (gnuplot reads them as ISO-8859-1 first), others as they are if they are
 * valid UTF-8, else as ISO-8859-1. */
static char *piece_utf8(const char *s, bool symbol)
{
    size_t len = strlen(s);
    char *out = malloc(8 * len + 1), *o = out;
    if (!out) return NULL;
    if (!symbol && utf8_valid(s)) {
        memcpy(out, s, len + 1);
        return out;
    }
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned extra = 0, u = symbol ? enh_symbol_unicode(*p, &extra) : *p;
        o += utf8_put(o, u);
        if (extra) o += utf8_put(o, extra);
    }
    *o = '\0';
    return out;
}

/* ---- font names -------------------------------------------------------------------- */

/* gnuplot's stylefont(): the base name (up to ',' or ':', unless that is the first
 * character) plus ":Bold" / ":Italic". */
static char *style_font(const char *name, bool bold, bool italic)
{
    size_t base = strcspn(name, ",:");
    if (base == 0) base = strlen(name);
    char *s = malloc(base + 16);
    if (!s) return NULL;
    memcpy(s, name, base);
    s[base] = '\0';
    if (bold) strcat(s, ":Bold");
    if (italic) strcat(s, ":Italic");
    return s;
}

/* Remove the first `word` from s; true if it was there. */
static bool strip_word(char *s, const char *word)
{
    char *w = strstr(s, word);
    if (!w) return false;
    memmove(w, w + strlen(word), strlen(w + strlen(word)) + 1);
    return true;
}

/* What pngcairo makes of a font name (gp_cairo_set_font): backslashes dropped, '-' and
 * ':' become spaces, " Bold" and " Italic" set the weight and slant. "Symbol" selects
 * the Symbol mapping, drawn in the default face. */
static void resolve_font(const char *name, double size_pt, enh_style *st, bool *symbol)
{
    char buf[sizeof st->family];
    size_t n = 0;
    for (const char *c = name; *c && n + 1 < sizeof buf; c++) {
        if (*c == '\\') continue;
        buf[n++] = *c == '-' || *c == ':' ? ' ' : *c;
    }
    buf[n] = '\0';
    memset(st, 0, sizeof *st);
    st->bold = strip_word(buf, " Bold");
    st->italic = strip_word(buf, " Italic");
    *symbol = strcmp(buf, "Symbol") == 0;
    char *b = buf;
    while (*b == ' ') b++;
    for (size_t e = strlen(b); e > 0 && b[e - 1] == ' ';) b[--e] = '\0';
    if (!*symbol && strcmp(b, DEFAULT_FONT) != 0) strcpy(st->family, b);
    st->size_px = floor(size_pt * PANGO_UNITS_PER_PX) / PANGO_UNITS_PER_PX * 96.0 / 72.0;
}

/* ---- the element stream: text ranges and pen moves ----------------------------------- */

typedef struct elem {
    char *text; /* NULL: a move by `move` px */
    enh_style style;
    double rise, move;
} elem;

typedef struct parser {
    enh_measure_fn measure;
    void *ctx;
    /* the open piece (gp_cairo_enhanced_open .. _flush) */
    bool open;
    char *buf;
    size_t len, cap;
    char *font;
    double size, base;
    bool width, show;
    int ovp;
    /* @ (save / restore the pen) and ~ (underprinted width) */
    bool saving, restore;
    double saved_w, under_w;
    elem *el;
    int nel, elcap;
    bool failed;
} parser;

static void push(parser *P, const elem *e)
{
    if (P->nel == P->elcap) {
        int cap = P->elcap ? 2 * P->elcap : 16;
        elem *n = realloc(P->el, (size_t)cap * sizeof *n);
        if (!n) {
            free(e->text);
            P->failed = true;
            return;
        }
        P->el = n;
        P->elcap = cap;
    }
    P->el[P->nel++] = *e;
}

static void push_move(parser *P, double dx)
{
    elem e = {.text = NULL, .move = dx};
    push(P, &e);
}

/* gp_cairo_enhanced_open: overprint 3 starts saving the pen, 4 restores it before the
 * next piece; otherwise the piece's style is fixed by its first character. */
static void piece_open(parser *P, const char *font, double size, double base, bool width, bool show,
                       int ovp)
{
    if (ovp == 3) {
        P->saving = true;
        P->restore = false;
        P->saved_w = 0.0; /* gnuplot starts a new attribute list: earlier text is unsized */
        return;
    }
    if (ovp == 4) {
        P->saving = false;
        P->restore = true;
        return;
    }
    if (P->open) return;
    free(P->font);
    P->font = strdup(font);
    if (!P->font) P->failed = true;
    P->open = true;
    P->len = 0;
    P->size = size;
    P->base = base;
    P->width = width;
    P->show = show;
    P->ovp = ovp;
}

static void piece_putc(parser *P, char c)
{
    if (P->len + 2 > P->cap) {
        size_t cap = P->cap ? 2 * P->cap : 64;
        char *n = realloc(P->buf, cap);
        if (!n) {
            P->failed = true;
            return;
        }
        P->buf = n;
        P->cap = cap;
    }
    P->buf[P->len++] = c;
    P->buf[P->len] = '\0';
}

/* gp_cairo_enhanced_flush: the piece and the pen moves around it. */
static void piece_flush(parser *P)
{
    if (!P->open) return;
    P->open = false;
    if (P->failed || !P->font) return;
    elem e;
    bool symbol;
    resolve_font(P->font, P->size, &e.style, &symbol);
    e.text = piece_utf8(P->len ? P->buf : "", symbol);
    e.rise = trunc(P->base * PANGO_UNITS_PER_PX) / PANGO_UNITS_PER_PX;
    e.move = 0.0;
    if (!e.text) {
        P->failed = true;
        return;
    }
    double w = P->measure(P->ctx, &e.style, e.text), back = 0.0;
    if (P->restore) { /* back to where the saved text started */
        push_move(P, -P->saved_w);
        P->saved_w = 0.0;
        P->restore = false;
    }
    if (P->ovp == 2) { /* centred over the underprinted text */
        back = -(P->under_w + w) / 2.0;
        push_move(P, back);
        P->under_w = 0.0;
    }
    if (P->saving) P->saved_w += w;
    if (P->ovp == 1) P->under_w = w; /* only the last piece keeps its size in gnuplot */
    bool width = P->width;
    int ovp = P->ovp;
    if (P->show) {
        push(P, &e);
    } else {
        free(e.text);
        push_move(P, w);
    }
    if (!width) push_move(P, -w);
    if (ovp == 2) push_move(P, -back - w / 2.0); /* gnuplot's amount, not quite back */
}

/* ---- the recursion ----------------------------------------------------------------- */

typedef struct level {
    const char *font;
    double size, base;
    bool width, show;
    int ovp;
} level;

static const char *recurse(parser *P, const char *p, bool brace, level lv);

static void open_here(parser *P, const level *lv)
{
    piece_open(P, lv->font, lv->size, lv->base, lv->width, lv->show, lv->ovp);
}

/* The font part of "{/name=size*scale:Bold:Italic:Normal text}", p after the '/'.
 * Sets *name (malloc'd, NULL to keep the current one), *size and the style flags;
 * returns the text start, or NULL on an unterminated quoted name. */
static const char *font_spec(const char *p, char **name, double *size, double cur_size, bool *bold,
                             bool *italic, bool *normal)
{
    while (*p == ' ') p++;
    if (*p == '-') /* gnuplot skips a leading '-' */
        for (p++; *p == ' ';) p++;
    const char *start = p, *end;
    if (*p == '\'' || *p == '"') {
        for (p++; *p && *p != '}' && *p != *start;) p++;
        if (*p != *start) return NULL;
        end = p++;
        start++;
    } else {
        while ((unsigned char)*p > ' ' && !strchr("=*}:", *p)) p++;
        end = p;
    }
    for (;;) {
        char *e = NULL;
        if (*p == '=') {
            double f = strtod(p + 1, &e);
            *size = f == 0 ? cur_size : f; /* times enhanced_fontscale: 1 in pvox */
        } else if (*p == '*') {
            double f = strtod(p + 1, &e);
            *size = f != 0 ? f * cur_size : cur_size;
        } else if (*p == ':') {
            p++;
            *bold |= strncmp(p, "Bold", 4) == 0;
            *italic |= strncmp(p, "Italic", 6) == 0;
            *normal |= strncmp(p, "Normal", 6) == 0;
            while (isalpha((unsigned char)*p)) p++;
            continue;
        } else {
            break;
        }
        p = e;
    }
    if (*p == ' ') p++; /* one space after the spec belongs to it */
    *name = NULL;
    if (end > start) {
        *name = malloc((size_t)(end - start) + 1);
        if (*name) {
            memcpy(*name, start, (size_t)(end - start));
            (*name)[end - start] = '\0';
        }
    }
    return p;
}

/* "{...}": an optional overprint offset and font spec, then the group. Returns the
 * closing brace (or the end). */
static const char *group(parser *P, const char *p, level lv, bool *bad)
{
    bool wasitalic = strstr(lv.font, ":Italic") != NULL;
    bool wasbold = strstr(lv.font, ":Bold") != NULL;
    bool bold = false, italic = false, normal = false;
    double size = lv.size;
    char *name = NULL;
    p++;
    if (lv.ovp == 2) { /* the overprinted text's raise, a fraction of the size */
        char *e;
        lv.base += strtod(p, &e) * lv.size;
        p = e;
    }
    if (*p == '/') {
        p = font_spec(p + 1, &name, &size, lv.size, &bold, &italic, &normal);
        if (!p) {
            *bad = true;
            return NULL;
        }
    }
    bold = (wasbold || bold) && !normal;
    italic = (wasitalic || italic) && !normal;
    char *styled = style_font(name ? name : lv.font, bold, italic);
    free(name);
    if (!styled) {
        P->failed = true;
        return p + strlen(p);
    }
    level in = lv;
    in.font = styled;
    in.size = size;
    p = recurse(P, p, true, in);
    piece_flush(P);
    free(styled);
    return p;
}

/* "\..." escapes; p at the backslash, returns the last character used. */
static const char *escape(parser *P, const char *p)
{
    if (p[1] == 'U' && p[2] == '+') { /* \U+hhhh needs `set encoding utf8`: gnuplot's
                                        * default encoding prints it as written */
        piece_putc(P, '\\');
        return p;
    }
    if (p[1] >= '0' && p[1] <= '7') { /* \ooo: one byte */
        int v = 0, k = 0;
        for (; k < 3 && p[1] >= '0' && p[1] <= '7'; k++) v = v * 8 + (*++p - '0');
        if (v & 0xFF) piece_putc(P, (char)(v & 0xFF));
        return p;
    }
    if (p[1] == '\0') return p; /* a lone backslash at the end: dropped */
    piece_putc(P, p[1]);
    return p + 1;
}

/* One character (brace false) or up to the closing brace; returns the last character
 * used (the brace, or the end of the string). */
static const char *recurse(parser *P, const char *p, bool brace, level lv)
{
    piece_flush(P);
    while (*p && !P->failed) {
        unsigned char c = (unsigned char)*p;
        if (c & 0x80) { /* a whole UTF-8 character (or one stray byte) */
            open_here(P, &lv);
            int n = utf8_len((const unsigned char *)p);
            for (int i = 0; i < (n ? n : 1); i++) piece_putc(P, p[i]);
            p += (n ? n : 1) - 1;
        } else if (c == '}') {
            if (brace) return p; /* else a stray brace: ignored */
        } else if (c == '^' || c == '_') {
            level sub = lv;
            sub.size = lv.size * 0.8;
            sub.base = lv.base + (c == '^' ? 0.5 : -0.3) * lv.size;
            piece_flush(P);
            p = recurse(P, p + 1, false, sub);
        } else if (c == '{') {
            bool bad = false;
            const char *q = group(P, p, lv, &bad);
            if (bad) /* unterminated quoted font name: gnuplot skips to the brace */
                for (q = p + 1; *q && *q != '}';) q++;
            p = q;
        } else if (c == '@') {
            piece_flush(P);
            piece_open(P, lv.font, lv.size, lv.base, lv.width, lv.show, 3);
            p = recurse(P, p + 1, false, lv);
            piece_open(P, lv.font, lv.size, lv.base, lv.width, lv.show, 4);
        } else if (c == '&') {
            level hid = lv;
            hid.show = false;
            piece_flush(P);
            p = recurse(P, p + 1, false, hid);
        } else if (c == '~') {
            level under = lv, over = lv;
            under.ovp = 1;
            over.ovp = 2;
            over.width = false;
            piece_flush(P);
            p = recurse(P, p + 1, false, under);
            piece_flush(P);
            if (*p) p = recurse(P, p + 1, false, over);
            lv.ovp = 0;
        } else if (c == '\\') {
            open_here(P, &lv);
            p = escape(P, p);
        } else {
            open_here(P, &lv);
            piece_putc(P, *p);
        }
        if (!brace) {
            piece_flush(P);
            return p;
        }
        if (*p) p++;
    }
    piece_flush(P);
    return p;
}

/* ---- layout ------------------------------------------------------------------------ */

static bool add_run(enh_layout *L, const elem *e, double x)
{
    if (L->n == L->cap) {
        int cap = L->cap ? 2 * L->cap : 8;
        enh_run *n = realloc(L->runs, (size_t)cap * sizeof *n);
        if (!n) return false;
        L->runs = n;
        L->cap = cap;
    }
    enh_run *r = &L->runs[L->n++];
    r->text = e->text;
    r->style = e->style;
    r->x = x;
    r->rise = e->rise;
    return true;
}

/* Place the elements: runs at the pen, moves shift it. Every piece is a range of its
 * own attributes in gnuplot's layout, which pango shapes as an item of its own even
 * next to one of the same style: no kerning or ligature across pieces (measured: "A{V}"
 * is 3 px wider than "AV"). The width is pango's logical width of the line: from the
 * leftmost start of a run to the rightmost end (a move back is a run of negative width,
 * which extends neither), not the final pen. */
static bool place(enh_layout *L, parser *P)
{
    double pen = 0.0, left = 0.0, right = 0.0;
    for (int i = 0; i < P->nel; i++) {
        elem *e = &P->el[i];
        double w = e->move;
        if (e->text) {
            if (!add_run(L, e, pen)) return false;
            e->text = NULL; /* now the run's */
            w = P->measure(P->ctx, &L->runs[L->n - 1].style, L->runs[L->n - 1].text);
        }
        left = fmin(left, pen);
        right = fmax(right, pen + w);
        pen += w;
    }
    L->width = right - left;
    /* pango draws the line at the layout's origin plus the line's logical x: a line
     * reaching left of its start (an overprint wider than what it is centred on) is
     * drawn that much further left (measured: "~{i}{/=20 W}" sits 11 px left) */
    for (int r = 0; r < L->n; r++) L->runs[r].x += left;
    return true;
}

bool enh_has_markup(const char *text)
{
    if (strpbrk(text, "{}^_@&~")) return true;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p & 0x80) return true;
    return false;
}

bool enh_layout_text(enh_layout *L, const char *text, double font_pt, enh_measure_fn measure,
                     void *ctx)
{
    memset(L, 0, sizeof *L);
    parser P = {.measure = measure, .ctx = ctx};
    level top = {DEFAULT_FONT, font_pt, 0.0, true, true, 0};
    const char *s = text;
    /* an unmatched '}' ends the recursion: skip it and carry on, as gnuplot does */
    while (*(s = recurse(&P, s, true, top)) && !P.failed) {
        piece_flush(&P);
        if (!*++s) break;
    }
    piece_flush(&P);
    bool ok = !P.failed && place(L, &P);
    for (int i = 0; i < P.nel; i++) free(P.el[i].text);
    free(P.el);
    free(P.buf);
    free(P.font);
    if (!ok) enh_layout_free(L);
    L->failed = !ok;
    return ok;
}

void enh_layout_free(enh_layout *L)
{
    for (int i = 0; i < L->n; i++) free(L->runs[i].text);
    free(L->runs);
    memset(L, 0, sizeof *L);
}
