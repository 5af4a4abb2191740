/*
 * exec/cmd_print.c: output: `print`, `printerr`, `set print` / `unset print`, and the
 * destinations print and tables write to (pv_out).
 *
 * Rank 0 writes files and streams; a datablock target is updated on every rank so later
 * commands see the same data everywhere. Opening a file can fail on rank 0 only, so it
 * ends with pv_status_agree. `set print "| command"` pipes the lines into a shell command
 * that rank 0 runs (popen, as gnuplot); it ends when the print output changes or the run
 * ends.
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* =====================================================================================
 * Output
 * ===================================================================================== */

pv_status pv_exec_datablock_append(pv_interp *I, const char *name, const char *line)
{
    size_t n = 0;
    char **old = pv_env_get_datablock(I->env, name, &n);
    char **lines = malloc((n + 1) * sizeof *lines);
    if (!lines) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) lines[i] = strdup(old[i]);
    lines[n] = strdup(line);
    return pv_env_set_datablock(I->env, name, lines, n + 1);
}

pv_status pv_out_line(pv_interp *I, pv_out *o, const char *line)
{
    switch (o->kind) {
    case PV_OUT_STDERR:
        pv_msg(I->ctx, "%s\n", line);
        return PV_OK;
    case PV_OUT_STDOUT:
        if (I->ctx->rank == 0) {
            fputs(line, stdout);
            fputc('\n', stdout);
            fflush(stdout);
        }
        return PV_OK;
    case PV_OUT_FILE:
        /* rank 0; a failure (EFBIG past `ulimit -f`, ENOSPC) is kept and reported at the
         * next agreement: closing the output or the end of the run (pv_out_check) */
        if (o->fp && !o->werr && (fputs(line, o->fp) == EOF || fputc('\n', o->fp) == EOF))
            o->werr = errno ? errno : EIO;
        return PV_OK;
    case PV_OUT_DATABLOCK:
        return pv_exec_datablock_append(I, o->name, line);
    case PV_OUT_MESH:
        return PV_OK;
    }
    return PV_OK;
}

/* Rank 0: close the file (renamed into place unless a write failed); 0 or the errno. */
static int close_file(pv_out *o)
{
    int err = o->werr;
    /* a command's exit status is not looked at, as in gnuplot */
    if (o->fp) err = pv_io_out_close(&o->io, err);
    o->fp = NULL;
    return err;
}

void pv_out_close(pv_interp *I, pv_out *o)
{
    (void)I;
    (void)close_file(o);
    free(o->name);
    memset(o, 0, sizeof *o);
}

pv_status pv_out_finish(pv_interp *I, pv_out *o)
{
    pv_status st = PV_OK;
    if (o->kind == PV_OUT_FILE) {
        int err = close_file(o);
        if (err)
            st = pv_err(I->ctx, PV_EIO, "cannot write '%s': %s", o->name ? o->name : "",
                        pv_io_strerror(err));
        st = pv_status_agree(I->ctx, st);
    }
    pv_out_close(I, o);
    return st;
}

/* Rank 0: flush one output and return its first write error. */
static int flush_file(pv_out *o)
{
    if (o->kind == PV_OUT_FILE && o->fp && !o->werr && fflush(o->fp) != 0)
        o->werr = errno ? errno : EIO;
    return o->kind == PV_OUT_FILE && o->fp ? o->werr : 0;
}

pv_status pv_out_check(pv_interp *I)
{
    pv_status st = PV_OK;
    pv_out *outs[2] = {&I->print_out, &I->table_out};
    for (int k = 0; k < 2 && st == PV_OK; k++) {
        int err = flush_file(outs[k]);
        if (err)
            st =
                pv_err(I->ctx, PV_EIO, "cannot write '%s': %s", outs[k]->name, pv_io_strerror(err));
    }
    st = pv_status_agree(I->ctx, st);
    if (st != PV_OK) { /* the failed file is not published; later prints go nowhere */
        for (int k = 0; k < 2; k++)
            if (outs[k]->werr && outs[k]->fp) {
                pv_io_out_abandon(&outs[k]->io);
                outs[k]->fp = NULL;
            }
    }
    return st;
}

