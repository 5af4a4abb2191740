/*
 * pvox settings: gnuplot 5.4's colour-name table and colour-string parsing.
 *
 * The table was written from the output of gnuplot 5.4.4's `show colornames` (names and
 * RGB values, in its order, which matters: lookup takes the first name that starts the
 * given text, so "redd" is red and "grey80" finds "grey80" before "grey" only because it
 * is an exact match). Colour strings: names, "#RRGGBB", "#AARRGGBB", "0xRRGGBB",
 * "0xAARRGGBB" (AA = transparency, gnuplot's convention).
 */
#include "pvox/settings.h"

#include <stdlib.h>
#include <string.h>

typedef struct color_name {
    const char *name;
    uint32_t rgb;
} color_name;

static const color_name colors[] = {
    {"white", 0xffffffU},
    {"black", 0x000000U},
    {"dark-grey", 0xa0a0a0U},
    {"red", 0xff0000U},
    {"web-green", 0x00c000U},
    {"web-blue", 0x0080ffU},
    {"dark-magenta", 0xc000ffU},
    {"dark-cyan", 0x00eeeeU},
    {"dark-orange", 0xc04000U},
    {"dark-yellow", 0xc8c800U},
    {"royalblue", 0x4169e1U},
    {"goldenrod", 0xffc020U},
    {"dark-spring-green", 0x008040U},
    {"purple", 0xc080ffU},
    {"steelblue", 0x306080U},
    {"dark-red", 0x8b0000U},
    {"dark-chartreuse", 0x408000U},
    {"orchid", 0xff80ffU},
    {"aquamarine", 0x7fffd4U},
    {"brown", 0xa52a2aU},
    {"yellow", 0xffff00U},
    {"turquoise", 0x40e0d0U},
    {"grey0", 0x000000U},
    {"grey10", 0x1a1a1aU},
    {"grey20", 0x333333U},
    {"grey30", 0x4d4d4dU},
    {"grey40", 0x666666U},
    {"grey50", 0x7f7f7fU},
    {"grey60", 0x999999U},
    {"grey70", 0xb3b3b3U},
    {"grey", 0xc0c0c0U},
    {"grey80", 0xccccccU},
    {"grey90", 0xe5e5e5U},
    {"grey100", 0xffffffU},
    {"light-red", 0xf03232U},
    {"light-green", 0x90ee90U},
    {"light-blue", 0xadd8e6U},
    {"light-magenta", 0xf055f0U},
    {"light-cyan", 0xe0ffffU},
    {"light-goldenrod", 0xeedd82U},
    {"light-pink", 0xffb6c1U},
    {"light-turquoise", 0xafeeeeU},
    {"gold", 0xffd700U},
    {"green", 0x00ff00U},
    {"dark-green", 0x006400U},
    {"spring-green", 0x00ff7fU},
    {"forest-green", 0x228b22U},
    {"sea-green", 0x2e8b57U},
    {"blue", 0x0000ffU},
    {"dark-blue", 0x00008bU},
    {"midnight-blue", 0x191970U},
    {"navy", 0x000080U},
    {"medium-blue", 0x0000cdU},
    {"skyblue", 0x87ceebU},
    {"cyan", 0x00ffffU},
    {"magenta", 0xff00ffU},
    {"dark-turquoise", 0x00ced1U},
    {"dark-pink", 0xff1493U},
    {"coral", 0xff7f50U},
    {"light-coral", 0xf08080U},
    {"orange-red", 0xff4500U},
    {"salmon", 0xfa8072U},
    {"dark-salmon", 0xe9967aU},
    {"khaki", 0xf0e68cU},
    {"dark-khaki", 0xbdb76bU},
    {"dark-goldenrod", 0xb8860bU},
    {"beige", 0xf5f5dcU},
    {"olive", 0xa08020U},
    {"orange", 0xffa500U},
    {"violet", 0xee82eeU},
    {"dark-violet", 0x9400d3U},
    {"plum", 0xdda0ddU},
    {"dark-plum", 0x905040U},
    {"dark-olivegreen", 0x556b2fU},
    {"orangered4", 0x801400U},
    {"brown4", 0x801414U},
    {"sienna4", 0x804014U},
    {"orchid4", 0x804080U},
    {"mediumpurple3", 0x8060c0U},
    {"slateblue1", 0x8060ffU},
    {"yellow4", 0x808000U},
    {"sienna1", 0xff8040U},
    {"tan1", 0xffa040U},
    {"sandybrown", 0xffa060U},
    {"light-salmon", 0xffa070U},
    {"pink", 0xffc0c0U},
    {"khaki1", 0xffff80U},
    {"lemonchiffon", 0xffffc0U},
    {"bisque", 0xcdb79eU},
    {"honeydew", 0xf0fff0U},
    {"slategrey", 0xa0b6cdU},
    {"seagreen", 0xc1ffc1U},
    {"antiquewhite", 0xcdc0b0U},
    {"chartreuse", 0x7cff40U},
    {"greenyellow", 0xa0ff20U},
    {"gray", 0xbebebeU},
    {"light-gray", 0xd3d3d3U},
    {"light-grey", 0xd3d3d3U},
    {"dark-gray", 0xa0a0a0U},
    {"slategray", 0xa0b6cdU},
    {"gray0", 0x000000U},
    {"gray10", 0x1a1a1aU},
    {"gray20", 0x333333U},
    {"gray30", 0x4d4d4dU},
    {"gray40", 0x666666U},
    {"gray50", 0x7f7f7fU},
    {"gray60", 0x999999U},
    {"gray70", 0xb3b3b3U},
    {"gray80", 0xccccccU},
    {"gray90", 0xe5e5e5U},
    {"gray100", 0xffffffU},
};

