/*
 * VTK XML PolyData output of the mesh writer (mesh.h): .vtp written by rank 0 with the
 * points merged over all ranks, and .pvtp as one piece per rank plus an index.
 *
 * Layout of a .vtp (VTK's XML file format, appended raw binary, version 1.0 with UInt64
 * block headers, native byte order declared): six arrays, each "<uint64 byte count><bytes>"
 * in the appended section in this order: Points (Float64 x3), PointData edge_id (UInt64),
 * Polys connectivity (Int64), Polys offsets (Int64, end of each polygon), CellData level
 * (Float64), CellData surface (Int32). Every byte count is known before writing (from the
 * reduced counts), so the XML header comes first and the data streams after it.
 *
 * The merged .vtp streams rank by rank: rank 0 writes its own part of an array, then
 * receives every other rank's part in turn (chunks of PV_MESH_CHUNK bytes, tag
 * PV_TAG_MESH_VTP) and writes it, then the next array. A rank sends the points it owns
 * (mesh_merge.c) and its polygons with global point numbers, offsets shifted by the
 * connectivity of the ranks below it. No rank holds more than its own mesh and a chunk.
 * A write failure on rank 0 keeps the messages flowing (data discarded) so nobody hangs.
 */
#include "io_int.h"
#include "mesh_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { A_POINTS, A_EDGE, A_CONN, A_OFF, A_LEVEL, A_SURF, A_COUNT };

static const size_t elem_bytes[A_COUNT] = {24, 8, 8, 8, 8, 4};

typedef struct vcounts {
    uint64_t points, conn, polys;
} vcounts;

static uint64_t array_bytes(const vcounts *c, int a)
{
    uint64_t n = a <= A_EDGE ? c->points : a == A_CONN ? c->conn : c->polys;
    return n * elem_bytes[a];
}

static const char *byte_order(void)
{
    uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b ? "LittleEndian" : "BigEndian";
}

char *pv_mesh_piece_path(const char *path, int rank)
{
    size_t n = strlen(path);
    /* drop ".pvtp" (a link's target may be named otherwise: then nothing is dropped) */
    int keep = pv_mesh_format_of(path) == PV_MESH_PVTP ? (int)(n - 5) : (int)n;
    return pv_asprintf("%.*s_%d.vtp", keep, path, rank);
}

static void put_header(FILE *f, const vcounts *c)
{
    uint64_t at[A_COUNT];
    uint64_t off = 0;
    for (int a = 0; a < A_COUNT; a++) {
        at[a] = off;
        off += 8 + array_bytes(c, a);
    }
    fprintf(f,
            "<?xml version=\"1.0\"?>\n"
            "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"%s\" "
            "header_type=\"UInt64\">\n"
            "  <PolyData>\n"
            "    <Piece NumberOfPoints=\"%llu\" NumberOfVerts=\"0\" NumberOfLines=\"0\" "
            "NumberOfStrips=\"0\" NumberOfPolys=\"%llu\">\n"
            "      <PointData>\n"
            "        <DataArray type=\"UInt64\" Name=\"edge_id\" format=\"appended\" "
            "offset=\"%llu\"/>\n"
            "      </PointData>\n"
            "      <CellData Scalars=\"level\">\n"
            "        <DataArray type=\"Float64\" Name=\"level\" format=\"appended\" "
            "offset=\"%llu\"/>\n"
            "        <DataArray type=\"Int32\" Name=\"surface\" format=\"appended\" "
            "offset=\"%llu\"/>\n"
            "      </CellData>\n"
            "      <Points>\n"
            "        <DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" "
            "format=\"appended\" offset=\"%llu\"/>\n"
            "      </Points>\n"
            "      <Polys>\n"
            "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"appended\" "
            "offset=\"%llu\"/>\n"
            "        <DataArray type=\"Int64\" Name=\"offsets\" format=\"appended\" "
            "offset=\"%llu\"/>\n"
            "      </Polys>\n"
            "    </Piece>\n"
            "  </PolyData>\n"
            "  <AppendedData encoding=\"raw\">\n"
            "   _",
            byte_order(), (unsigned long long)c->points, (unsigned long long)c->polys,
            (unsigned long long)at[A_EDGE], (unsigned long long)at[A_LEVEL],
            (unsigned long long)at[A_SURF], (unsigned long long)at[A_POINTS],
            (unsigned long long)at[A_CONN], (unsigned long long)at[A_OFF]);
}