pv_status pv_out_open(pv_interp *I, pv_out *o, pv_out_kind kind, const char *name,
                      bool append, pv_cursor *c, size_t off)
{
    /* what was open is finished first: a write that failed there is this line's error */
    pv_status st = pv_out_finish(I, o);
    if (st != PV_OK) return pv_exec_locate(I, c, off);
    o->kind = kind;
    if (name) o->name = strdup(name);
    bool is_pipe = kind == PV_OUT_FILE && name && name[0] == '|' && o == &I->print_out;
    if (is_pipe) st = pv_exec_shell_gate(I, c->tl->src, off, "set print \"| command\"");
    if (st == PV_OK && kind == PV_OUT_FILE && I->ctx->rank == 0) {
        /* the output rule (pvox/outfile.h); a table named "| x" is a file of that name */
        char *path = name[0] == '|' && !is_pipe ? pv_asprintf("./%s", name) : NULL;
        fflush(stdout);
        fflush(stderr);
        if (name[0] == '|' && !is_pipe && !path) {
            st = pv_err(I->ctx, PV_ENOMEM, "out of memory");
        } else if (!pv_io_out_open(&o->io, path ? path : name, append ? "a" : "w")) {
            st = is_pipe ? pv_source_error(I->ctx, PV_EIO, c->tl->src, off, "cannot run '%s': %s",
                                           name + 1, errno ? strerror(errno) : o->io.why)
                         : pv_source_error(I->ctx, PV_EIO, c->tl->src, off, "cannot open '%s': %s",
                                           name, o->io.why);
        }
        o->fp = o->io.f;
        free(path);
    }
    if (kind == PV_OUT_FILE) {
        st = pv_status_agree(I->ctx, st);
        if (st != PV_OK) pv_out_close(I, o);
    } else if (kind == PV_OUT_DATABLOCK && !append) {
        char **none = malloc(sizeof(char *));
        st = pv_env_set_datablock(I->env, name, none, 0);
    } else if (kind == PV_OUT_DATABLOCK && !pv_env_get_datablock(I->env, name, &(size_t){0})) {
        char **none = malloc(sizeof(char *));
        st = pv_env_set_datablock(I->env, name, none, 0);
    }
    return st;
}

/* Parse an output target: nothing, a datablock or a string expression, then `append`.
 * Sets the kind and the name (malloc'd) in exec mode. */
static pv_status parse_target(pv_interp *I, pv_cursor *c, bool exec, pv_out_kind deflt,
                              pv_out_kind *kind, char **name, bool *append, size_t *off)
{
    *kind = deflt;
    *name = NULL;
    *append = false;
    *off = pv_cur_offset(c);
    pv_status st = PV_OK;
    if (pv_cur_at_end(c)) return PV_OK;
    const pv_token *t = pv_cur_peek(c);
    if (t->kind == PV_TK_DOLLAR) {
        *kind = PV_OUT_DATABLOCK;
        if (exec) *name = strdup(t->sval);
        pv_cur_next(c);
    } else if (!pv_cur_is_word(c, "append")) {
        if ((st = pv_exec_string_expr(I, c, exec, name)) != PV_OK) return st;
        if (exec) *kind = strcmp(*name, "-") == 0 ? PV_OUT_STDOUT : PV_OUT_FILE;
    }
    if (pv_cur_accept_word(c, "app$end")) *append = true;
    return pv_exec_expect_end(c);
}

/* =====================================================================================
 * print
 * ===================================================================================== */

static pv_status print_to(pv_interp *I, pv_cursor *c, bool exec, pv_out *out);

pv_status pv_cmd_print(pv_interp *I, pv_cursor *c, bool exec)
{
    return print_to(I, c, exec, &I->print_out);
}

/* printerr: like print, always to stderr */
pv_status pv_cmd_printerr(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_out err = {.kind = PV_OUT_STDERR};
    return print_to(I, c, exec, &err);
}

