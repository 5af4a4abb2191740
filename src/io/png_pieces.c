/*
 * io/png_pieces.c: one PNG whose image data several ranks deflate, each its own pixels
 * (png.h, "one picture encoded in pieces").
 *
 * The image data of a non-interlaced, unfiltered PNG is a zlib stream over the rows, each
 * a filter byte 0 followed by its pixels. A piece of pixels [lo, hi) owns the bytes from
 * pixel lo (or from its row's filter byte when lo starts a row) to the same place of hi,
 * so the pieces of a picture cover the stream exactly. Each piece is raw deflate ended by
 * Z_SYNC_FLUSH (an empty stored block: byte-aligned, not final), the last by Z_FINISH;
 * concatenated after a zlib header they form one valid stream, whose checksum is the
 * pieces' Adler-32 values combined (adler32_combine, as pigz joins its blocks).
 */
#include "io_int.h"
#include "pvox/png.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* The image-data bytes of pixels [lo, hi): the pixels, and a filter byte for each row that
 * begins in the range (each multiple of width in [lo, hi)). */
static uint64_t raw_bytes(int width, int channels, uint64_t lo, uint64_t hi)
{
    if (lo >= hi) return 0;
    uint64_t w = (uint64_t)width, starts = (hi + w - 1) / w - (lo + w - 1) / w;
    return (hi - lo) * (uint64_t)channels + starts;
}

void pv_png_piece_free(pv_png_piece *p)
{
    free(p->data);
    memset(p, 0, sizeof *p);
}

/* Feed n bytes to the deflater and the checksum. The flush at the end feeds none: zlib's
 * adler32() returns the initial value 1 for a NULL buffer, whatever the checksum so far,
 * so it is called only on bytes. */
static int feed(z_stream *zs, pv_png_piece *out, const unsigned char *b, size_t n, int flush)
{
    if (n) out->adler = (uint32_t)adler32(out->adler, b, (uInt)n);
    out->raw_len += n;
    zs->next_in = (Bytef *)b;
    zs->avail_in = (uInt)n;
    int rc = deflate(zs, flush);
    return rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR ? 0 : -1;
}

pv_status pv_png_piece_deflate(pv_ctx *ctx, const uint8_t *pixels, size_t stride, int width,
                               int height, int channels, uint64_t lo, uint64_t hi, int level,
                               pv_png_piece *out)
{
    memset(out, 0, sizeof *out);
    uint64_t npix = (uint64_t)width * (uint64_t)height;
    if (width <= 0 || height <= 0 || (channels != 3 && channels != 4) || lo > hi || hi > npix)
        return pv_err(ctx, PV_ERANGE, "bad PNG piece [%llu, %llu) of %dx%d",
                      (unsigned long long)lo, (unsigned long long)hi, width, height);
    out->lo = lo, out->hi = hi;
    out->adler = (uint32_t)adler32(0L, Z_NULL, 0); /* 1, the checksum of no bytes */
    bool last = hi == npix && lo < hi; /* the piece that ends the picture */
    if (lo == hi) return PV_OK;         /* owns no byte */
    uint64_t raw = raw_bytes(width, channels, lo, hi);
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return pv_err(ctx, PV_ENOMEM, "out of memory (zlib)");
    size_t cap = (size_t)deflateBound(&zs, (uLong)raw) + 64;
    out->data = malloc(cap);
    if (!out->data) {
        deflateEnd(&zs);
        return pv_err(ctx, PV_ENOMEM, "out of memory");
    }
    zs.next_out = out->data;
    zs.avail_out = (uInt)cap;
    static const unsigned char filter_none = 0;
    int bad = 0;
    for (uint64_t p = lo; p < hi && !bad;) {
        uint64_t y = p / (uint64_t)width, x = p % (uint64_t)width;
        uint64_t end = hi < (y + 1) * (uint64_t)width ? hi : (y + 1) * (uint64_t)width;
        if (x == 0) bad = feed(&zs, out, &filter_none, 1, Z_NO_FLUSH);
        const unsigned char *row = pixels + (size_t)y * stride + (size_t)x * (size_t)channels;
        if (!bad) bad = feed(&zs, out, row, (size_t)(end - p) * (size_t)channels, Z_NO_FLUSH);
        p = end;
    }
    if (!bad) bad = feed(&zs, out, NULL, 0, last ? Z_FINISH : Z_SYNC_FLUSH);
    out->len = cap - zs.avail_out;
    deflateEnd(&zs);
    if (bad || zs.avail_in != 0) {
        pv_png_piece_free(out);
        return pv_err(ctx, PV_ENOMEM, "deflate failed on a PNG piece");
    }
    return PV_OK;
}

static void be32(unsigned char *b, uint32_t v)
{
    b[0] = (unsigned char)(v >> 24), b[1] = (unsigned char)(v >> 16);
    b[2] = (unsigned char)(v >> 8), b[3] = (unsigned char)v;
}