static void put_footer(FILE *f) { fputs("\n  </AppendedData>\n</VTKFile>\n", f); }

/* Fill buf (cap bytes, a multiple of every element size) with this rank's next elements of
 * array a from *cursor on; returns the bytes filled (0 when the array is done). `global`:
 * only owned points, global point numbers, offsets plus conn_base. */
static size_t gen(const pv_mesh_writer *w, int a, bool global, int64_t conn_base, size_t *cursor,
                  char *buf, size_t cap)
{
    size_t len = 0, i = *cursor;
    size_t eb = elem_bytes[a];
    if (a == A_POINTS || a == A_EDGE) {
        for (; i < w->nvert && len + eb <= cap; i++) {
            if (global && !w->owned[i]) continue;
            memcpy(buf + len,
                   a == A_POINTS ? (const void *)(w->xyz + 3 * i) : (const void *)(w->vid + i), eb);
            len += eb;
        }
    } else if (a == A_CONN) {
        for (; i < w->nconn && len + eb <= cap; i++, len += eb) {
            int64_t v = global ? w->gidx[w->conn[i]] : w->conn[i];
            memcpy(buf + len, &v, eb);
        }
    } else {
        for (; i < w->npoly && len + eb <= cap; i++, len += eb) {
            if (a == A_OFF) {
                int64_t v = w->off[i] + (global ? conn_base : 0);
                memcpy(buf + len, &v, eb);
            } else if (a == A_LEVEL) {
                memcpy(buf + len, &w->level[i], eb);
            } else {
                memcpy(buf + len, &w->surf[i], eb);
            }
        }
    }
    *cursor = i;
    return len;
}

/* Write all of this rank's array a to f (a piece, or rank 0's own part of a .vtp). */
static bool put_local(FILE *f, const pv_mesh_writer *w, int a, bool global, char *buf)
{
    size_t cursor = 0, n;
    bool ok = true;
    while ((n = gen(w, a, global, 0, &cursor, buf, PV_MESH_CHUNK)) > 0)
        ok = fwrite(buf, 1, n, f) == n && ok;
    return ok;
}

/* One piece file: this rank's points and polygons as they are. */
static pv_status write_piece(pv_ctx *ctx, const pv_mesh_writer *w, const char *tmp,
                             const char *name, char *buf)
{
    FILE *f = pv_io_fopen_new(tmp, "wb");
    if (!f) return pv_err(ctx, PV_EIO, "cannot open '%s': %s", name, pv_io_strerror(errno));
    vcounts c = {w->nvert, w->nconn, w->npoly};
    put_header(f, &c);
    bool ok = true;
    for (int a = 0; a < A_COUNT; a++) {
        uint64_t nb = array_bytes(&c, a);
        ok = fwrite(&nb, sizeof nb, 1, f) == 1 && ok;
        ok = put_local(f, w, a, false, buf) && ok;
    }
    put_footer(f);
    ok = !ferror(f) && ok;
    if (fclose(f) != 0) ok = false;
    if (!ok) return pv_err(ctx, PV_EIO, "cannot write '%s': %s", name, pv_io_strerror(errno));
    return PV_OK;
}

