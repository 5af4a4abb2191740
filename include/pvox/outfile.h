/*
 * pvox/outfile.h: the one rule for every file pvox writes (core/outfile.c), so each writer
 * decides alike: PNG and the pv_io_out streams (io/tmpfile.c), checkpoints and their
 * sidecar, meshes, text tables, `set print`, --stats.
 *
 * Never replace what is not a regular file: a regular file or a new name is written to a
 * temporary beside it ("<name>.tmp.<16 random hex digits>", created exclusively, never
 * through a link) and renamed over it once complete, so a failed write (an error, EFBIG,
 * ENOSPC, a stop) leaves the old file as it was and no temporary. A symbolic link is
 * followed to the name it finally reaches: that file is replaced and the link stays a
 * link; a dangling link gets the name it points to created (as gnuplot's fopen through
 * the link would). A character device or a FIFO is written in place as a stream where the
 * format is a stream (PNG, print, text tables) and refused where it must be a regular
 * file (checkpoints, meshes, --stats); a directory, a socket and a block device are always
 * refused. The descriptor names under /dev and /proc (`/dev/stdout`, `/dev/fd/3`) are
 * streams.
 *
 * Lives in core (not io) because core's --stats writer follows it too and core cannot call
 * io (ARCH-18). No MPI: in a collective writer one rank decides and the status is agreed.
 */
#ifndef PVOX_OUTFILE_H
#define PVOX_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

/* What marks a temporary: "<target>.tmp.<16 random hex digits>". */
#define PV_IO_TEMP_MARK ".tmp."

typedef enum pv_io_target {
    PV_IO_REPLACE, /* a regular file or a new name (also reached through links): write a
                      temporary beside *target and rename it over *target when complete */
    PV_IO_STREAM,  /* stream_ok only: a character device, a FIFO, a descriptor name under
                      /dev or /proc, "| command": written in place, nothing replaced */
    PV_IO_REFUSED, /* a directory, a socket, a block device, a device or FIFO when
                      !stream_ok, or a path that cannot be looked at: *why says which */
} pv_io_target;

/* Classify `path` as an output. `stream_ok`: the format may be written as a stream (PNG,
 * print, text tables); checkpoints, meshes and --stats pass false. *target (malloc'd) is
 * set for PV_IO_REPLACE only: the name to rename over (the file a link reaches, or the
 * name a dangling link points to). *why is static text for PV_IO_REFUSED: "is a
 * directory", PV_IO_NOT_REGULAR, "not a regular file, a character device or a FIFO", or
 * the strerror of a failed look-up (then errno is that error). */
pv_io_target pv_io_output_target(const char *path, bool stream_ok, char **target, const char **why);
/* The refusal of a writer that needs a regular file (compare pointers or strings). */
#define PV_IO_NOT_REGULAR "not a regular file"

/* True for outputs that are streams by name: "| command", `/dev/...`, `/proc/...`. */
bool pv_io_is_stream_name(const char *path);

/* A temporary name beside `path` (malloc'd, NULL if memory ran out). */
char *pv_io_temp_name(const char *path);
/* The name a temporary of pv_io_temp_name was made for (malloc'd; NULL, errno EINVAL, if
 * `tmp` is not such a name). */
char *pv_io_temp_target(const char *tmp);
/* Create `tmp` for writing: exclusively (an existing file or link of that name is an
 * error, EEXIST), never through a symbolic link. NULL with errno set on failure. */
FILE *pv_io_fopen_new(const char *tmp, const char *mode);
/* Open an output the rule calls a stream, in place ("w": truncating, "a": appending). */
FILE *pv_io_fopen_stream(const char *path, const char *mode);
/* strerror, with EFBIG naming the limit: "file too large (ulimit -f)". */
const char *pv_io_strerror(int e);

/* ---- implemented by io (io/tmpfile.c), for io and the modules above it ---- */

/* An output file being written (pv_io_out_open ... pv_io_out_close), under the rule above
 * with streams allowed: a regular file or a new name is written to a
 * temporary and renamed over it at the end; a link is followed (the file it reaches is
 * replaced, the link stays); a device, a FIFO or a descriptor name is written in place;
 * "| command" pipes into the command (run by the shell); a file opened with mode "a" is
 * appended to in place. */
typedef struct pv_io_out {
    FILE *f;
    bool pipe;       /* "| command": f is popen()'s */
    char *tmp;       /* the temporary, or NULL when writing in place */
    char *target;    /* what the temporary is renamed to */
    const char *why; /* pv_io_out_open failed: why (static text) */
} pv_io_out;

/* Open `path` for writing (mode "wb", "w" or "a"). On failure nothing is left open or
 * created and o->why says why (errno is 0 when the rule refused the path). */
bool pv_io_out_open(pv_io_out *o, const char *path, const char *mode);
/* Close the output: flushed, and renamed into place when `werr` is 0 and every write
 * succeeded, else the temporary is removed. Returns 0 or the errno of the first failure
 * (EFBIG past the file size limit: main ignores SIGXFSZ). Nothing open: returns werr. */
int pv_io_out_close(pv_io_out *o, int werr);
/* Close without publishing: the temporary is removed (a stream is just closed). */
void pv_io_out_abandon(pv_io_out *o);

#endif /* PVOX_OUTFILE_H */
