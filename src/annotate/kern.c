/*
 * Pair kerning from a TrueType `kern` table (see kern.h). Reads only the table directory
 * and the `head`, `cmap` and `kern` tables (Apple/Microsoft TrueType reference: big-endian
 * records; cmap format 4 segments; kern version 0 with format 0 pair subtables).
 */
#include "kern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCMAP 0x10000

static unsigned be16(const unsigned char *p) { return (unsigned)p[0] << 8 | p[1]; }
static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Read `len` bytes at `off` into a new buffer (NULL on failure). */
static unsigned char *read_at(FILE *f, uint32_t off, uint32_t len)
{
    if (len == 0 || len > (1u << 26)) return NULL;
    unsigned char *b = malloc(len);
    if (!b) return NULL;
    if (fseek(f, (long)off, SEEK_SET) != 0 || fread(b, 1, len, f) != len) {
        free(b);
        return NULL;
    }
    return b;
}

static unsigned char *load_table(FILE *f, const unsigned char *dir, unsigned ntables,
                                 const char *tag, uint32_t *len)
{
    for (unsigned i = 0; i < ntables; i++) {
        const unsigned char *r = dir + 16 * i;
        if (memcmp(r, tag, 4) == 0) {
            *len = be32(r + 12);
            return read_at(f, be32(r + 8), *len);
        }
    }
    return NULL;
}

/* cmap format 4 (Windows Unicode BMP) -> dense glyph table. */
static bool parse_cmap(kern_table *k, const unsigned char *t, uint32_t len)
{
    if (len < 4) return false;
    unsigned n = be16(t + 2);
    for (unsigned i = 0; i < n && 4 + 8 * i + 8 <= len; i++) {
        const unsigned char *rec = t + 4 + 8 * i;
        uint32_t off = be32(rec + 4);
        if (be16(rec) != 3 || be16(rec + 2) != 1 || off + 14 > len || be16(t + off) != 4)
            continue;
        const unsigned char *s = t + off;
        unsigned segs = be16(s + 6) / 2;
        if (off + 16 + 8u * segs > len) return false;
        const unsigned char *ends = s + 14, *starts = ends + 2 * segs + 2;
        const unsigned char *deltas = starts + 2 * segs, *ranges = deltas + 2 * segs;
        k->cmap = calloc(NCMAP, sizeof *k->cmap);
        if (!k->cmap) return false;
        k->ncmap = NCMAP;
        for (unsigned g = 0; g < segs; g++) {
            unsigned end = be16(ends + 2 * g), start = be16(starts + 2 * g);
            unsigned delta = be16(deltas + 2 * g), ro = be16(ranges + 2 * g);
            for (unsigned c = start; c <= end && c < NCMAP; c++) {
                unsigned gid;
                if (ro == 0) {
                    gid = (c + delta) & 0xFFFF;
                } else {
                    size_t at = (size_t)(ranges + 2 * g - t) + ro + 2 * (c - start);
                    if (at + 2 > len) break;
                    gid = be16(t + at);
                    if (gid) gid = (gid + delta) & 0xFFFF;
                }
                k->cmap[c] = (uint16_t)gid;
            }
        }
        return true;
    }
    return false;
}

static int cmp_pair(const void *a, const void *b)
{
    uint32_t x = ((const kern_pair *)a)->key, y = ((const kern_pair *)b)->key;
    return x < y ? -1 : x > y;
}

/* kern version 0: horizontal format 0 subtables (pairs added up across subtables). */
static bool parse_kern(kern_table *k, const unsigned char *t, uint32_t len)
{
    if (len < 4 || be16(t) != 0) return false;
    unsigned n = be16(t + 2);
    uint32_t off = 4;
    size_t cap = 0;
    for (unsigned i = 0; i < n && off + 14 <= len; i++) {
        const unsigned char *s = t + off;
        unsigned coverage = be16(s + 4), npairs = be16(s + 6);
        uint32_t sublen = 14 + 6u * npairs; /* the 16-bit length field may overflow */
        if ((coverage >> 8) == 0 && (coverage & 0x7) == 1 && off + sublen <= len) {
            kern_pair *p = realloc(k->pairs, (cap + npairs) * sizeof *p);
            if (!p) return false;
            k->pairs = p;
            for (unsigned j = 0; j < npairs; j++) {
                const unsigned char *e = s + 14 + 6 * j;
                p[cap + j].key = (uint32_t)be16(e) << 16 | be16(e + 2);
                p[cap + j].value = (int16_t)be16(e + 4);
            }
            cap += npairs;
        }
        off += (coverage >> 8) == 0 ? sublen : be16(s + 2);
    }
    k->npairs = (int)cap;
    if (cap) qsort(k->pairs, cap, sizeof *k->pairs, cmp_pair);
    return true;
}

bool kern_load(kern_table *k, const char *path)
{
    memset(k, 0, sizeof *k);
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    unsigned char hdr[12];
    bool ok = false;
    unsigned char *dir = NULL, *head = NULL, *cmap = NULL, *kern = NULL;
    if (fread(hdr, 1, 12, f) == 12) {
        unsigned ntables = be16(hdr + 4);
        dir = read_at(f, 12, 16 * ntables);
        uint32_t lh = 0, lc = 0, lk = 0;
        if (dir) {
            head = load_table(f, dir, ntables, "head", &lh);
            cmap = load_table(f, dir, ntables, "cmap", &lc);
            kern = load_table(f, dir, ntables, "kern", &lk);
        }
        if (head && lh >= 20 && cmap && kern) {
            k->units_per_em = (int)be16(head + 18);
            ok = k->units_per_em > 0 && parse_cmap(k, cmap, lc) && parse_kern(k, kern, lk);
        }
    }
    free(dir);
    free(head);
    free(cmap);
    free(kern);
    fclose(f);
    if (!ok) kern_free(k);
    return ok;
}

bool kern_load_dejavu(kern_table *k)
{
    static const char *const paths[] = {
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", /* Debian, Ubuntu */
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",          /* Fedora, RHEL */
        "/usr/share/fonts/TTF/DejaVuSans.ttf",             /* Arch */
        "/usr/local/share/fonts/DejaVuSans.ttf",
    };
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (kern_load(k, paths[i])) return true;
    return false;
}

void kern_free(kern_table *k)
{
    free(k->cmap);
    free(k->pairs);
    memset(k, 0, sizeof *k);
}

int kern_between(const kern_table *k, uint32_t a, uint32_t b)
{
    if (!k->pairs || a >= (uint32_t)k->ncmap || b >= (uint32_t)k->ncmap) return 0;
    kern_pair key = {(uint32_t)k->cmap[a] << 16 | k->cmap[b], 0};
    const kern_pair *p = bsearch(&key, k->pairs, (size_t)k->npairs, sizeof key, cmp_pair);
    return p ? p->value : 0;
}
