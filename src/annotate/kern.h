/*
 * Pair kerning from a TrueType font's `kern` table (annotate-private).
 *
 * gnuplot's pngcairo lays text out with pango, which kerns; cairo's toy text API does not.
 * To put glyphs where gnuplot puts them we read the kerning pairs of the pinned font
 * (DejaVu Sans) ourselves: the `cmap` (format 4, BMP) and `kern` (version 0, format 0
 * subtables) tables of the .ttf file. Missing file or tables: no kerning.
 */
#ifndef PV_ANNOTATE_KERN_H
#define PV_ANNOTATE_KERN_H

#include <stdbool.h>
#include <stdint.h>

typedef struct kern_pair {
    uint32_t key;    /* left glyph << 16 | right glyph */
    int16_t value;   /* font units */
} kern_pair;

typedef struct kern_table {
    int units_per_em;       /* from `head` */
    uint16_t *cmap;         /* glyph index of code points 0..ncmap-1 */
    int ncmap;
    kern_pair *pairs;       /* sorted by key */
    int npairs;
} kern_table;

/* Load from a font file; false (and an empty table) if it cannot be read. */
bool kern_load(kern_table *k, const char *path);
/* Load the first of the usual DejaVu Sans locations that exists. */
bool kern_load_dejavu(kern_table *k);
void kern_free(kern_table *k);
/* Kerning between code points a and b in font units (0 if none). */
int kern_between(const kern_table *k, uint32_t a, uint32_t b);

#endif
