/*
 * exec/datain.c: the bytes a command reads as data: a data file or the output of a shell
 * command ("< command", as gnuplot popen()s it), read by rank 0 a piece at a time and
 * broadcast piece by piece (pvox/instream.h), so neither rank 0 nor any other rank holds
 * the whole file; inline data '-' is the block the lexer kept. Also the gate every shell
 * feature passes (--no-shell).
 *
 * Why pieces are broadcast rather than rows parsed on rank 0 and sent: every rank already
 * evaluates the `using` specs of every row (or its share of them, DIFF-16) with the
 * interpreter it runs, and parsing is cheap next to that; sending the text keeps one
 * reader (datafile_read.c) for files, datablocks and inline data, and its results stay
 * bit-identical to reading the whole file.
 */
#include "exec_int.h"
#include "frames.h"

#include "pvox/instream.h"

#include <stdlib.h>
#include <string.h>

pv_status pv_exec_shell_gate(pv_interp *I, const pv_source *src, size_t off, const char *what)
{
    if (!I->ctx->opt.no_shell) return PV_OK;
    if (src)
        return pv_source_error(I->ctx, PV_ESCRIPT, src, off,
                               "%s: shell commands are disabled by --no-shell", what);
    return pv_err(I->ctx, PV_ESCRIPT, "%s: shell commands are disabled by --no-shell", what);
}

static pv_status locate_at(pv_interp *I, const pv_source *src, size_t off, pv_status st)
{
    if (st == PV_OK || st == PV_EEXIT || I->ctx->err_located || !I->ctx->err_msg || !src)
        return st;
    pv_err_locate(I->ctx, src->name, src->text, src->len, src->first_line, off);
    return st;
}

/* Open a file, or run "< command" (rank 0), for reading a piece at a time. */
static pv_instream *open_stream(pv_interp *I, const pv_source *src, size_t off,
                                const char *path, pv_status *st, bool *missing)
{
    bool command = path[0] == '<';
    *st = PV_OK;
    if (command) {
        *st = pv_exec_shell_gate(I, src, off, "\"< command\"");
        /* the command may read frames written so far, as with system() */
        if (*st == PV_OK) *st = pv_frames_settle(I, PV_OK);
        if (*st != PV_OK) return NULL;
    }
    pv_instream *s = pv_instream_open(I->ctx, command ? path + 1 : path, command, missing);
    if (!s) *st = locate_at(I, src, off, I->ctx->err_code != PV_OK ? I->ctx->err_code : PV_EIO);
    return s;
}

pv_status pv_exec_read_file(pv_interp *I, pv_cursor *c, size_t off, const char *path,
                            char **data, size_t *len)
{
    const pv_source *src = c->tl->src;
    if (path[0] != '<') {
        pv_status st = pv_read_file_bcast(I->ctx, path, data, len);
        return locate_at(I, src, off, st); /* the message is the same on every rank: agreed */
    }
    pv_status st;
    pv_instream *s = open_stream(I, src, off, path, &st, NULL);
    if (!s) return st;
    st = pv_instream_slurp(s, data, len);
    pv_instream_close(s);
    return locate_at(I, src, off, st);
}

pv_status pv_exec_input_open(pv_interp *I, pv_cursor *c, const pv_data_spec *ds,
                             pv_exec_input *in)
{
    memset(in, 0, sizeof *in);
    if (ds->kind != PV_DS_FILE) return PV_OK;
    if (ds->inline_data) return pv_exec_read_source(I, c, ds, &in->text, &in->len);
    pv_status st;
    in->stream = open_stream(I, c->tl->src, ds->name_off, ds->name, &st, &in->missing);
    return st;
}

void pv_exec_input_close(pv_exec_input *in)
{
    free(in->text);
    pv_instream_close(in->stream);
    memset(in, 0, sizeof *in);
}

typedef struct piece_reader {
    pv_instream *s;
    bool failed; /* the stream itself failed (a read error, or another rank's failure) */
} piece_reader;

static pv_status next_piece(void *ud, const char **data, size_t *n)
{
    piece_reader *r = ud;
    pv_status st = pv_instream_next(r->s, data, n);
    r->failed = st != PV_OK;
    return st;
}

pv_status pv_exec_data_pass(pv_interp *I, pv_exec_input *in, const pv_data_spec *ds,
                          const pv_data_opts *opts, const pv_sampling *samp, int ndefault,
                          bool batch, pv_data_event_fn fn, void *ud)
{
    if (!in || !in->stream)
        return pv_data_iterate_ex(I->env, ds, opts, in ? in->text : NULL, in ? in->len : 0,
                                  samp, ndefault, batch, fn, ud);
    piece_reader r = {in->stream, false};
    pv_data_reader rd = {next_piece, &r};
    pv_status st = pv_data_iterate_rd(I->env, ds, opts, &rd, samp, ndefault, batch, fn, ud);
    /* every rank ends the pass here, also one whose reader stopped early */
    pv_status rs = pv_instream_restart(in->stream, st);
    if (rs != PV_OK) st = rs, r.failed = true;
    return r.failed ? locate_at(I, ds->src, ds->name_off, st) : st;
}

pv_status pv_exec_data_rows(pv_interp *I, pv_exec_input *in, const pv_data_spec *ds,
                               const pv_sampling *samp, int ndefault, pv_row_fn fn, void *ud)
{
    pv_data_rows r = {fn, ud};
    return pv_exec_data_pass(I, in, ds, NULL, samp, ndefault, false, pv_data_rows_event, &r);
}
