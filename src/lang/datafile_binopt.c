/*
 * datafile_binopt.c: the keywords that follow `binary` in a data source, as gnuplot 5.4
 * reads them:
 *
 *     binary {array=(N{,M}) | array=NxM | record=N{xM}} {format="%type..."}
 *            {endian=default|swap|swab|little|big|middle|pdp} {skip=bytes}
 *            {dx=a} {dy=b} {flip=x|y|xy} {flipx{=0|1}} {flipy{=0|1}} {transpose}
 *            {scan=xy|yx} {origin=(x,y{,z})} {center=(x,y{,z})} {rotation=a{d|pi}}
 *            {perpendicular=(x,y,z)} {filetype=name}
 *
 * Several records (`array=128:64`, `dx=1:2`) are parsed; pvox keeps the first. Parsing
 * stops at the first other word; `using`, `every`, ... are then parsed by datafile.c.
 *
 * pvox also reads 3D arrays (DIFF-25; gnuplot 5.4 stops at a third size): `array=NxMxK`,
 * `array=(N,M,K)` or `record=NxMxK` (sizes along x, y, z), with `dz=`, `flipz`,
 * `flip=z` and `scan=` a permutation of xyz. dz= and flipz are refused for other data,
 * as gnuplot refuses them.
 */
#include "datafile_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>

static const char conflict_msg[] =
    "Conflict between some matrix binary and general binary keywords";

/* ---- numbers and tuples ----------------------------------------------------------- */

static pv_status real_arg(pv_cursor *c, pv_env *env, bool exec, double *out)
{
    pv_code *code = NULL;
    pv_status st = pv_parse_expr(c, &code);
    if (st == PV_OK && exec) st = pv_eval_real(env, code, out);
    pv_code_destroy(code);
    return st;
}

static pv_status expect_eq(pv_cursor *c)
{
    if (!pv_cur_accept_op(c, "=")) return pv_cur_error(c, PV_ESYNTAX, "Equal ('=') symbol required");
    return PV_OK;
}

/* `(a, b {, c})`: up to 3 numbers; *n their count. */
static pv_status tuple_arg(pv_cursor *c, pv_env *env, bool exec, double *t, int *n)
{
    *n = 0;
    if (!pv_cur_accept_op(c, "(")) return pv_cur_error(c, PV_ESYNTAX, "Invalid numeric or tuple form");
    for (;;) {
        double v = 0.0;
        if (*n == 3) return pv_cur_error(c, PV_ESYNTAX, "More than 3 elements");
        pv_status st = real_arg(c, env, exec, &v);
        if (st != PV_OK) return st;
        t[(*n)++] = v;
        if (pv_cur_accept_op(c, ")")) return PV_OK;
        if (!pv_cur_accept_op(c, ","))
            return pv_cur_error(c, PV_ESYNTAX, "Expecting ',' or ')'");
    }
}

/* Values for further records (`:v2:v3`) are parsed and dropped. */
static pv_status more_records_real(pv_cursor *c, pv_env *env)
{
    while (pv_cur_accept_op(c, ":")) {
        double v;
        pv_status st = real_arg(c, env, false, &v);
        if (st != PV_OK) return st;
    }
    return PV_OK;
}

/* ---- array / record ----------------------------------------------------------------- */

static pv_status int_expr(pv_cursor *c, pv_env *env, bool exec, int64_t *out)
{
    pv_code *code = NULL;
    pv_status st = pv_parse_expr(c, &code);
    if (st == PV_OK && exec) st = pv_eval_int(env, code, out);
    pv_code_destroy(code);
    return st;
}

/* The tail "xM" or "xMxK" of the old form 128x64(x32) (the lexer reads "x64x32" as a
 * name): the sizes into d[1], d[2]; false if the name is not of that form. */
static bool dims_tail(const char *s, int64_t d[3], int *nd)
{
    for (int k = 1; k < 3 && *s; k++) {
        if (s[0] != 'x' || !isdigit((unsigned char)s[1])) return false;
        char *end;
        d[k] = strtoll(s + 1, &end, 10);
        s = end;
        *nd = k + 1;
    }
    return *s == '\0';
}

