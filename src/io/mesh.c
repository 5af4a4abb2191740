/*
 * Mesh writer (mesh.h): the writer's life cycle, polygon storage and the text format.
 *
 * Text: each polygon becomes its vertex lines "x y z" and a blank line, formatted on the
 * rank that added it. Rank 0 emits its own lines at once (to "<path>.tmp.<random>" or the sink);
 * every other rank appends them to a spool file, unlinked at creation so nothing is left
 * behind, and at flush the spools travel to rank 0 one rank after the other in chunks of
 * PV_MESH_TEXT_CHUNK bytes (tag PV_TAG_MESH_TEXT): the output is in rank order and no rank
 * holds more than a chunk. With an every-rank sink each rank spools, and rank r's spool is
 * broadcast from r in turn, so all ranks see the same lines.
 *
 * VTK formats: polygons are stored (points merged by edge id through the hash of
 * mesh_hash.c, growable arrays through PV_GROW) and written at close by mesh_merge.c and
 * mesh_vtk.c.
 *
 * Files are written to "<name>.tmp.<random>" (io/tmpfile.c) and renamed once every rank has succeeded (ARCH-13);
 * the status is agreed at flush and close (STYLE-4).
 */
#include "io_int.h"
#include "mesh_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- small helpers --------------------------------------------------------------- */

