/*
 * libFuzzer target: a data file's bytes through the data-file reader (datafile.h), as a
 * `plot`/`splot`/`vfill` source reads them (tests/fuzz/README.md).
 *
 * Input layout: byte 0 picks the clauses after the source (`using`, `every`, `index`,
 * `skip`, `matrix`, `binary` options) from a table; past the table's end, the clauses are
 * the input's first line instead (at most 200 bytes), so the fuzzer writes its own. Byte 1
 * picks `set datafile` options (bits 0-2), the batch (vector) path (bit 3), 3 default
 * columns instead of 2 (bit 4), a text entry for labels (bit 5), share 1 of a split in
 * two (bit 6) and reading the file in pieces of 1 to 13 bytes, as exec passes rank 0's
 * broadcast pieces (bit 7). The rest is the file. Nothing is read from disk.
 */
#include "fuzz_common.h"

#include "pvox/datafile.h"

#include <math.h>
#include <string.h>

static const char *const clauses[] = {
    "",
    "using 1:2",
    "using 1:2:3",
    "using ($1*2):(column(2)):(stringcolumn(3))",
    "using 1:(valid(2)):($3+$1):0:-1:-2",
    "every 2 using 1:2",
    "every 2:2:1:0:5:3",
    "index 1",
    "index 0:2:1 using 2:1",
    "using \"a\":\"b\"",
    "skip 2 using 1:($2/$1):(column(\"c\"))",
    "matrix",
    "matrix using 1:2:3:0:(column(-1)):(column(-2))",
    "nonuniform matrix using 1:2:3",
    "matrix columnheaders rowheaders using 1:2:3",
    "matrix every 2:1 index 1",
    "binary",
    "binary using 1:2:3:0:(column(-1))",
    "binary array=(6,4) format='%uchar' using 1:2:3",
    "binary array=6x4 dx=0.5 origin=(3,4) format='%*uchar%uchar%*uchar' using 1",
    "binary array=(6,4) rotation=90d center=(2.5,1.5) format='%3uchar' using 1:2:3",
    "binary record=10 format='%uchar' using 0:1",
    "binary format='%float%*int16%double' using 1:2",
    "binary skip=14 format='%float%*int16%double' using 0:($1+$2)",
    "binary format='%int32%int16' endian=big using 1:2",
    "binary array=(6,4) flip=y format='%uchar%uchar%uchar' origin=(-10,-10,0) dx=0.25",
};
enum { NCLAUSES = sizeof clauses / sizeof *clauses, MAX_FREE_CLAUSE = 200 };

/* `set datafile` variants (byte 1, bits 0-2). */
static void set_options(pv_data_opts *o, unsigned bits)
{
    memset(o, 0, sizeof *o);
    switch (bits & 7u) {
    case 1: o->separator = ","; break;
    case 2:
        o->separator = "\t";
        o->missing = "?";
        break;
    case 3: o->missing = "NaN"; break;
    case 4: o->commentschars = "%!"; break;
    case 5: o->fortran = true; break;
    case 6:
        o->separator = ",;";
        o->missing = "";
        break;
    case 7:
        o->dummy[0] = "x";
        o->dummy[1] = "y";
        break;
    default: break;
    }
    o->text_entry = bits & 32u ? 1 : 0;
    if (bits & 64u) {
        o->split_size = 2;
        o->split_rank = 1;
    }
}

/* Touch everything a caller would read, so the sanitizers see a bad pointer. */
static pv_status on_event(void *ud, pv_data_event ev, const pv_data_point *pt)
{
    double *sum = ud;
    if (ev != PV_DATA_POINT) return PV_OK;
    for (int k = 0; k < pt->nvals; k++) {
        if (!isnan(pt->vals[k])) *sum += pt->vals[k];
        if (pt->strs && pt->strs[k]) *sum += (double)strlen(pt->strs[k]);
    }
    const pv_row *row = pt->row;
    for (int k = 0; row && k < row->ncols; k++) {
        if (row->str && row->str[k]) *sum += (double)strlen(row->str[k]);
        if (row->valid && row->valid[k] && !isnan(row->val[k])) *sum += row->val[k];
    }
    return PV_OK;
}

/* The file in small pieces (pv_data_reader), so lines are cut between them. */
typedef struct pieces {
    const char *data;
    size_t len, pos, step;
} pieces;

static pv_status next_piece(void *ud, const char **data, size_t *n)
{
    pieces *pc = ud;
    size_t left = pc->len - pc->pos;
    *n = left < pc->step ? left : pc->step;
    *data = pc->data + pc->pos;
    pc->pos += *n;
    return PV_OK;
}

static void iterate(pv_env *env, const pv_data_spec *ds, unsigned bits, const char *data,
                    size_t len)
{
    pv_data_opts o;
    set_options(&o, bits);
    static const pv_sampling samp = {5, 5, 4, 4, -1.0, 1.0, -2.0, 2.0};
    int ndefault = bits & 16u ? 3 : 2;
    bool batch = (bits & 8u) != 0;
    double sum = 0.0;
    if (bits & 128u) {
        pieces pc = {data, len, 0, 1 + len % 13};
        pv_data_reader rd = {next_piece, &pc};
        pv_data_iterate_rd(env, ds, &o, &rd, &samp, ndefault, batch, on_event, &sum);
    } else {
        pv_data_iterate_ex(env, ds, &o, data, len, &samp, ndefault, batch, on_event, &sum);
    }
}

/* Parse "'f' <clause>" in exec mode; iterate the data. */
static void read_data(pv_ctx *ctx, const char *clause, size_t clen, unsigned bits, const char *data,
                      size_t len)
{
    char spec[MAX_FREE_CLAUSE + 8] = "'f' ";
    memcpy(spec + 4, clause, clen);
    pv_source *src = pv_source_create(ctx, "fuzz.gp", spec, 4 + clen, 1);
    pv_env *env = src ? pv_env_create(ctx) : NULL;
    pv_toklist tl = {0};
    pv_data_spec ds;
    pv_data_spec_init(&ds);
    if (env && pv_lex(ctx, src, &tl) == PV_OK) {
        pv_cursor c = {ctx, &tl, 0, tl.ntok};
        if (pv_data_spec_parse(&c, env, true, &ds) == PV_OK) iterate(env, &ds, bits, data, len);
        pv_toklist_fini(&tl);
    }
    pv_data_spec_fini(&ds);
    pv_err_clear(ctx);
    pv_env_destroy(env);
    pv_source_destroy(src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    const char *text = (const char *)data + 2;
    size_t len = size - 2;
    const char *clause;
    size_t clen;
    if (data[0] < NCLAUSES) {
        clause = clauses[data[0]];
        clen = strlen(clause);
    } else {
        const char *eol = memchr(text, '\n', len < MAX_FREE_CLAUSE ? len : MAX_FREE_CLAUSE);
        if (!eol) return 0;
        clause = text;
        clen = (size_t)(eol - text);
        len -= clen + 1;
        text = eol + 1;
    }
    pv_ctx ctx;
    pv_fuzz_ctx_init(&ctx);
    read_data(&ctx, clause, clen, data[1], text, len);
    pv_fuzz_ctx_fini(&ctx);
    return 0;
}
