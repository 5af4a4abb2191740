/*
 * Private to the frame layout (layout.c: 3D, layout2d.c: 2D `plot`): the display-list
 * helpers and the parts both layouts draw alike (key samples, `set label`s, arrows,
 * rectangles, the colour box).
 */
#ifndef PV_RENDER_LAYOUT_INT_H
#define PV_RENDER_LAYOUT_INT_H

#include "pvox/view.h"

/* A new item (NULL and f->failed when memory ran out). */
pv_fitem *pv_lay_item(pv_frame *f, pv_fitem_kind kind, pv_frame_layer layer);
void pv_lay_line(pv_frame *f, pv_frame_layer layer, int x1, int y1, int x2, int y2,
                 uint32_t argb, double lw);
void pv_lay_text(pv_frame *f, pv_frame_layer layer, int x, int y, const char *text,
                 pv_just just, uint32_t argb);
/* gnuplot's write_multiline ('\n' separated lines, v_char apart; vcentre: the block is
 * centred on y), optionally rotated by angle degrees. */
void pv_lay_multiline_rot(pv_frame *f, pv_frame_layer layer, int x, int y, const char *text,
                          pv_just just, bool vcentre, uint32_t argb, double angle);
void pv_lay_multiline(pv_frame *f, pv_frame_layer layer, int x, int y, const char *text,
                      pv_just just, bool vcentre, uint32_t argb);
/* Characters of a UTF-8 string (gnuplot's estimate_strlen for plain text). */
int pv_lay_text_len(const char *s);
/* A label offset in character units, as gnuplot rounds it, in terminal units. */
void pv_lay_label_offset(const pv_termdim *t, const double off[2], int *dx, int *dy);

/* The key's geometry (gnuplot's do_key_layout / do_3dkey_layout), terminal units. */
typedef struct pv_lay_key_geom {
    int count, rows, cols, max_len;
    int sample_width, entry_height, col_width;
    int sample_left, sample_right, text_left, text_right, size_left, size_right;
    int point_offset, width, height;
} pv_lay_key_geom;

/* One entry's sample with its text anchor at (xl, yl). */
void pv_lay_key_sample(pv_frame *f, const pv_frame_spec *s, const pv_lay_key_geom *k,
                       const pv_key_entry *e, int xl, int yl);

/* `set arrow`s, `set label`s of the front (or back) layer; `set object` rectangles of
 * layer -1 (behind), 0 (back) or 1 (front); the colour box. */
void pv_lay_arrows(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, bool front);
void pv_lay_labels(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v, bool front);
void pv_lay_rects(pv_frame *f, const pv_frame_spec *s, int layer);
void pv_lay_colorbox(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v);

/* The 2D `plot` frame (layout2d.c), called by pv_frame_build for a plot2d view. */
void pv_lay_build_2d(pv_frame *f, const pv_frame_spec *s, const pv_view3d *v);

/* Lay out a `noenhanced` text as written: f->enhanced off until restored to the value
 * returned. */
static inline bool pv_lay_noenh(pv_frame *f, bool noenhanced)
{
    bool was = f->enhanced;
    if (noenhanced) f->enhanced = false;
    return was;
}

/* pv_lay_multiline_rot of a text that may be `noenhanced` (printed as written). */
static inline void pv_lay_text_block(pv_frame *f, pv_frame_layer layer, int x, int y,
                                     const char *text, pv_just just, bool vcentre,
                                     uint32_t argb, double angle, bool noenhanced)
{
    bool was = pv_lay_noenh(f, noenhanced);
    pv_lay_multiline_rot(f, layer, x, y, text, just, vcentre, argb, angle);
    f->enhanced = was;
}

#endif
