/*
 * A strict PNG check for the io unit tests, on zlib alone (libpng only warns about a
 * wrong zlib checksum, "IDAT: incorrect data check", and reads the picture anyway).
 * The same rules as tests/pngcheck.py, for the files pvox writes (8-bit RGB or RGBA, not
 * interlaced): the signature; every chunk whole with its CRC-32 right; IHDR first and
 * sane; the IDAT chunks consecutive; IEND last and nothing after it; the IDAT data one
 * zlib stream that inflates to Z_STREAM_END without a data error (so its Adler-32 is
 * right), with no byte after its end, holding exactly height x (1 + rowbytes) bytes whose
 * row filter bytes are 0..4.
 *
 * png_strict_check(path, why, n) returns true for a good file, else false with the fault
 * in why. png_strict_check_mem does the same on bytes in memory; png_strict_read also
 * hands back the inflated image data (rows of a filter byte and the pixels; free it).
 */
#ifndef PV_TEST_PNG_STRICT_H
#define PV_TEST_PNG_STRICT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static inline uint32_t png_strict_be32(const unsigned char *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static inline bool png_strict_fail(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (why && n) vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return false;
}

/* Inflate the IDAT data (`idat`, n bytes) strictly; `raw_want` bytes expected, rows of
 * `rowbytes` + 1. */
static inline bool png_strict_inflate(const unsigned char *idat, size_t nidat, int height,
                                      size_t rowbytes, char *why, size_t n, unsigned char **keep)
{
    size_t raw_want = (size_t)height * (rowbytes + 1);
    unsigned char *raw = malloc(raw_want + 1); /* one byte more shows a stream too long */
    if (!raw) return png_strict_fail(why, n, "out of memory");
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit(&zs) != Z_OK) {
        free(raw);
        return png_strict_fail(why, n, "inflateInit failed");
    }
    zs.next_in = (Bytef *)idat;
    zs.avail_in = (uInt)nidat;
    zs.next_out = raw;
    zs.avail_out = (uInt)(raw_want + 1);
    int rc = inflate(&zs, Z_FINISH);
    bool ok = false;
    if (rc == Z_DATA_ERROR)
        png_strict_fail(why, n, "IDAT zlib stream: %s", zs.msg ? zs.msg : "data error");
    else if (rc != Z_STREAM_END)
        png_strict_fail(why, n, "IDAT zlib stream does not end (inflate %d, %lu bytes out)", rc,
                        (unsigned long)zs.total_out);
    else if (zs.avail_in != 0)
        png_strict_fail(why, n, "%u bytes after the end of the IDAT zlib stream", zs.avail_in);
    else if (zs.total_out != raw_want)
        png_strict_fail(why, n, "IDAT holds %lu bytes, expected %zu", (unsigned long)zs.total_out,
                        raw_want);
    else
        ok = true;
    for (int y = 0; ok && y < height; y++)
        if (raw[(size_t)y * (rowbytes + 1)] > 4)
            ok = png_strict_fail(why, n, "row %d: filter type %d", y,
                                 raw[(size_t)y * (rowbytes + 1)]);
    inflateEnd(&zs);
    if (ok && keep)
        *keep = raw;
    else
        free(raw);
    return ok;
}