pv_mesh_format pv_mesh_format_of(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    char tail[6] = {0};
    for (size_t k = 0; k < 5 && k < n; k++) {
        char c = path[n - 1 - k];
        tail[4 - k] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    if (n >= 5 && strcmp(tail, ".pvtp") == 0) return PV_MESH_PVTP;
    if (n >= 4 && strcmp(tail + 1, ".vtp") == 0) return PV_MESH_VTP;
    return PV_MESH_TEXT;
}

void pv_mesh_set_round_items(pv_mesh_writer *w, size_t items)
{
    w->round_items = items ? items : 1;
}

static pv_status fail(pv_mesh_writer *w, pv_status st)
{
    if (w->st == PV_OK) w->st = st;
    return w->st;
}

static char *tmp_name(const char *path) { return pv_io_temp_name(path); }

/* ---- open ------------------------------------------------------------------------ */

static pv_mesh_writer *writer_new(pv_ctx *ctx, pv_mesh_format format, const pv_mesh_geom *geom)
{
    pv_mesh_writer *w = calloc(1, sizeof *w);
    if (!w) {
        pv_err(ctx, PV_ENOMEM, "out of memory");
        return NULL;
    }
    w->format = format;
    w->geom = *geom;
    w->round_items = PV_MESH_ROUND_ITEMS;
    return w;
}

static void writer_free(pv_ctx *ctx, pv_mesh_writer *w)
{
    if (!w) return;
    if (w->out) fclose(w->out);
    if (w->spool) fclose(w->spool);
    for (int k = 0; k < 2; k++) {
        free(w->commit[k]);
        free(w->tmpname[k]);
    }
    free(w->path);
    pv_free(ctx, w->vid, w->capvid * sizeof *w->vid);
    pv_free(ctx, w->xyz, w->capxyz * sizeof *w->xyz);
    pv_free(ctx, w->conn, w->capconn * sizeof *w->conn);
    pv_free(ctx, w->off, w->capoff * sizeof *w->off);
    pv_free(ctx, w->level, w->caplevel * sizeof *w->level);
    pv_free(ctx, w->surf, w->capsurf * sizeof *w->surf);
    pv_free(ctx, w->gidx, w->nvert * sizeof *w->gidx);
    pv_free(ctx, w->owned, w->nvert * sizeof *w->owned);
    pv_mesh_hash_free(ctx, &w->local);
    free(w);
}

/* Record the file this rank writes in slot k (`name`, taken): the output rule decides
 * (pvox/outfile.h). A regular file or a new name (a link: the file it reaches) gets a
 * temporary renamed over it at the end; a stream (text only) is written in place, slot k
 * then has no temporary and *stream is set. */
static pv_status add_commit(pv_ctx *ctx, pv_mesh_writer *w, int k, char *name, bool *stream)
{
    if (!name) return pv_err(ctx, PV_ENOMEM, "out of memory");
    char *target = NULL;
    const char *why = NULL;
    bool text = w->format == PV_MESH_TEXT;
    pv_io_target t = pv_io_output_target(name, text, &target, &why);
    pv_status st = PV_OK;
    if (t == PV_IO_REFUSED) {
        st = pv_err(ctx, PV_EIO, "%s: %s%s", name, why,
                    strcmp(why, PV_IO_NOT_REGULAR) == 0
                        ? ": pvox writes meshes only to regular files"
                        : "");
        free(name);
    } else if (t == PV_IO_STREAM) {
        w->commit[k] = name;
        *stream = true;
    } else {
        free(name);
        w->commit[k] = target;
        if (!(w->tmpname[k] = tmp_name(target))) st = pv_err(ctx, PV_ENOMEM, "out of memory");
    }
    return st;
}

pv_mesh_writer *pv_mesh_open(pv_ctx *ctx, const char *path, const pv_mesh_geom *geom)
{
    pv_mesh_format fmt = pv_mesh_format_of(path);
    pv_mesh_writer *w = writer_new(ctx, fmt, geom);
    pv_status st = w ? PV_OK : PV_ENOMEM;
    if (st == PV_OK && !(w->path = strdup(path))) st = pv_err(ctx, PV_ENOMEM, "out of memory");
    bool stream = false;
    if (st == PV_OK && fmt == PV_MESH_TEXT && ctx->rank == 0) {
        st = add_commit(ctx, w, 0, strdup(path), &stream);
        if (st == PV_OK && !(w->out = stream ? pv_io_fopen_stream(path, "w")
                                             : pv_io_fopen_new(w->tmpname[0], "w")))
            st = pv_err(ctx, PV_EIO, "cannot open '%s': %s", path, pv_io_strerror(errno));
    } else if (st == PV_OK && fmt == PV_MESH_VTP && ctx->rank == 0) {
        st = add_commit(ctx, w, 0, strdup(path), &stream);
    } else if (st == PV_OK && fmt == PV_MESH_PVTP) {
        /* the index first: a refused index is reported by its own name */
        if (ctx->rank == 0) st = add_commit(ctx, w, 1, strdup(path), &stream);
        /* the pieces go beside the file the index replaces (a link's target), named after
         * it, so the index's relative names hold; every rank finds that name alike */
        char *base = NULL;
        const char *why = NULL;
        if (pv_io_output_target(path, false, &base, &why) != PV_IO_REPLACE) base = NULL;
        if (st == PV_OK)
            st = add_commit(ctx, w, 0, pv_mesh_piece_path(base ? base : path, ctx->rank), &stream);
        free(base);
    }
    if (pv_status_agree(ctx, st) != PV_OK) {
        if (w && w->out) {
            fclose(w->out);
            w->out = NULL;
            if (w->tmpname[0]) remove(w->tmpname[0]);
        }
        writer_free(ctx, w);
        return NULL;
    }
    return w;
}

pv_mesh_writer *pv_mesh_open_text(pv_ctx *ctx, const pv_mesh_sink *sink, const pv_mesh_geom *geom)
{
    pv_mesh_writer *w = writer_new(ctx, PV_MESH_TEXT, geom);
    pv_status st = w ? PV_OK : PV_ENOMEM;
    if (st == PV_OK && (!sink || !sink->line))
        st = pv_err(ctx, PV_EINTERNAL, "mesh text sink without a line function");
    if (st == PV_OK) {
        w->sink = *sink;
        w->has_sink = true;
    }
    if (pv_status_agree(ctx, st) != PV_OK) {
        writer_free(ctx, w);
        return NULL;
    }
    return w;
}

/* ---- text ------------------------------------------------------------------------ */

/* Does this rank hand its lines out at once (rank 0, not every-rank)? */
static bool emits_now(const pv_ctx *ctx, const pv_mesh_writer *w)
{
    return ctx->rank == 0 && !(w->has_sink && w->sink.every_rank);
}

static pv_status open_spool(pv_ctx *ctx, pv_mesh_writer *w)
{
    const char *dir = getenv("TMPDIR");
    char *tmpl = pv_asprintf("%s/pvox-mesh-XXXXXX", dir && *dir ? dir : "/tmp");
    if (!tmpl) return fail(w, pv_err(ctx, PV_ENOMEM, "out of memory"));
    int fd = mkstemp(tmpl);
    if (fd < 0) {
        pv_status st =
            pv_err(ctx, PV_EIO, "cannot create a spool file '%s': %s", tmpl, strerror(errno));
        free(tmpl);
        return fail(w, st);
    }
    unlink(tmpl); /* gone from the directory now; the data lives until fclose */
    free(tmpl);
    if (!(w->spool = fdopen(fd, "w+b"))) {
        close(fd);
        return fail(w, pv_err(ctx, PV_EIO, "cannot open a spool file: %s", strerror(errno)));
    }
    return PV_OK;
}

/* Hand complete lines of buf[0..n) to the sink; a partial last line waits in carry. */
static void sink_bytes(pv_mesh_writer *w, const char *buf, size_t n, char *carry, size_t *ncarry,
                       size_t capcarry)
{
    for (size_t k = 0; k < n; k++) {
        if (buf[k] != '\n') {
            if (*ncarry + 1 < capcarry) carry[(*ncarry)++] = buf[k];
            continue;
        }
        carry[*ncarry] = '\0';
        *ncarry = 0;
        if (w->st == PV_OK) {
            pv_status st = w->sink.line(w->sink.ud, carry);
            if (st != PV_OK) fail(w, st);
        }
    }
}

/* Emit text bytes on a rank that hands them out (rank 0, or any rank with every_rank). */
static void emit_bytes(pv_ctx *ctx, pv_mesh_writer *w, const char *buf, size_t n, char *carry,
                       size_t *ncarry, size_t capcarry)
{
    if (w->has_sink) {
        sink_bytes(w, buf, n, carry, ncarry, capcarry);
    } else if (w->out && w->st == PV_OK && fwrite(buf, 1, n, w->out) != n) {
        fail(w, pv_err(ctx, PV_EIO, "cannot write '%s': %s", w->path, pv_io_strerror(errno)));
    }
}

/* One coordinate of a text mesh: "%g" as gnuplot's tables print numbers where that reads
 * back as the same double, else the shortest of 15 to 17 digits that does. A vertex is
 * kept strictly inside its cell edge, at most PV_ISO_T_MIN of a cell from a node, so six
 * digits would put it back on the node, and surfaces that are apart would meet again
 * when points are merged by position. Returns the characters written (no NUL counted). */
static size_t put_coordinate(char *buf, size_t n, double x)
{
    int len = snprintf(buf, n, "%g", x);
    for (int digits = 15; digits <= 17 && strtod(buf, NULL) != x && x == x; digits++)
        len = snprintf(buf, n, "%.*g", digits, x);
    return len > 0 ? (size_t)len : 0;
}

static pv_status add_text(pv_ctx *ctx, pv_mesh_writer *w, int nv, const double *v)
{
    char buf[128 * 4];
    size_t len = 0;
    char carry[128];
    size_t ncarry = 0;
    bool now = emits_now(ctx, w);
    if (!now && !w->spool && open_spool(ctx, w) != PV_OK) return w->st;
    for (int k = 0; k <= nv; k++) {
        if (k < nv) {
            double x[3];
            for (int a = 0; a < 3; a++) x[a] = w->geom.min[a] + v[3 * k + a] * w->geom.delta[a];
            for (int a = 0; a < 3; a++) {
                len += put_coordinate(buf + len, sizeof buf - len, x[a]);
                buf[len++] = a < 2 ? ' ' : '\n';
            }
        } else {
            buf[len++] = '\n';
        }
        if (len + 128 > sizeof buf || k == nv) {
            if (now) {
                emit_bytes(ctx, w, buf, len, carry, &ncarry, sizeof carry);
            } else if (fwrite(buf, 1, len, w->spool) != len) {
                return fail(
                    w, pv_err(ctx, PV_EIO, "cannot write a spool file: %s", pv_io_strerror(errno)));
            } else {
                w->spooled += len;
            }
            len = 0;
        }
    }
    w->text_points += (uint64_t)nv;
    w->text_polys++;
    return w->st;
}

/* Send (or broadcast) this rank's spool: exactly `size` bytes, in chunks. A read failure
 * still sends the promised count (zeros) so the receivers are not left waiting. */
static void send_spool(pv_ctx *ctx, pv_mesh_writer *w, uint64_t size, bool bcast, char *buf,
                       char *carry, size_t *ncarry, size_t capcarry)
{
    if (w->spool && fseek(w->spool, 0, SEEK_SET) != 0)
        fail(w, pv_err(ctx, PV_EIO, "cannot read a spool file: %s", strerror(errno)));
    for (uint64_t done = 0; done < size;) {
        size_t n = size - done < PV_MESH_TEXT_CHUNK ? (size_t)(size - done) : PV_MESH_TEXT_CHUNK;
        size_t got = w->spool ? fread(buf, 1, n, w->spool) : 0;
        if (got < n) {
            memset(buf + got, 0, n - got);
            fail(w, pv_err(ctx, PV_EIO, "cannot read a spool file"));
        }
        if (bcast) {
            MPI_Bcast(buf, (int)n, MPI_BYTE, ctx->rank, ctx->comm);
            emit_bytes(ctx, w, buf, n, carry, ncarry, capcarry);
        } else if (MPI_Send(buf, (int)n, MPI_BYTE, 0, PV_TAG_MESH_TEXT, ctx->comm) != MPI_SUCCESS) {
            fail(w, pv_err(ctx, PV_EMPI, "MPI_Send failed in the mesh writer"));
        }
        done += n;
    }
}

static void reset_spool(pv_ctx *ctx, pv_mesh_writer *w)
{
    if (!w->spool) return;
    if (fseek(w->spool, 0, SEEK_SET) != 0 || ftruncate(fileno(w->spool), 0) != 0)
        fail(w, pv_err(ctx, PV_EIO, "cannot reuse a spool file: %s", strerror(errno)));
    w->spooled = 0;
}

static pv_status flush_text(pv_ctx *ctx, pv_mesh_writer *w)
{
    char buf[PV_MESH_TEXT_CHUNK];
    char carry[256];
    size_t ncarry = 0;
    if (w->spool && fflush(w->spool) != 0)
        fail(w, pv_err(ctx, PV_EIO, "cannot write a spool file: %s", pv_io_strerror(errno)));
    if (w->has_sink && w->sink.every_rank) {
        for (int r = 0; r < ctx->nranks; r++) {
            uint64_t size = w->spooled;
            MPI_Bcast(&size, 1, MPI_UINT64_T, r, ctx->comm);
            if (r == ctx->rank) {
                send_spool(ctx, w, size, true, buf, carry, &ncarry, sizeof carry);
                continue;
            }
            for (uint64_t done = 0; done < size;) {
                size_t n =
                    size - done < PV_MESH_TEXT_CHUNK ? (size_t)(size - done) : PV_MESH_TEXT_CHUNK;
                MPI_Bcast(buf, (int)n, MPI_BYTE, r, ctx->comm);
                emit_bytes(ctx, w, buf, n, carry, &ncarry, sizeof carry);
                done += n;
            }
        }
    } else {
        /* rank by rank: the size, then that many bytes in chunks (no table, no allocation) */
        for (int r = 1; r < ctx->nranks; r++) {
            if (ctx->rank == r) {
                uint64_t size = w->spooled;
                if (MPI_Send(&size, 1, MPI_UINT64_T, 0, PV_TAG_MESH_TEXT, ctx->comm) != MPI_SUCCESS)
                    fail(w, pv_err(ctx, PV_EMPI, "MPI_Send failed in the mesh writer"));
                else
                    send_spool(ctx, w, size, false, buf, carry, &ncarry, sizeof carry);
            } else if (ctx->rank == 0) {
                uint64_t size = 0;
                if (MPI_Recv(&size, 1, MPI_UINT64_T, r, PV_TAG_MESH_TEXT, ctx->comm,
                             MPI_STATUS_IGNORE) != MPI_SUCCESS)
                    fail(w, pv_err(ctx, PV_EMPI, "MPI_Recv failed in the mesh writer"));
                for (uint64_t done = 0; done < size;) {
                    size_t n = size - done < PV_MESH_TEXT_CHUNK ? (size_t)(size - done)
                                                                : PV_MESH_TEXT_CHUNK;
                    if (MPI_Recv(buf, (int)n, MPI_BYTE, r, PV_TAG_MESH_TEXT, ctx->comm,
                                 MPI_STATUS_IGNORE) != MPI_SUCCESS)
                        fail(w, pv_err(ctx, PV_EMPI, "MPI_Recv failed in the mesh writer"));
                    emit_bytes(ctx, w, buf, n, carry, &ncarry, sizeof carry);
                    done += n;
                }
            }
        }
    }
    reset_spool(ctx, w);
    w->st = pv_status_agree(ctx, w->st);
    return w->st;
}

/* ---- polygons for the VTK formats ---------------------------------------------------- */

static pv_status add_mesh(pv_ctx *ctx, pv_mesh_writer *w, int nv, const double *v,
                          const uint64_t *edge, double level, int32_t surface)
{
    size_t m = (size_t)nv;
    if (!PV_GROW(ctx, w->vid, w->capvid, w->nvert + m) ||
        !PV_GROW(ctx, w->xyz, w->capxyz, 3 * (w->nvert + m)) ||
        !PV_GROW(ctx, w->conn, w->capconn, w->nconn + m) ||
        !PV_GROW(ctx, w->off, w->capoff, w->npoly + 1) ||
        !PV_GROW(ctx, w->level, w->caplevel, w->npoly + 1) ||
        !PV_GROW(ctx, w->surf, w->capsurf, w->npoly + 1))
        return fail(w, ctx->err_code ? ctx->err_code : PV_ENOMEM);
    for (size_t k = 0; k < m; k++) {
        uint64_t id = edge ? edge[k] : PV_MESH_NO_EDGE;
        int64_t idx = -1;
        if (id != PV_MESH_NO_EDGE) {
            bool isnew;
            int64_t s = pv_mesh_hash_slot(ctx, &w->local, id, &isnew);
            if (s < 0) return fail(w, ctx->err_code ? ctx->err_code : PV_ENOMEM);
            if (!isnew)
                idx = w->local.val[2 * s];
            else
                w->local.val[2 * s] = (int64_t)w->nvert;
        }
        if (idx < 0) {
            idx = (int64_t)w->nvert;
            w->vid[w->nvert] = id;
            for (int a = 0; a < 3; a++)
                w->xyz[3 * w->nvert + (size_t)a] =
                    w->geom.min[a] + v[3 * k + (size_t)a] * w->geom.delta[a];
            w->nvert++;
        }
        w->conn[w->nconn++] = idx;
    }
    w->off[w->npoly] = (int64_t)w->nconn;
    w->level[w->npoly] = level;
    w->surf[w->npoly] = surface;
    w->npoly++;
    return PV_OK;
}

pv_status pv_mesh_add(pv_ctx *ctx, pv_mesh_writer *w, int nv, const double *v, const uint64_t *edge,
                      double level, int32_t surface)
{
    if (w->st != PV_OK) return w->st;
    if (nv < 3 || !v)
        return fail(w, pv_err(ctx, PV_EINTERNAL, "mesh polygon with %d vertices", nv));
    if (w->format == PV_MESH_TEXT) return add_text(ctx, w, nv, v);
    return add_mesh(ctx, w, nv, v, edge, level, surface);
}

/* ---- flush and close --------------------------------------------------------------- */

pv_status pv_mesh_flush(pv_ctx *ctx, pv_mesh_writer *w)
{
    if (w->format == PV_MESH_TEXT) return flush_text(ctx, w);
    w->st = pv_status_agree(ctx, w->st);
    return w->st;
}

/* Rename (ok) or remove (not ok) this rank's temporary files; returns this rank's status. */
static pv_status commit(pv_ctx *ctx, pv_mesh_writer *w, bool ok)
{
    pv_status st = PV_OK;
    for (int k = 0; k < 2; k++) {
        if (!w->tmpname[k]) continue;
        if (!ok) {
            remove(w->tmpname[k]);
        } else if (rename(w->tmpname[k], w->commit[k]) != 0) {
            st = pv_err(ctx, PV_EIO, "cannot rename '%s' to '%s': %s", w->tmpname[k], w->commit[k],
                        strerror(errno));
            remove(w->tmpname[k]);
        }
    }
    return st;
}

pv_status pv_mesh_close_counts(pv_ctx *ctx, pv_mesh_writer *w, pv_status st, pv_mesh_counts *counts)
{
    if (!w) return pv_status_agree(ctx, st);
    pv_mesh_counts c = {0, 0, 0};
    if (w->format == PV_MESH_TEXT) {
        pv_status fs = flush_text(ctx, w);
        if (st == PV_OK) st = fs;
        if (st == PV_OK && w->out) {
            FILE *f = w->out;
            w->out = NULL;
            if (fclose(f) != 0)
                st = pv_err(ctx, PV_EIO, "cannot write '%s': %s", w->path, pv_io_strerror(errno));
        }
        uint64_t in[2] = {w->text_points, w->text_polys}, sum[2] = {0, 0};
        MPI_Allreduce(in, sum, 2, MPI_UINT64_T, MPI_SUM, ctx->comm);
        c = (pv_mesh_counts){sum[0], sum[1], sum[0]};
    } else {
        if (st == PV_OK) st = w->st;
        st = pv_status_agree(ctx, st);
        if (st == PV_OK) st = pv_mesh_write_vtk(ctx, w, &c);
    }
    if (w->out) { /* not committed: close before removing */
        fclose(w->out);
        w->out = NULL;
    }
    st = pv_status_agree(ctx, st);
    pv_status cs = commit(ctx, w, st == PV_OK);
    if (st == PV_OK) st = pv_status_agree(ctx, cs);
    if (st == PV_OK && counts) *counts = c;
    writer_free(ctx, w);
    return st;
}

pv_status pv_mesh_close(pv_ctx *ctx, pv_mesh_writer *w, pv_status st)
{
    return pv_mesh_close_counts(ctx, w, st, NULL);
}
