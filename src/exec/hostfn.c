/*
 * exec/hostfn.c: builtin functions that need the interpreter rather than the expression
 * alone: palette(z) (the current palette and colour range), system("cmd") and time(x).
 *
 * SPMD: every rank evaluates the same expressions, so anything that may differ between
 * ranks (a shell command's output, the clock) is taken on rank 0 and broadcast; every rank
 * then computes the same value and the control flow stays identical. Such a function is
 * an error inside a `vfill` value expression, whose evaluation runs on each rank's own
 * voxels (a broadcast there would wait forever).
 */
#define _POSIX_C_SOURCE 200809L
#include "exec_int.h"
#include "frames.h"
#include "gridset.h"

#include "pvox/scene.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>

/* The colour range palette(z) maps through, as gnuplot: the last frame's (a `set cbrange`
 * counts from the next plot on), else the untouched axis [-10:10]. */
static void cb_range(const pv_interp *I, double *lo, double *hi)
{
    *lo = I->have_last_cb ? I->last_cb[0] : -10;
    *hi = I->have_last_cb ? I->last_cb[1] : 10;
}

static pv_status fn_palette(pv_env *env, void *ud, const pv_value *args, int nargs,
                            pv_value *out)
{
    pv_interp *I = ud;
    (void)env, (void)nargs;
    if (args[0].type == PV_V_STR || args[0].type == PV_V_UNDEF)
        return pv_err(I->ctx, PV_ESCRIPT,
                      "non-numeric string found where a numeric expression was expected");
    double lo, hi;
    cb_range(I, &lo, &hi);
    pv_pal pal;
    pv_scene_palette(&I->set->palette, &pal);
    double z = pv_value_real(&args[0]);
    if (!(lo < hi)) { /* a reversed or empty range: gnuplot maps through its ends sorted */
        double t = lo;
        lo = fmin(t, hi), hi = fmax(t, hi);
        if (!(lo < hi)) hi = lo + 1;
    }
    pal.cb_log = I->set->range[PV_AX_CB].log && lo > 0;
    *out = pv_int((int64_t)pv_pal_color(&pal, z, lo, hi));
    return PV_OK;
}

static pv_status in_fill_error(pv_interp *I, const char *name)
{
    return pv_err(I->ctx, PV_ESCRIPT, "%s() cannot be used in a vfill expression (its value "
                  "is taken on rank 0; compute it before the vfill)", name);
}

int pv_exec_shell_status(pv_interp *I, int wstatus, int err)
{
    int code = 0;
    if (I->ctx->rank == 0) {
        if (wstatus == -1) code = err; /* could not run: errno, as gnuplot */
        else if (WIFEXITED(wstatus)) code = WEXITSTATUS(wstatus);
        else code = 0; /* killed by a signal: gnuplot's WEXITSTATUS reads 0 */
    }
    if (MPI_Bcast(&code, 1, MPI_INT, 0, I->ctx->comm) != MPI_SUCCESS) code = 0;
    pv_value v = pv_int(code);
    pv_env_set(I->env, "GPVAL_SYSTEM_ERRNO", &v);
    v = pv_str(code == 127 ? "command not found or shell failed" : strerror(code));
    pv_env_set(I->env, "GPVAL_SYSTEM_ERRMSG", &v);
    pv_value_free(&v);
    return code;
}

