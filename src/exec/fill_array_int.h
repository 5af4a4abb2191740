/*
 * exec/fill_array_int.h: what the parts of the 3D array fill share (fill_array.c: boxes,
 * the fast path, the entry points; fill_array_brick.c: the binary brick reader;
 * fill_array_gen.c: the using specs and the general path). Not for other modules.
 */
#ifndef PV_EXEC_FILL_ARRAY_INT_H
#define PV_EXEC_FILL_ARRAY_INT_H

#include "fill_array.h"
#include "fillrun.h"

#include "pvox/datafile.h"

#include <math.h>
#include <string.h>

#define NCOLS_MAX PV_USING_MAX

/* ---- the binary brick reader (fill_array_brick.c) ------------------------------------ */

typedef struct brick {
    pv_ctx *ctx;
    int fd;
    char *path;
    int64_t fn[3];          /* sizes along the storage axes (fn[0] fastest) */
    size_t esize;           /* bytes of one element */
    int nf;
    pv_bin_type type[PV_BIN_FIELDS_MAX];
    size_t foff[PV_BIN_FIELDS_MAX]; /* byte offset of field f in an element */
    bool swap, middle;
    int64_t skip;
    unsigned char *raw;     /* one box's bytes (plain malloc: a read buffer, bounded) */
    size_t rawcap;
    /* for brick_read (the pv_array_src interface): the element layout */
    int64_t n[3];
    int scan[3];
    bool flip[3];
    double *tmp;            /* a box in storage order, before its permutation */
    size_t tmpcap;
} brick;

/* Open ds's brick on every rank and check its size; located, agreed errors. */
pv_status pv_brick_open(pv_interp *I, pv_cursor *c, const pv_data_spec *ds, pv_array_src *a);
/* The box lo..hi (storage axes) -> nf doubles per element in storage order (out NULL:
 * the raw bytes only, in b->raw). */
pv_status pv_brick_box(brick *b, const int64_t lo[3], const int64_t hi[3], double *out);
/* pv_array_src.read of a brick (element order); pv_array_src.close. */
pv_status pv_brick_read(void *ud, int64_t k0, int64_t k1, double *out);
void pv_brick_close(void *ud);

/* ---- boxes (fill_array.c) ------------------------------------------------------------ */

typedef struct arr {
    pv_ctx *ctx;
    pv_array_src *a;
    brick *b;              /* a binary brick: any box; NULL: a->read, whole planes */
    int64_t fn[3];         /* sizes along the storage axes */
    int zd;                /* the storage axis that is z */
    double center[3];      /* center= of a brick: coordinates are (i*d - shift) + center */
    double shift[3];
    bool centered;
    double *pbuf;          /* planes from a->read (element order), for a permutation */
    size_t pcap;
} arr;

/* A plan of boxes: ranges per storage axis, boxes along the slowest axes. */
typedef struct plan {
    int64_t lo[3], hi[3];  /* the region */
    int64_t per2;          /* slices of the slowest axis per box (>= 1) */
    int64_t per1;          /* rows per box when a box is one slice (0: whole slices) */
    int64_t nboxes;
} plan;

void pv_array_plan_make(const arr *A, int64_t zlo, int64_t zhi, size_t max_elems, plan *p);
void pv_array_plan_box(const plan *p, int64_t k, int64_t lo[3], int64_t hi[3]);
/* Read a box (storage axes) into out, nf doubles per element in storage order; through
 * a->read every rank calls it the same number of times (empty boxes: lo == hi). */
pv_status pv_array_fetch(arr *A, const int64_t lo[3], const int64_t hi[3], double *out);
typedef pv_status (*box_fn)(void *ud, const int64_t lo[3], const int64_t hi[3]);
/* Collective loop over a plan's boxes (see fill_array.c). */
pv_status pv_array_for_boxes(arr *A, const plan *p, double *buf, box_fn fn, void *ud);

/* Element index on axis `ax` of storage index f. */
static inline int64_t elem_index(const pv_array_src *a, int ax, int64_t f)
{
    return a->flip[ax] ? a->n[ax] - 1 - f : f;
}

static inline double coord(const arr *A, int ax, int64_t i)
{
    double d = A->a->delta[ax];
    if (A->centered) return ((double)i * d - A->shift[ax]) + A->center[ax];
    return A->a->origin[ax] + (double)i * d;
}

/* ---- the general path (fill_array_gen.c) --------------------------------------------- */

/* An expression that gives the same value for every element: no columns, no rand(). */
bool pv_array_constant_expr(const pv_using_entry *e);
pv_status pv_fill_array_general(pv_interp *I, pv_cursor *c, pv_grid *g, pv_data_spec *ds,
                                arr *A, pv_code *value, bool grid_units, size_t off);

#endif