/* The .pvtp index (rank 0). */
static pv_status write_index(pv_ctx *ctx, const pv_mesh_writer *w)
{
    FILE *f = pv_io_fopen_new(w->tmpname[1], "w");
    if (!f) return pv_err(ctx, PV_EIO, "cannot open '%s': %s", w->commit[1], pv_io_strerror(errno));
    fprintf(f,
            "<?xml version=\"1.0\"?>\n"
            "<VTKFile type=\"PPolyData\" version=\"1.0\" byte_order=\"%s\" "
            "header_type=\"UInt64\">\n"
            "  <PPolyData GhostLevel=\"0\">\n"
            "    <PPointData>\n"
            "      <PDataArray type=\"UInt64\" Name=\"edge_id\"/>\n"
            "    </PPointData>\n"
            "    <PCellData Scalars=\"level\">\n"
            "      <PDataArray type=\"Float64\" Name=\"level\"/>\n"
            "      <PDataArray type=\"Int32\" Name=\"surface\"/>\n"
            "    </PCellData>\n"
            "    <PPoints>\n"
            "      <PDataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\"/>\n"
            "    </PPoints>\n",
            byte_order());
    bool ok = true;
    for (int r = 0; r < ctx->nranks && ok; r++) {
        char *piece = pv_mesh_piece_path(w->commit[1], r); /* beside the index */
        if (!piece) {
            ok = false;
            break;
        }
        const char *slash = strrchr(piece, '/');
        fputs("    <Piece Source=\"", f);
        pv_io_put_xml(f, slash ? slash + 1 : piece); /* relative to the index's directory */
        fputs("\"/>\n", f);
        free(piece);
    }
    fputs("  </PPolyData>\n</VTKFile>\n", f);
    ok = !ferror(f) && ok;
    if (fclose(f) != 0) ok = false;
    if (!ok)
        return pv_err(ctx, PV_EIO, "cannot write '%s': %s", w->commit[1], pv_io_strerror(errno));
    return PV_OK;
}

static pv_status write_pvtp(pv_ctx *ctx, pv_mesh_writer *w, pv_mesh_counts *counts)
{
    char *buf = pv_alloc(ctx, PV_MESH_CHUNK);
    pv_status st = buf ? PV_OK : PV_ENOMEM;
    if (st == PV_OK) st = write_piece(ctx, w, w->tmpname[0], w->commit[0], buf);
    if (st == PV_OK && ctx->rank == 0) st = write_index(ctx, w);
    pv_free(ctx, buf, PV_MESH_CHUNK);
    uint64_t in[3] = {w->nvert, w->npoly, w->nconn}, sum[3] = {0, 0, 0};
    if (MPI_Allreduce(in, sum, 3, MPI_UINT64_T, MPI_SUM, ctx->comm) != MPI_SUCCESS && st == PV_OK)
        st = pv_err(ctx, PV_EMPI, "MPI_Allreduce failed in the mesh writer");
    *counts = (pv_mesh_counts){sum[0], sum[1], sum[2]};
    return st;
}