/* `=N`, `=NxM{xK}`, `=(N{,M{,K}})`, `=Inf`-like negatives, records separated by ':'. */
static pv_status dims_arg(pv_cursor *c, pv_env *env, bool exec, pv_data_binary *b)
{
    pv_status st = expect_eq(c);
    for (int rec = 0; st == PV_OK; rec++) {
        int64_t d[3] = {0, 0, 0};
        int nd = 1; /* sizes given */
        if (pv_cur_accept_op(c, "(")) {
            st = int_expr(c, env, exec, &d[0]);
            for (int k = 1; k < 3 && st == PV_OK && pv_cur_accept_op(c, ","); k++, nd++)
                st = int_expr(c, env, exec, &d[k]);
            if (st == PV_OK && !pv_cur_accept_op(c, ")"))
                st = pv_cur_error(c, PV_ESYNTAX, "tuple syntax error");
        } else {
            st = int_expr(c, env, exec, &d[0]);
            const pv_token *t = pv_cur_peek(c);
            if (st == PV_OK && t->kind == PV_TK_NAME && t->sval[0] == 'x' &&
                isdigit((unsigned char)t->sval[1])) { /* the old form 128x64 */
                if (!dims_tail(t->sval, d, &nd))
                    return pv_cur_error(c, PV_ESYNTAX, "array sizes must be NxM or NxMxK");
                pv_cur_next(c);
            }
        }
        if (st == PV_OK && nd == 3 && (d[0] <= 0 || d[1] <= 0 || d[2] <= 0) && exec)
            return pv_cur_error(c, PV_ESCRIPT, "the sizes of a 3D array must be positive");
        if (st == PV_OK && rec == 0)
            b->dim[0] = d[0], b->dim[1] = d[1], b->dim[2] = d[2], b->ndims = nd;
        if (st != PV_OK || !pv_cur_accept_op(c, ":")) break;
    }
    return st;
}

/* ---- format ----------------------------------------------------------------------- */

typedef struct type_name {
    const char *name;
    pv_bin_type type;
} type_name;

/* Longer names first where one is a prefix of another (the name must be followed by
 * '%', a space or the end). */
static const type_name type_names[] = {
    {"char", PV_BIN_CHAR}, {"schar", PV_BIN_CHAR}, {"c", PV_BIN_CHAR},
    {"uchar", PV_BIN_UCHAR},
    {"short", PV_BIN_SHORT}, {"ushort", PV_BIN_USHORT},
    {"int", PV_BIN_INT}, {"sint", PV_BIN_INT}, {"i", PV_BIN_INT}, {"d", PV_BIN_INT},
    {"uint", PV_BIN_UINT}, {"u", PV_BIN_UINT},
    {"long", PV_BIN_LONG}, {"ld", PV_BIN_LONG}, {"ulong", PV_BIN_ULONG}, {"lu", PV_BIN_ULONG},
    {"longlong", PV_BIN_LONGLONG}, {"ulonglong", PV_BIN_ULONGLONG},
    {"float", PV_BIN_FLOAT}, {"f", PV_BIN_FLOAT},
    {"double", PV_BIN_DOUBLE}, {"lf", PV_BIN_DOUBLE},
    {"int8", PV_BIN_CHAR}, {"byte", PV_BIN_CHAR}, {"uint8", PV_BIN_UCHAR},
    {"ubyte", PV_BIN_UCHAR}, {"int16", PV_BIN_SHORT}, {"uint16", PV_BIN_USHORT},
    {"int32", PV_BIN_INT}, {"uint32", PV_BIN_UINT}, {"int64", PV_BIN_LONGLONG},
    {"uint64", PV_BIN_ULONGLONG}, {"float32", PV_BIN_FLOAT}, {"float64", PV_BIN_DOUBLE},
};

/* The type name at s (followed by '%', a space or the end): its table entry or NULL. */
static const type_name *match_type(const char *s, size_t *len)
{
    for (size_t k = 0; k < sizeof type_names / sizeof type_names[0]; k++) {
        size_t n = strlen(type_names[k].name);
        if (strncmp(s, type_names[k].name, n) == 0 && (s[n] == '\0' || s[n] == '%' || s[n] == ' ')) {
            *len = n;
            return &type_names[k];
        }
    }
    return NULL;
}

