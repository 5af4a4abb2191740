/*
 * io/tmpfile: an output being written (pv_io_out) under the one output rule of
 * pvox/outfile.h: a regular file or a new name through a temporary renamed over it at the
 * end (a reader never sees half a file, a failed write keeps the old file), a stream in
 * place, "| command" into the command.
 */
#define _POSIX_C_SOURCE 200809L /* popen */
#include "io_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- an output being written --------------------------------------------------------- */

bool pv_io_out_open(pv_io_out *o, const char *path, const char *mode)
{
    memset(o, 0, sizeof *o);
    bool append = mode[0] == 'a';
    char *target = NULL;
    pv_io_target kind = pv_io_output_target(path, true, &target, &o->why);
    if (kind == PV_IO_REFUSED) {
        errno = 0; /* the reason is o->why */
        return false;
    }
    if (path[0] == '|') { /* "| command": the picture goes to the command's input */
        fflush(stdout);
        errno = 0;
        o->f = popen(path + 1, append ? "w" : mode[0] == 'w' && mode[1] == 'b' ? "w" : mode);
        o->pipe = o->f != NULL;
        if (!o->f && !errno) errno = ENOMEM;
    } else if (kind == PV_IO_STREAM || append) {
        /* a stream, or a file appended to: written in place (nothing is replaced) */
        free(target);
        o->f = pv_io_fopen_stream(path, mode);
    } else {
        o->target = target;
        o->tmp = pv_io_temp_name(target);
        if (o->tmp)
            o->f = pv_io_fopen_new(o->tmp, mode);
        else
            errno = ENOMEM;
    }
    if (o->f) return true;
    int e = errno;
    free(o->tmp);
    free(o->target);
    memset(o, 0, sizeof *o);
    o->why = strerror(e);
    errno = e;
    return false;
}

int pv_io_out_close(pv_io_out *o, int werr)
{
    int err = werr;
    if (!o->f) return err;
    if (!err && (fflush(o->f) != 0 || ferror(o->f))) err = errno ? errno : EIO;
    if (o->pipe) { /* the command's exit status is its own business, as in gnuplot */
        if (pclose(o->f) == -1 && !err) err = errno ? errno : EIO;
    } else if (fclose(o->f) != 0 && !err) {
        err = errno ? errno : EIO;
    }
    if (o->tmp) {
        if (!err && rename(o->tmp, o->target) != 0) err = errno;
        if (err) remove(o->tmp);
    }
    free(o->tmp);
    free(o->target);
    memset(o, 0, sizeof *o);
    return err;
}

void pv_io_out_abandon(pv_io_out *o) { (void)pv_io_out_close(o, ECANCELED); }

/* ---- writers that need a regular file ------------------------------------------------ */

pv_status pv_io_regular_temp(pv_ctx *ctx, const char *path, const char *what, char **tmp)
{
    char *target = NULL;
    const char *why = NULL;
    *tmp = NULL;
    if (pv_io_output_target(path, false, &target, &why) == PV_IO_REFUSED)
        return pv_err(ctx, PV_EIO, "%s: %s%s%s%s", path, why,
                      strcmp(why, PV_IO_NOT_REGULAR) == 0 ? ": pvox writes " : "",
                      strcmp(why, PV_IO_NOT_REGULAR) == 0 ? what : "",
                      strcmp(why, PV_IO_NOT_REGULAR) == 0 ? " only to regular files" : "");
    *tmp = pv_io_temp_name(target);
    free(target);
    return *tmp ? PV_OK : pv_err(ctx, PV_ENOMEM, "out of memory");
}

int pv_io_rename_temp(const char *tmp)
{
    char *target = pv_io_temp_target(tmp);
    if (!target) return -1;
    int rc = rename(tmp, target);
    int e = errno;
    free(target);
    errno = e;
    return rc;
}