static pv_status write_vtp(pv_ctx *ctx, pv_mesh_writer *w, pv_mesh_counts *counts)
{
    uint64_t npoints = 0;
    pv_status st = pv_mesh_number(ctx, w, &npoints);
    if (st != PV_OK) return st;
    int P = ctx->nranks;
    uint64_t nown = 0;
    for (size_t v = 0; v < w->nvert; v++) nown += w->owned[v];
    uint64_t mine[3] = {nown, w->nconn, w->npoly}, sum[3] = {0, 0, 0};
    int64_t conn_base = 0, nconn = (int64_t)w->nconn;
    if (MPI_Allreduce(mine, sum, 3, MPI_UINT64_T, MPI_SUM, ctx->comm) != MPI_SUCCESS ||
        MPI_Exscan(&nconn, &conn_base, 1, MPI_INT64_T, MPI_SUM, ctx->comm) != MPI_SUCCESS)
        return pv_err(ctx, PV_EMPI, "MPI_Allreduce failed in the mesh writer");
    if (ctx->rank == 0) conn_base = 0;
    *counts = (pv_mesh_counts){sum[0], sum[2], sum[1]};

    /* ---- buffers, the per-rank counts and the file, agreed before streaming ---- */
    char *buf = pv_alloc(ctx, PV_MESH_CHUNK);
    uint64_t *all = ctx->rank == 0 ? calloc(3 * (size_t)P, sizeof *all) : NULL;
    FILE *f = NULL;
    if (!buf || (ctx->rank == 0 && !all)) st = pv_err(ctx, PV_ENOMEM, "out of memory");
    if (st == PV_OK && ctx->rank == 0 && !(f = pv_io_fopen_new(w->tmpname[0], "wb")))
        st = pv_err(ctx, PV_EIO, "cannot open '%s': %s", w->path, pv_io_strerror(errno));
    st = pv_status_agree(ctx, st);
    if (st == PV_OK &&
        MPI_Gather(mine, 3, MPI_UINT64_T, all, 3, MPI_UINT64_T, 0, ctx->comm) != MPI_SUCCESS)
        st = pv_status_agree(ctx, pv_err(ctx, PV_EMPI, "MPI_Gather failed in the mesh writer"));
    if (st != PV_OK) {
        if (f) fclose(f);
        pv_free(ctx, buf, PV_MESH_CHUNK);
        free(all);
        return st;
    }

    /* ---- stream: header, then each array rank by rank ---- */
    bool ok = true;
    vcounts c = {sum[0], sum[1], sum[2]};
    if (ctx->rank == 0) put_header(f, &c);
    for (int a = 0; a < A_COUNT; a++) {
        if (ctx->rank == 0) {
            uint64_t nb = array_bytes(&c, a);
            ok = fwrite(&nb, sizeof nb, 1, f) == 1 && ok;
            ok = put_local(f, w, a, true, buf) && ok;
            for (int r = 1; r < P; r++) {
                vcounts cr = {all[3 * r], all[3 * r + 1], all[3 * r + 2]};
                uint64_t want = array_bytes(&cr, a), got = 0;
                while (got < want) {
                    MPI_Status ms;
                    int n = 0;
                    if (MPI_Recv(buf, (int)PV_MESH_CHUNK, MPI_BYTE, r, PV_TAG_MESH_VTP, ctx->comm,
                                 &ms) != MPI_SUCCESS ||
                        MPI_Get_count(&ms, MPI_BYTE, &n) != MPI_SUCCESS || n <= 0) {
                        st = pv_err(ctx, PV_EMPI, "MPI_Recv failed in the mesh writer");
                        break;
                    }
                    ok = fwrite(buf, 1, (size_t)n, f) == (size_t)n && ok;
                    got += (uint64_t)n;
                }
            }
        } else {
            size_t cursor = 0, n;
            while ((n = gen(w, a, true, conn_base, &cursor, buf, PV_MESH_CHUNK)) > 0)
                if (MPI_Send(buf, (int)n, MPI_BYTE, 0, PV_TAG_MESH_VTP, ctx->comm) != MPI_SUCCESS) {
                    st = pv_err(ctx, PV_EMPI, "MPI_Send failed in the mesh writer");
                    break;
                }
        }
    }
    if (ctx->rank == 0) {
        put_footer(f);
        ok = !ferror(f) && ok;
        if (fclose(f) != 0) ok = false;
        if (!ok && st == PV_OK)
            st = pv_err(ctx, PV_EIO, "cannot write '%s': %s", w->path, pv_io_strerror(errno));
    }
    pv_free(ctx, buf, PV_MESH_CHUNK);
    free(all);
    return st;
}

pv_status pv_mesh_write_vtk(pv_ctx *ctx, pv_mesh_writer *w, pv_mesh_counts *counts)
{
    if (w->format == PV_MESH_PVTP) return write_pvtp(ctx, w, counts);
    return write_vtp(ctx, w, counts);
}
