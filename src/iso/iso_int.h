/*
 * Private to module iso: the polygon lists the extractor walks, derived from the public case
 * table (table.c) once, for both tessellation modes.
 */
#ifndef PVOX_ISO_INT_H
#define PVOX_ISO_INT_H

#include "pvox/iso.h"

#include <stdbool.h>
#include <stdint.h>

/* The polygons one cell emits for one case in one mode, in emission order: `mixed` keeps a
 * 4-vertex loop as one quad (loop order) and triangulates the other loops; `triangles`
 * emits every loop's triangles. Triangles are in case-table order either way. */
typedef struct pv_iso_polys {
    uint16_t emask;                 /* bit e: edge e is crossed (carries a vertex) */
    uint8_t npolys;                 /* polygons, <= PV_ISO_MAX_POLYS */
    uint8_t ntris;                  /* triangles they make (a quad counts 2) */
    uint8_t nv[PV_ISO_MAX_POLYS];   /* 3 or 4 */
    uint8_t e[PV_ISO_MAX_POLYS][4]; /* edge numbers in winding order (a triangle repeats
                                           its third edge in slot 3) */
} pv_iso_polys;

/* 256 entries (index = case bits) for the given mode; built with the case table on first
 * use, thread-safe to read once returned. */
const pv_iso_polys *pv_iso_polys_table(bool mixed);

#endif /* PVOX_ISO_INT_H */