static pv_status parse_format(pv_cursor *c, size_t off, const char *fmt, pv_data_binary *b)
{
    b->nfields = 0;
    memset(b->skip_before, 0, sizeof b->skip_before);
    const char *s = fmt;
    while (*s) {
        if (*s == ' ') {
            s++;
            continue;
        }
        if (*s != '%')
            return pv_source_error(c->ctx, PV_ESYNTAX, c->tl->src, off,
                                   "Format specifier must begin with '%%'");
        s++;
        bool ignore = *s == '*';
        if (ignore) s++;
        long repeat = 1;
        if (isdigit((unsigned char)*s)) repeat = strtol(s, (char **)&s, 10);
        size_t n = 0;
        const type_name *tn = match_type(s, &n);
        if (!tn)
            return pv_source_error(c->ctx, PV_ESYNTAX, c->tl->src, off,
                                   "Unrecognized binary format specification");
        s += n;
        for (long r = 0; r < repeat; r++) {
            if (ignore) {
                b->skip_before[b->nfields] += (int64_t)pv_bin_type_size(tn->type);
            } else {
                if (b->nfields == PV_BIN_FIELDS_MAX)
                    return pv_source_error(c->ctx, PV_ESYNTAX, c->tl->src, off,
                                           "too many binary fields (at most %d)", PV_BIN_FIELDS_MAX);
                b->type[b->nfields++] = (unsigned char)tn->type;
            }
        }
    }
    return PV_OK;
}

static pv_status format_arg(pv_cursor *c, pv_env *env, bool exec, pv_data_binary *b)
{
    pv_status st = expect_eq(c);
    if (st != PV_OK) return st;
    size_t off = pv_cur_offset(c);
    const pv_token *t = pv_cur_peek(c);
    if (t->kind == PV_TK_STRING) { /* checked even when only checking the script */
        pv_cur_next(c);
        return parse_format(c, off, t->sval, b);
    }
    pv_code *code = NULL;
    if ((st = pv_parse_expr(c, &code)) != PV_OK) return st;
    char *fmt = NULL;
    if (exec) st = pv_eval_string(env, code, &fmt);
    pv_code_destroy(code);
    if (st == PV_OK && fmt) st = parse_format(c, off, fmt, b);
    free(fmt);
    return st;
}

/* ---- the other keywords ------------------------------------------------------------- */

static pv_status flip_list_arg(pv_cursor *c, pv_data_binary *b)
{
    pv_status st = expect_eq(c);
    for (int rec = 0; st == PV_OK; rec++) {
        const pv_token *t = pv_cur_peek(c);
        if (t->kind != PV_TK_NAME || strspn(t->sval, "xXyYzZ") != strlen(t->sval))
            return pv_cur_error(c, PV_ESYNTAX, "Can only flip x, y, and/or z");
        if (rec == 0) {
            if (strpbrk(t->sval, "xX")) b->flip[0] = true;
            if (strpbrk(t->sval, "yY")) b->flip[1] = true;
            if (strpbrk(t->sval, "zZ")) b->flip[2] = true;
        }
        pv_cur_next(c);
        if (!pv_cur_accept_op(c, ":")) break;
    }
    return st;
}

/* flipx / flipy, optionally `=0|1`. */
static pv_status flip_axis_arg(pv_cursor *c, pv_env *env, bool exec, pv_data_binary *b, int k)
{
    if (!pv_cur_accept_op(c, "=")) {
        b->flip[k] = true;
        return PV_OK;
    }
    double v = 1.0;
    pv_status st = real_arg(c, env, exec, &v);
    if (st != PV_OK) return st;
    if (exec && v != 0.0 && v != 1.0)
        return pv_cur_error(c, PV_ESCRIPT, "Flipping dimension direction must be 1 or 0");
    b->flip[k] = v != 0.0;
    return more_records_real(c, env);
}

static pv_status delta_arg(pv_cursor *c, pv_env *env, bool exec, pv_data_binary *b, int k,
                           bool both)
{
    double v = 1.0;
    pv_status st = expect_eq(c);
    if (st == PV_OK) st = real_arg(c, env, exec, &v);
    if (st != PV_OK) return st;
    if (exec && !(v > 0.0))
        return pv_cur_error(c, PV_ESCRIPT,
                            "Sample period must be positive. Try `flip` for changing direction");
    b->delta[k] = v, b->has_delta[k] = true;
    if (both && !b->has_delta[1]) b->delta[1] = v, b->has_delta[1] = true; /* dx sets dy */
    if (both && !b->has_delta[2]) b->delta[2] = v; /* ... and a 3D array's dz */
    return more_records_real(c, env);
}

