/*
 * gnuplot's enhanced text (annotate-private): the markup of titles, labels and key
 * titles under pngcairo's default `enhanced` option, turned into positioned runs.
 *
 * Markup (gnuplot's `help enhanced`): x^2 superscript and E_0 subscript (one character
 * or a {braced group}, at 0.8 times the size, the baseline raised by 0.5 or lowered by
 * 0.3 times the font size in points taken as pixels); {/Font=size:Bold:Italic text}
 * font, size (=pt, *factor) and style; {/Symbol a} Symbol-encoded letters (mapped to
 * Unicode Greek and math signs, drawn in the default face); @x phantom (drawn, then the
 * pen goes back); &{text} space as wide as text; ~a{.8-} overprint (the second centred
 * on the first, optionally raised by a fraction of the size); \x escapes a character,
 * \ooo is an octal byte.
 *
 * How pngcairo draws it (gnuplot 5.4 src/term.c enhanced_recursion, wxterminal/gp_cairo.c):
 * the text is cut into pieces of uniform style, each piece becomes a range of one pango
 * layout with size, rise and family attributes, and the pen moves (@, &, ~) are blank
 * "shape" characters of a measured (possibly negative) width. We do the same: the
 * parser emits text runs and moves; the caller measures a piece (enh_measure_fn: pango's
 * width of that text alone in that style) and draws each run at its pen position.
 */
#ifndef PV_ANNOTATE_ENHANCED_H
#define PV_ANNOTATE_ENHANCED_H

#include <stdbool.h>

typedef struct enh_style {
    char family[64]; /* face to ask fontconfig for; "" = the terminal's default face */
    bool bold, italic;
    double size_px; /* em in pixels (points * 96/72, as pango rounds the size) */
} enh_style;

typedef struct enh_run {
    char *text; /* UTF-8 (Symbol pieces already mapped), owned */
    enh_style style;
    double x;    /* pen position at its start, px from the text's start */
    double rise; /* baseline shift up, px */
} enh_run;

typedef struct enh_layout {
    enh_run *runs; /* the drawn runs, in order */
    int n, cap;
    double width; /* the pen at the end: pango's logical width, for justification */
    bool failed;  /* out of memory: runs incomplete */
} enh_layout;

/* Width in px of `text` (UTF-8) laid out alone in style `st`. */
typedef double (*enh_measure_fn)(void *ctx, const enh_style *st, const char *text);

/* True if pngcairo sends `text` through the enhanced-text path: it contains one of
 * {}^_@&~ or a non-ASCII byte. Otherwise it is drawn as written (backslashes too). */
bool enh_has_markup(const char *text);

/* Parse `text` with the terminal font of `font_pt` points and lay it out. Returns false
 * if memory ran out (L is then freed and empty). */
bool enh_layout_text(enh_layout *L, const char *text, double font_pt, enh_measure_fn measure,
                     void *ctx);

void enh_layout_free(enh_layout *L);

/* The Unicode code point pngcairo draws for byte `c` of a {/Symbol ...} piece (the
 * byte read as ISO-8859-1 otherwise); *extra receives a second code point (the sans
 * serif variant selector of 0xE2..0xE4) or 0. */
unsigned enh_symbol_unicode(unsigned char c, unsigned *extra);

#endif