enum { NCOLORS = (int)(sizeof colors / sizeof colors[0]) };

int pv_color_count(void) { return NCOLORS; }

const char *pv_color_at(int k, uint32_t *rgb)
{
    if (k < 0 || k >= NCOLORS) return NULL;
    if (rgb) *rgb = colors[k].rgb;
    return colors[k].name;
}

bool pv_color_lookup(const char *name, uint32_t *rgb)
{
    for (int k = 0; k < NCOLORS; k++) {
        if (strcmp(name, colors[k].name) == 0) {
            *rgb = colors[k].rgb;
            return true;
        }
    }
    /* gnuplot compares only the table name's length: the first name that starts the text */
    for (int k = 0; k < NCOLORS; k++) {
        size_t n = strlen(colors[k].name);
        if (strncmp(name, colors[k].name, n) == 0) {
            *rgb = colors[k].rgb;
            return true;
        }
    }
    return false;
}

const char *pv_color_name(uint32_t rgb)
{
    for (int k = 0; k < NCOLORS; k++)
        if (colors[k].rgb == (rgb & 0xFFFFFFu)) return colors[k].name;
    return NULL;
}

/* gnuplot reads colour strings with sscanf("#%lx"): the leading hex digits count (at least
 * one), whatever follows is ignored, and the value keeps its low 32 bits. */
static bool parse_hex(const char *p, uint32_t *out)
{
    uint32_t v = 0;
    size_t i = 0;
    for (;; i++) {
        char ch = p[i];
        uint32_t d;
        if (ch >= '0' && ch <= '9') d = (uint32_t)(ch - '0');
        else if (ch >= 'a' && ch <= 'f') d = (uint32_t)(ch - 'a' + 10);
        else if (ch >= 'A' && ch <= 'F') d = (uint32_t)(ch - 'A' + 10);
        else break;
        v = v * 16u + d;
    }
    if (i == 0) return false;
    *out = v;
    return true;
}

bool pv_color_parse_string(const char *text, uint32_t *argb)
{
    if (!text) return false;
    if (text[0] == '#') return parse_hex(text + 1, argb);
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) return parse_hex(text + 2, argb);
    return pv_color_lookup(text, argb);
}