static pv_status point_arg(pv_cursor *c, pv_env *env, bool exec, pv_data_binary *b, int trans)
{
    if (b->trans && b->trans != trans)
        return pv_cur_error(c, PV_ESYNTAX, "Can specify `origin` or `center`, but not both");
    pv_status st = expect_eq(c);
    for (int rec = 0; st == PV_OK; rec++) {
        double t[3] = {0.0, 0.0, 0.0};
        int n = 0;
        st = tuple_arg(c, env, exec, t, &n);
        if (st == PV_OK && n < 2)
            st = pv_cur_error(c, PV_ESYNTAX, "Two-dimensional tuple required for 2D plot");
        if (st == PV_OK && rec == 0) {
            b->trans = trans;
            memcpy(b->trans_pt, t, sizeof t);
        }
        if (st != PV_OK || !pv_cur_accept_op(c, ":")) break;
    }
    return st;
}

static pv_status rotation_arg(pv_cursor *c, pv_env *env, bool exec, pv_data_binary *b)
{
    pv_status st = expect_eq(c);
    for (int rec = 0; st == PV_OK; rec++) {
        double v = 0.0;
        st = real_arg(c, env, exec, &v);
        if (st != PV_OK) break;
        if (pv_cur_accept_word(c, "pi")) v *= 3.14159265358979323846;
        else if (pv_cur_accept_word(c, "d$egrees")) v *= 3.14159265358979323846 / 180.0;
        if (rec == 0) b->rotation = v;
        if (!pv_cur_accept_op(c, ":")) break;
    }
    return st;
}

static pv_status endian_arg(pv_cursor *c, pv_data_binary *b)
{
    pv_status st = expect_eq(c);
    if (st != PV_OK) return st;
    if (pv_cur_accept_word(c, "def$ault")) b->endian = PV_ENDIAN_DEFAULT;
    else if (pv_cur_accept_word(c, "swap") || pv_cur_accept_word(c, "swab")) b->endian = PV_ENDIAN_SWAP;
    else if (pv_cur_accept_word(c, "lit$tle")) b->endian = PV_ENDIAN_LITTLE;
    else if (pv_cur_accept_word(c, "big")) b->endian = PV_ENDIAN_BIG;
    else if (pv_cur_accept_word(c, "mid$dle") || pv_cur_accept_word(c, "pdp")) b->endian = PV_ENDIAN_MIDDLE;
    else return pv_cur_error(c, PV_ESYNTAX, "Options are default, swap (swab), little, big, middle (pdp)");
    return PV_OK;
}

static pv_status filetype_arg(pv_cursor *c, pv_data_binary *b)
{
    static const char *const types[] = {"avs", "bin", "edf", "ehf", "gif", "gpbin", "jpeg",
                                        "jpg", "png", "raw", "rgb", "auto"};
    pv_status st = expect_eq(c);
    if (st != PV_OK) return st;
    const pv_token *t = pv_cur_peek(c);
    if (t->kind == PV_TK_NAME)
        for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
            if (strcasecmp(t->sval, types[k]) == 0) {
                snprintf(b->filetype, sizeof b->filetype, "%s", types[k]);
                pv_cur_next(c);
                return PV_OK;
            }
    return pv_cur_error(c, PV_ESYNTAX, "Unrecognized filetype; try \"show datafile binary filetypes\"");
}

static pv_status scan_arg(pv_cursor *c, pv_data_binary *b)
{
    pv_status st = expect_eq(c);
    if (st != PV_OK) return st;
    const pv_token *t = pv_cur_peek(c);
    if (t->kind != PV_TK_NAME || strspn(t->sval, "xyzt") != strlen(t->sval) ||
        strlen(t->sval) < 2 || strlen(t->sval) > 3)
        return pv_cur_error(c, PV_ESYNTAX, "Improper scanning string. Try 2 character string for 2D data");
    b->transpose = t->sval[0] == 'y' || t->sval[0] == 't';
    snprintf(b->scan, sizeof b->scan, "%s", t->sval);
    pv_cur_next(c);
    return PV_OK;
}

/* The keyword table: index into the switch of one_option. */
static const char *const keywords[] = {
    "rec$ord", "arr$ay", "dx", "dt", "dy", "dr", "dz", "flipx", "flipy", "flipz", "flip",
    "noflip", "scan", "trans$pose", "orig$in", "cen$ter", "rot$ation", "rot$ate",
    "perp$endicular", "skip", "end$ian", "form$at", "file$type",
};

static int keyword_at(const pv_cursor *c)
{
    for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
        if (pv_cur_is_word(c, keywords[k])) return (int)k;
    return -1;
}