pv_status pv_exec_shell_output(pv_interp *I, const char *cmd, char **out, size_t *outlen,
                               int *code)
{
    char *text = NULL;
    size_t len = 0, cap = 0;
    int wstatus = 0, err = 0;
    /* the command may look at frames written so far (frames.h) */
    pv_status st = pv_frames_settle(I, PV_OK);
    if (st != PV_OK) return st;
    if (I->ctx->rank == 0) {
        fflush(stdout);
        fflush(stderr);
        errno = 0;
        FILE *p = popen(cmd, "r");
        if (!p) {
            st = pv_err(I->ctx, PV_EIO, "cannot run '%s': %s", cmd,
                        strerror(errno ? errno : EAGAIN));
        } else {
            char buf[4096];
            size_t got;
            while ((got = fread(buf, 1, sizeof buf, p)) > 0) {
                if (len + got + 1 > cap) {
                    size_t nc = (len + got + 1) * 2;
                    char *nt = realloc(text, nc);
                    if (!nt) {
                        st = pv_err(I->ctx, PV_ENOMEM, "out of memory");
                        break;
                    }
                    text = nt, cap = nc;
                }
                memcpy(text + len, buf, got);
                len += got;
            }
            errno = 0;
            wstatus = pclose(p);
            err = errno;
            if (len > 0 && text[len - 1] == '\n') len--;
            if (text) text[len] = '\0';
        }
    }
    st = pv_status_agree(I->ctx, st);
    if (st == PV_OK) st = pv_bcast_bytes(I->ctx, &text, &len);
    if (st == PV_OK) {
        int c = pv_exec_shell_status(I, wstatus, err);
        if (code) *code = c;
    }
    if (st != PV_OK) {
        free(text);
        return st;
    }
    if (!text && !(text = calloc(1, 1))) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
    *out = text;
    *outlen = len;
    return PV_OK;
}

/* system("cmd"): rank 0 runs the command through the shell; its standard output, without
 * the final newline (as gnuplot), is every rank's value; GPVAL_ERRNO (as gnuplot's
 * system() sets it) and GPVAL_SYSTEM_ERRNO get its exit status. */
static pv_status fn_system(pv_env *env, void *ud, const pv_value *args, int nargs,
                           pv_value *out)
{
    pv_interp *I = ud;
    (void)env, (void)nargs;
    if (pv_gridset_filling(I)) return in_fill_error(I, "system");
    if (args[0].type != PV_V_STR)
        return pv_err(I->ctx, PV_ESCRIPT, "non-string argument to system()");
    pv_status st = pv_exec_shell_gate(I, NULL, 0, "system()");
    if (st != PV_OK) return st;
    char *text = NULL;
    size_t len = 0;
    int code = 0;
    st = pv_exec_shell_output(I, args[0].s, &text, &len, &code);
    if (st == PV_OK) {
        pv_value e = pv_int(code);
        pv_env_set(I->env, "GPVAL_ERRNO", &e);
        *out = pv_str(text);
    }
    free(text);
    return st;
}

/* time(0) integer seconds, time(0.0) real seconds, time("format") the formatted time. */
static pv_status fn_time(pv_env *env, void *ud, const pv_value *args, int nargs,
                         pv_value *out)
{
    pv_interp *I = ud;
    (void)env, (void)nargs;
    if (pv_gridset_filling(I)) return in_fill_error(I, "time");
    double now = 0;
    if (I->ctx->rank == 0) {
        struct timeval tv;
        gettimeofday(&tv, NULL);
        now = (double)tv.tv_sec + tv.tv_usec * 1e-6;
    }
    if (MPI_Bcast(&now, 1, MPI_DOUBLE, 0, I->ctx->comm) != MPI_SUCCESS)
        return pv_err(I->ctx, PV_EMPI, "MPI_Bcast of the time failed");
    if (args[0].type == PV_V_STR) {
        char *s = pv_time_format(args[0].s, floor(now));
        if (!s) return pv_err(I->ctx, PV_ENOMEM, "out of memory");
        *out = pv_str(s);
        free(s);
        return PV_OK;
    }
    if (args[0].type == PV_V_INT) *out = pv_int((int64_t)floor(now));
    else *out = pv_real(now);
    return PV_OK;
}

void pv_hostfn_register(pv_interp *I)
{
    pv_env_register_builtin(I->env, "palette", 1, fn_palette, I);
    pv_env_register_builtin(I->env, "system", 1, fn_system, I);
    pv_env_register_builtin(I->env, "time", 1, fn_time, I);
}
