#!/usr/bin/python3
"""Strict PNG checker for the test suites (standard library only: zlib, struct).

Lenient decoders (libpng, PIL) accept files that strict ones refuse: libpng only warns
about a wrong zlib checksum ("IDAT: incorrect data check"), PIL does not look at it.
check() refuses what any conforming decoder may refuse:

- the 8-byte signature; every chunk whole, its CRC-32 right, its type four ASCII letters;
- IHDR first, 13 bytes, a width and height in 1..2^31-1, a legal colour type / bit depth
  pair, compression 0, filter method 0, interlace 0 or 1;
- PLTE (before IDAT, a multiple of 3 bytes) present for colour type 3, absent for 0 and 4;
- the IDAT chunks consecutive; no unknown critical chunk; IEND last, empty, nothing after;
- the IDAT data one zlib stream that inflates without error (its Adler-32 checked), ends
  exactly at the end of the data (no trailing bytes), and holds exactly the image's bytes:
  height * (1 + rowbytes) (per pass when interlaced), every row's filter byte 0..4.

Use as a module (check(path) -> None, raises PngError; info(path) -> dict; the same on
bytes in memory: info_bytes(data); fault(path) -> None or a message) or as a command:
`pngcheck.py FILE...` prints "FILE: fault" for each bad file and exits 1 if any was bad,
0 otherwise (2 on a usage error).
"""
import struct
import sys
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# colour type -> (allowed bit depths, samples per pixel)
COLOUR_TYPES = {0: ((1, 2, 4, 8, 16), 1), 2: ((8, 16), 3), 3: ((1, 2, 4, 8), 1),
                4: ((8, 16), 2), 6: ((8, 16), 4)}
# Adam7 passes: (x0, y0, dx, dy)
ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4),
         (1, 0, 2, 2), (0, 1, 1, 2))
KNOWN_CRITICAL = (b"IHDR", b"PLTE", b"IDAT", b"IEND")


class PngError(Exception):
    """A fault in a PNG file; str() says which."""


def _rowbytes(width, bits_per_pixel):
    return (width * bits_per_pixel + 7) // 8


def _chunks(data):
    """Yield (type, body) of every chunk after the signature, checking lengths and CRCs."""
    at = len(SIGNATURE)
    index = 0
    while at < len(data):
        if at + 12 > len(data):
            raise PngError("truncated chunk header at byte %d" % at)
        length, ctype = struct.unpack(">I4s", data[at:at + 8])
        if length > 0x7FFFFFFF:
            raise PngError("chunk %d at byte %d: length %d over 2^31-1" % (index, at, length))
        if not all(65 <= c <= 90 or 97 <= c <= 122 for c in ctype):
            raise PngError("chunk %d at byte %d: bad type %r" % (index, at, ctype))
        end = at + 8 + length
        if end + 4 > len(data):
            raise PngError("chunk %s at byte %d: truncated (%d data bytes + CRC, %d left)"
                           % (ctype.decode("ascii"), at, length, len(data) - at - 8))
        body = data[at + 8:end]
        (crc,) = struct.unpack(">I", data[end:end + 4])
        want = zlib.crc32(ctype + body) & 0xFFFFFFFF
        if crc != want:
            raise PngError("chunk %s at byte %d: CRC 0x%08x, expected 0x%08x"
                           % (ctype.decode("ascii"), at, crc, want))
        yield ctype, body
        at = end + 4
        index += 1


def info(path):
    """Check the file strictly; return its header fields and inflated image bytes.

    Raises PngError (or OSError when the file cannot be read)."""
    with open(path, "rb") as f:
        return info_bytes(f.read())