/* One chunk: length, type, data, CRC of type and data. The data may come in two parts. */
static bool put_chunk(FILE *f, const char *type, const unsigned char *a, size_t na,
                      const unsigned char *b, size_t nb)
{
    unsigned char h[8];
    be32(h, (uint32_t)(na + nb));
    memcpy(h + 4, type, 4);
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, h + 4, 4);
    if (na) crc = crc32(crc, a, (uInt)na);
    if (nb) crc = crc32(crc, b, (uInt)nb);
    unsigned char c[4];
    be32(c, (uint32_t)crc);
    return fwrite(h, 1, 8, f) == 8 && (!na || fwrite(a, 1, na, f) == na) &&
           (!nb || fwrite(b, 1, nb, f) == nb) && fwrite(c, 1, 4, f) == 4;
}

/* IDAT chunks of at most this many bytes (the PNG limit is 2^31 - 1). */
#define IDAT_MAX ((size_t)1 << 20)

static bool put_stream(FILE *f, int level, const pv_png_piece *pieces, int n)
{
    /* zlib header: deflate, 32 KiB window, FLEVEL as zlib sets it for the level */
    int flevel = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
    unsigned cmf = 0x78, flg = (unsigned)flevel << 6;
    flg += 31 - (cmf * 256 + flg) % 31;
    unsigned char head[2] = {(unsigned char)cmf, (unsigned char)flg}, tail[4];
    /* the checksum of the whole stream: the pieces' in order. An empty piece adds nothing
     * and its checksum is not used: a rank without pixels may send 0 there, and
     * combining 0 (the empty checksum is 1) would change the result. */
    uLong adler = adler32(0L, Z_NULL, 0);
    for (int k = 0; k < n; k++)
        if (pieces[k].raw_len)
            adler = adler32_combine(adler, pieces[k].adler, (z_off_t)pieces[k].raw_len);
    be32(tail, (uint32_t)adler);
    /* the header rides with the first chunk, the checksum with the last */
    bool ok = true, first = true;
    for (int k = 0; k < n && ok; k++)
        for (size_t at = 0; at < pieces[k].len && ok; at += IDAT_MAX) {
            size_t len = pieces[k].len - at < IDAT_MAX ? pieces[k].len - at : IDAT_MAX;
            ok = first ? put_chunk(f, "IDAT", head, 2, pieces[k].data + at, len)
                       : put_chunk(f, "IDAT", pieces[k].data + at, len, NULL, 0);
            first = false;
        }
    return ok && put_chunk(f, "IDAT", first ? head : tail, first ? 2 : 4,
                           first ? tail : NULL, first ? 4 : 0);
}

pv_status pv_png_write_pieces(pv_ctx *ctx, const char *path, int width, int height,
                              int channels, int level, const pv_png_piece *pieces, int n)
{
    if (width <= 0 || height <= 0 || (channels != 3 && channels != 4))
        return pv_err(ctx, PV_ERANGE, "cannot write '%s': bad image %dx%d with %d channels", path,
                      width, height, channels);
    /* the pieces must tile the picture in order, each with the image bytes of its pixels
     * (else the stream's length or checksum would be wrong) */
    uint64_t at = 0;
    bool tiled = true;
    for (int k = 0; k < n && tiled; k++) {
        const pv_png_piece *p = &pieces[k];
        if (p->lo == p->hi) {
            tiled = p->len == 0 && p->raw_len == 0;
            continue;
        }
        tiled = p->lo == at && p->lo < p->hi &&
                p->raw_len == raw_bytes(width, channels, p->lo, p->hi) && p->len > 0;
        at = p->hi;
    }
    if (!tiled || at != (uint64_t)width * (uint64_t)height)
        return pv_err(ctx, PV_ERANGE, "cannot write '%s': its pieces do not tile the picture",
                      path);
    pv_io_out out;
    if (!pv_io_out_open(&out, path, "wb"))
        return pv_err(ctx, PV_EIO, "cannot write '%s': %s", path, out.why);
    FILE *f = out.f;
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    unsigned char ihdr[13];
    be32(ihdr, (uint32_t)width);
    be32(ihdr + 4, (uint32_t)height);
    ihdr[8] = 8;                         /* bits per channel */
    ihdr[9] = channels == 4 ? 6 : 2;     /* RGBA / RGB */
    ihdr[10] = ihdr[11] = ihdr[12] = 0;  /* deflate, adaptive filtering, no interlace */
    bool ok = fwrite(sig, 1, 8, f) == 8 && put_chunk(f, "IHDR", ihdr, 13, NULL, 0) &&
              put_stream(f, level, pieces, n) && put_chunk(f, "IEND", NULL, 0, NULL, 0);
    int werr = pv_io_out_close(&out, ok ? 0 : errno ? errno : EIO);
    pv_status st = PV_OK;
    if (werr) st = pv_err(ctx, PV_EIO, "cannot write '%s': %s", path, pv_io_strerror(werr));
    return st;
}