static pv_status one_option(pv_cursor *c, pv_env *env, bool exec, pv_data_spec *ds, int kw)
{
    pv_data_binary *b = &ds->bin;
    double skipv = 0.0, tmp[3];
    int n = 0;
    pv_status st;
    bool general = kw <= 1 || kw == 21 || kw == 22; /* record, array, format, filetype */
    if (general && ds->matrix != PV_MATRIX_NONE && !b->general && ds->matrix_explicit)
        return pv_cur_error(c, PV_ESYNTAX, conflict_msg);
    pv_cur_next(c);
    if (general) b->general = true;
    switch (kw) {
    case 0: return dims_arg(c, env, exec, b);
    case 1:
        b->generate = true;
        return dims_arg(c, env, exec, b);
    case 2: case 3: return delta_arg(c, env, exec, b, 0, true);
    case 4: case 5: return delta_arg(c, env, exec, b, 1, false);
    case 6: return delta_arg(c, env, exec, b, 2, false);
    case 7: return flip_axis_arg(c, env, exec, b, 0);
    case 8: return flip_axis_arg(c, env, exec, b, 1);
    case 9: return flip_axis_arg(c, env, exec, b, 2);
    case 10: return flip_list_arg(c, b);
    case 11: { /* noflip=x: clear those flips */
        pv_data_binary t = *b;
        t.flip[0] = t.flip[1] = t.flip[2] = false;
        st = flip_list_arg(c, &t);
        for (int k = 0; k < 3; k++)
            if (t.flip[k]) b->flip[k] = false;
        return st;
    }
    case 12: return scan_arg(c, b);
    case 13: b->transpose = true; return PV_OK;
    case 14: return point_arg(c, env, exec, b, 1);
    case 15: return point_arg(c, env, exec, b, 2);
    case 16: case 17: return rotation_arg(c, env, exec, b);
    case 18:
        if ((st = expect_eq(c)) == PV_OK) st = tuple_arg(c, env, exec, tmp, &n);
        return st;
    case 19:
        if ((st = expect_eq(c)) == PV_OK) st = real_arg(c, env, exec, &skipv);
        if (st == PV_OK && exec && (skipv < 0.0 || skipv != floor(skipv)))
            return pv_cur_error(c, PV_ESCRIPT, "Number of bytes to skip must be positive integer");
        b->skip = (int64_t)skipv;
        return st == PV_OK ? more_records_real(c, env) : st;
    case 20: return endian_arg(c, b);
    case 21: return format_arg(c, env, exec, b);
    case 22: return filetype_arg(c, b);
    default: break;
    }
    return PV_OK;
}

/* After the options: the third dimension's keywords need a 3D array (gnuplot 5.4 refuses
 * dz= and flipz always; pvox takes them for 3D arrays), and a 3D array takes no 2D-only
 * transform. */
static pv_status check_3d(pv_cursor *c, const pv_data_binary *b)
{
    if (b->ndims != 3) {
        if (b->has_delta[2] || b->flip[2])
            return pv_cur_error(c, PV_ESYNTAX, "Currently not supporting three-dimensional sampling");
        return PV_OK;
    }
    if (b->scan[0] && (strlen(b->scan) != 3 || !strchr(b->scan, 'x') || !strchr(b->scan, 'y') ||
                       !strchr(b->scan, 'z')))
        return pv_cur_error(c, PV_ESYNTAX, "scan= of a 3D array must be a permutation of xyz");
    if (b->rotation != 0.0)
        return pv_cur_error(c, PV_ESYNTAX, "rotation= is not supported for a 3D array");
    if (b->transpose && !b->scan[0])
        return pv_cur_error(c, PV_ESYNTAX, "transpose is not supported for a 3D array: use scan=");
    return PV_OK;
}

pv_status pv_df_binary_opts_parse(pv_cursor *c, pv_env *env, bool exec, pv_data_spec *ds)
{
    bool seen[sizeof keywords / sizeof keywords[0]] = {false};
    for (;;) {
        int kw = keyword_at(c);
        if (kw < 0) return check_3d(c, &ds->bin);
        int key = kw == 3 ? 2 : kw == 5 ? 4 : kw == 17 ? 16 : kw; /* synonyms */
        if (seen[key])
            return pv_cur_error(c, PV_ESYNTAX, "Duplicated or contradicting arguments in datafile options");
        seen[key] = true;
        pv_status st = one_option(c, env, exec, ds, kw);
        if (st != PV_OK) return st;
    }
}