def info_bytes(data):
    """info() of a PNG file's bytes."""
    if data[:8] != SIGNATURE:
        raise PngError("not a PNG signature")
    hdr = None
    idat = []
    idat_state = 0      # 0 before IDAT, 1 inside the run, 2 after it
    plte = False
    ended = False
    for ctype, body in _chunks(data):
        name = ctype.decode("ascii")
        if ended:
            raise PngError("chunk %s after IEND" % name)
        if hdr is None and ctype != b"IHDR":
            raise PngError("first chunk is %s, not IHDR" % name)
        if ctype == b"IHDR":
            if hdr is not None:
                raise PngError("second IHDR")
            if len(body) != 13:
                raise PngError("IHDR of %d bytes, not 13" % len(body))
            w, h, depth, ctyp, comp, filt, inter = struct.unpack(">IIBBBBB", body)
            if not (1 <= w <= 0x7FFFFFFF and 1 <= h <= 0x7FFFFFFF):
                raise PngError("IHDR: bad size %dx%d" % (w, h))
            if ctyp not in COLOUR_TYPES or depth not in COLOUR_TYPES[ctyp][0]:
                raise PngError("IHDR: bad colour type %d with bit depth %d" % (ctyp, depth))
            if comp != 0 or filt != 0 or inter not in (0, 1):
                raise PngError("IHDR: bad method (compression %d, filter %d, interlace %d)"
                               % (comp, filt, inter))
            hdr = dict(width=w, height=h, bit_depth=depth, colour_type=ctyp,
                       interlace=inter, channels=COLOUR_TYPES[ctyp][1])
        elif ctype == b"IDAT":
            if idat_state == 2:
                raise PngError("IDAT chunks not consecutive")
            idat_state = 1
            idat.append(body)
        elif ctype == b"IEND":
            if body:
                raise PngError("IEND with %d data bytes" % len(body))
            ended = True
        else:
            if idat_state == 1:
                idat_state = 2
            if ctype == b"PLTE":
                if plte or idat_state:
                    raise PngError("PLTE repeated or after IDAT")
                if len(body) == 0 or len(body) % 3 or len(body) > 768:
                    raise PngError("PLTE of %d bytes" % len(body))
                if hdr["colour_type"] in (0, 4):
                    raise PngError("PLTE in a greyscale image")
                plte = True
            elif not ctype[0] & 0x20 and ctype not in KNOWN_CRITICAL:
                raise PngError("unknown critical chunk %s" % name)
    if hdr is None:
        raise PngError("no IHDR")
    if not ended:
        raise PngError("no IEND (file truncated?)")
    if not idat:
        raise PngError("no IDAT")
    if hdr["colour_type"] == 3 and not plte:
        raise PngError("palette image without PLTE")
    stream = b"".join(idat)
    d = zlib.decompressobj()
    try:
        raw = d.decompress(stream)
        raw += d.flush()
    except zlib.error as e:
        raise PngError("IDAT zlib stream: %s" % e)
    if not d.eof:
        raise PngError("IDAT zlib stream does not end (truncated, %d bytes inflated)" % len(raw))
    if d.unused_data:
        raise PngError("%d bytes after the end of the IDAT zlib stream" % len(d.unused_data))
    bpp = hdr["bit_depth"] * hdr["channels"]
    w, h = hdr["width"], hdr["height"]
    if hdr["interlace"]:
        rows = []
        for x0, y0, dx, dy in ADAM7:
            pw, ph = (w - x0 + dx - 1) // dx, (h - y0 + dy - 1) // dy
            if pw > 0 and ph > 0:
                rows += [_rowbytes(pw, bpp)] * ph
    else:
        rows = [_rowbytes(w, bpp)] * h
    want = sum(rows) + len(rows)
    if len(raw) != want:
        raise PngError("IDAT holds %d bytes, expected %d (%d rows)" % (len(raw), want, len(rows)))
    at = 0
    for y, n in enumerate(rows):
        if raw[at] > 4:
            raise PngError("row %d: filter type %d" % (y, raw[at]))
        at += 1 + n
    hdr["raw"] = raw
    return hdr


def check(path):
    """Raise PngError (message without the file name) unless path is a valid PNG."""
    info(path)


def fault(path):
    """None for a valid PNG, else a message naming the file and the fault."""
    try:
        check(path)
    except (PngError, OSError) as e:
        return "%s: %s" % (path, e)
    return None


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        sys.stderr.write("usage: pngcheck.py FILE...\n")
        return 2
    bad = 0
    for path in argv:
        msg = fault(path)
        if msg:
            print(msg)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