static pv_status print_to(pv_interp *I, pv_cursor *c, bool exec, pv_out *out)
{
    pv_cur_next(c);
    /* print $block: its lines, then an empty line (gnuplot) */
    const pv_token *t = pv_cur_peek(c);
    if (t->kind == PV_TK_DOLLAR && c->pos + 1 == c->end) {
        pv_cur_next(c);
        if (!exec) return PV_OK;
        size_t n = 0;
        char **lines = pv_env_get_datablock(I->env, t->sval, &n);
        if (!lines)
            return pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, t->start,
                                   "no datablock named %s", t->sval);
        /* copy first: printing may append to this very datablock (set print $d) */
        char **copy = malloc((n ? n : 1) * sizeof *copy);
        if (!copy) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
        for (size_t i = 0; i < n; i++) copy[i] = strdup(lines[i]);
        pv_status st = PV_OK;
        for (size_t i = 0; i < n && st == PV_OK; i++) st = pv_out_line(I, out, copy[i]);
        for (size_t i = 0; i < n; i++) free(copy[i]);
        free(copy);
        return st == PV_OK ? pv_out_line(I, out, "") : st;
    }
    /* untracked (malloc): print runs before any grid, and --fail-alloc-at counts tracked
     * allocations from the first grid (tests/app/cli_test.sh fault_injection) */
    size_t cap = 128, len = 0;
    char *line = exec ? malloc(cap) : NULL;
    if (exec && !line) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
    if (line) line[0] = '\0';
    pv_status st = PV_OK;
    bool first = true;
    while (st == PV_OK && !pv_cur_at_end(c)) {
        if (!first && !pv_cur_accept_op(c, ",")) {
            st = pv_exec_expect_end(c);
            break;
        }
        size_t off = pv_cur_offset(c), first_tok = c->pos;
        pv_value v = {0};
        char *s = NULL;
        const pv_token *nt = pv_cur_peek(c), *after = pv_cur_peek_at(c, 1);
        size_t na = 0;
        if (exec && nt->kind == PV_TK_NAME && pv_env_get_array(I->env, nt->sval, &na) &&
            (c->pos + 1 >= c->end || (after->kind == PV_TK_OP && !strcmp(after->op, ",")))) {
            /* print A: the array's content and a newline (gnuplot's save_array_content;
             * no newline in a datablock) */
            char *a = pv_array_format(pv_env_get_array(I->env, nt->sval, NULL), na);
            pv_cur_next(c);
            if (!a) {
                free(line);
                return pv_err(I->ctx, PV_ENOMEM, "out of memory");
            }
            bool nl = out->kind != PV_OUT_DATABLOCK;
            s = malloc(strlen(a) + 2);
            if (s) sprintf(s, "%s%s", a, nl ? "\n" : "");
            free(a);
        } else if ((st = pv_exec_expr(I, c, exec, &v)) != PV_OK) {
            break;
        } else if (exec && v.type == PV_V_UNDEF) {
            /* an undefined array element prints as <undefined>; 1/0 is an error */
            if (!pv_exec_is_array_element(I, c, first_tok, c->pos)) {
                st = pv_source_error(I->ctx, PV_ESCRIPT, c->tl->src, off, "undefined value");
                break;
            }
            s = strdup("<undefined>");
        } else if (exec) {
            s = pv_value_format(&v);
            pv_value_free(&v);
        }
        if (exec) {
            size_t n = s ? strlen(s) : 0;
            while (len + n + 2 > cap) {
                char *nl = realloc(line, cap *= 2);
                if (!nl) {
                    free(s);
                    free(line);
                    return pv_err(I->ctx, PV_ENOMEM, "out of memory");
                }
                line = nl;
            }
            if (!first) line[len++] = ' ';
            if (s) memcpy(line + len, s, n);
            len += n;
            line[len] = '\0';
            free(s);
        }
        first = false;
    }
    if (st == PV_OK && exec) st = pv_out_line(I, out, line);
    free(line);
    return st;
}

/* =====================================================================================
 * set print / unset print
 * ===================================================================================== */

pv_status pv_cmd_set_print(pv_interp *I, pv_cursor *c, bool exec)
{
    pv_out_kind kind;
    char *name = NULL;
    bool append;
    size_t off;
    pv_status st = parse_target(I, c, exec, PV_OUT_STDERR, &kind, &name, &append, &off);
    if (st == PV_OK && exec) st = pv_out_open(I, &I->print_out, kind, name, append, c, off);
    free(name);
    return st;
}

pv_status pv_cmd_unset_print(pv_interp *I, pv_cursor *c, bool exec)
{
    size_t off = pv_cur_offset(c);
    pv_status st = pv_exec_expect_end(c);
    if (st == PV_OK && exec && (st = pv_out_finish(I, &I->print_out)) != PV_OK)
        return pv_exec_locate(I, c, off);
    return st;
}