static inline bool png_strict_mem(const unsigned char *f, size_t size, char *why, size_t n,
                                  unsigned char **raw)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (size < 8 || memcmp(f, sig, 8) != 0) return png_strict_fail(why, n, "no PNG signature");
    unsigned char *idat = malloc(size);
    if (!idat) return png_strict_fail(why, n, "out of memory");
    size_t nidat = 0;
    int width = 0, height = 0, channels = 0, state = 0; /* IDAT: 0 before, 1 in, 2 after */
    bool ihdr = false, iend = false, ok = true;
    for (size_t at = 8; ok && at < size;) {
        if (iend) {
            ok = png_strict_fail(why, n, "bytes after IEND at %zu", at);
            break;
        }
        if (size - at < 12) {
            ok = png_strict_fail(why, n, "truncated chunk at byte %zu", at);
            break;
        }
        uint32_t len = png_strict_be32(f + at);
        const unsigned char *type = f + at + 4, *body = f + at + 8;
        if (len > 0x7fffffffu || size - at - 12 < len) {
            ok = png_strict_fail(why, n, "chunk at byte %zu: length %u past the end", at, len);
            break;
        }
        uLong crc = crc32(crc32(0L, Z_NULL, 0), type, 4);
        if (len) crc = crc32(crc, body, len);
        if ((uint32_t)crc != png_strict_be32(body + len)) {
            ok = png_strict_fail(why, n, "chunk %.4s at byte %zu: bad CRC", (const char *)type, at);
            break;
        }
        if (!ihdr && memcmp(type, "IHDR", 4) != 0) {
            ok = png_strict_fail(why, n, "first chunk %.4s, not IHDR", (const char *)type);
        } else if (memcmp(type, "IHDR", 4) == 0) {
            if (ihdr || len != 13)
                ok = png_strict_fail(why, n, "IHDR repeated or of %u bytes", len);
            else {
                uint32_t w = png_strict_be32(body), h = png_strict_be32(body + 4);
                channels = body[9] == 2 ? 3 : body[9] == 6 ? 4 : 0;
                if (w == 0 || h == 0 || w > 0x7fffffffu || h > 0x7fffffffu || body[8] != 8 ||
                    !channels || body[10] || body[11] || body[12])
                    ok = png_strict_fail(why, n, "IHDR not an 8-bit RGB/RGBA %ux%u picture", w, h);
                width = (int)w, height = (int)h;
            }
            ihdr = true;
        } else if (memcmp(type, "IDAT", 4) == 0) {
            if (state == 2) ok = png_strict_fail(why, n, "IDAT chunks not consecutive");
            state = 1;
            memcpy(idat + nidat, body, len);
            nidat += len;
        } else if (memcmp(type, "IEND", 4) == 0) {
            if (len) ok = png_strict_fail(why, n, "IEND with data");
            iend = true;
        } else {
            if (state == 1) state = 2;
            if (!(type[0] & 0x20))
                ok = png_strict_fail(why, n, "unknown critical chunk %.4s", (const char *)type);
        }
        at += 12 + (size_t)len;
    }
    if (ok && !iend) ok = png_strict_fail(why, n, "no IEND");
    if (ok && !nidat) ok = png_strict_fail(why, n, "no IDAT");
    if (ok)
        ok = png_strict_inflate(idat, nidat, height, (size_t)width * (size_t)channels, why, n, raw);
    free(idat);
    return ok;
}

static inline bool png_strict_check_mem(const unsigned char *f, size_t size, char *why, size_t n)
{
    return png_strict_mem(f, size, why, n, NULL);
}

static inline bool png_strict_read(const char *path, char *why, size_t n, unsigned char **raw)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return png_strict_fail(why, n, "cannot open '%s'", path);
    unsigned char *buf = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            unsigned char *nb = realloc(buf, cap);
            if (!nb) break;
            buf = nb;
        }
        size_t got = fread(buf + size, 1, cap - size, fp);
        size += got;
        if (got == 0) break;
    }
    fclose(fp);
    bool ok = buf && png_strict_mem(buf, size, why, n, raw);
    if (!buf) png_strict_fail(why, n, "out of memory");
    free(buf);
    return ok;
}

static inline bool png_strict_check(const char *path, char *why, size_t n)
{
    return png_strict_read(path, why, n, NULL);
}

/* PV_CHECK_PNG(path): a PV_CHECK that prints the file's fault. */
#define PV_CHECK_PNG(path)                                                                         \
    do {                                                                                           \
        char why_[256] = "";                                                                       \
        bool ok_ = png_strict_check((path), why_, sizeof why_);                                    \
        if (!ok_)                                                                                  \
            fprintf(stderr, "%s:%d: strict PNG check of %s: %s\n", __FILE__, __LINE__, (path),     \
                    why_);                                                                         \
        PV_CHECK(ok_);                                                                             \
    } while (0)

#endif /* PV_TEST_PNG_STRICT_H */
