/*
 * io/io_int.h: helpers shared by the io module's writers (not a public interface).
 */
#ifndef PV_IO_INT_H
#define PV_IO_INT_H

#include <stdbool.h>
#include <stdio.h>

/* Write s with the five XML special characters escaped (attribute values and text). */
void pv_io_put_xml(FILE *f, const char *s);

/* A temporary name beside `path`: "<path>.tmp.<16 random hex digits>" (malloc'd, NULL if
 * memory ran out). */
char *pv_io_temp_name(const char *path);
/* Create `tmp` for writing: exclusively (an existing file or link of that name is an
 * error, EEXIST), never through a symbolic link. NULL with errno set on failure. */
FILE *pv_io_fopen_new(const char *tmp, const char *mode);

/* An output file being written (pv_io_out_open ... pv_io_out_close). A regular file is
 * written to a temporary beside it and renamed over it at the end, so a reader never
 * sees half a file; a symbolic link is followed (the file it names is replaced, the link
 * stays); what cannot be renamed over is written in place: a device, a FIFO, a socket,
 * the descriptor names under /dev and /proc (`/dev/stdout`, `/dev/fd/3`); "| command"
 * pipes into the command (run by the shell). */
typedef struct pv_io_out {
    FILE *f;
    bool pipe;    /* "| command": f is popen()'s */
    char *tmp;    /* the temporary, or NULL when writing in place */
    char *target; /* what the temporary is renamed to */
} pv_io_out;

/* Open `path` for writing (mode "wb" or "w"). On failure nothing is left open or
 * created and errno says why. */
bool pv_io_out_open(pv_io_out *o, const char *path, const char *mode);
/* Close the output: renamed into place when `werr` is 0 and every write succeeded, else
 * the temporary is removed. Returns 0 or the errno of the first failure. */
int pv_io_out_close(pv_io_out *o, int werr);

#endif
