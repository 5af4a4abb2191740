/*
 * pvox instream: a data file or a shell command's output, read by rank 0 a piece at a time
 * and broadcast piece by piece (ARCH-1: only rank 0 touches data files), so no rank holds
 * more than one piece of it (README "Data sources").
 *
 * Every function is collective: all ranks call it in the same order. Rank 0 opens the
 * file (or runs the command through the shell with popen, gnuplot's "< command" source);
 * a source that cannot be read twice (a command's output, a pipe, standard input, a
 * character device) is first copied into an unnamed temporary file on rank 0, so every
 * pass reads the same bytes and a command runs once.
 *
 * A pass reads pieces with pv_instream_next until it returns an empty piece, or stops
 * early; pv_instream_restart then agrees how the pass ended (a rank may stop early: an
 * error on that rank alone, or a reader that has seen enough) and rewinds for the next
 * pass. The ranks agree once per piece, so a rank that stops never leaves the others
 * waiting in a broadcast.
 */
#ifndef PVOX_INSTREAM_H
#define PVOX_INSTREAM_H

#include "pvox/core.h"

typedef struct pv_instream pv_instream;

/* Bytes per piece unless the environment variable PVOX_DATA_PIECE (a testing hook, bytes,
 * at least 1) says otherwise. */
#define PV_INSTREAM_PIECE ((size_t)4 << 20)

/* Open `path` on rank 0: a file ("-": standard input), or with command = true a shell
 * command whose standard output is read (its exit status is not looked at, as gnuplot).
 * Agreed: NULL on every rank on failure with the same message in ctx (not located:
 * "cannot open 'x': No such file or directory", "'d' is a directory"), and *missing
 * (may be NULL) true on every rank when the file could not be opened at all (gnuplot's
 * plot skips such a file with a warning) rather than read. */
pv_instream *pv_instream_open(pv_ctx *ctx, const char *path, bool command, bool *missing);

/* The next piece of the current pass: *data (valid until the next call on this stream)
 * and *n bytes; *n == 0 at the end of the data. A read error on rank 0, or a failure a
 * rank reported to pv_instream_restart while the others were reading, comes back agreed
 * on every rank still reading. */
pv_status pv_instream_next(pv_instream *s, const char **data, size_t *n);

/* End the current pass, at its end or early, and rewind. st: this rank's status for the
 * pass (PV_OK or PV_EEXIT for a reader that stopped on purpose). Returns PV_OK, or the
 * agreed failure when a rank failed while the pass was still being read. */
pv_status pv_instream_restart(pv_instream *s, pv_status st);

/* The rest of the current pass as one malloc'd, NUL-terminated buffer on every rank
 * (length *len); for the readers that need the whole text (matrix and binary data, a
 * script for `load`). */
pv_status pv_instream_slurp(pv_instream *s, char **data, size_t *len);

/* Release (not collective: after pv_instream_restart, or after a pass that reached the
 * end, on every rank). Destroying NULL does nothing. */
void pv_instream_close(pv_instream *s);

#endif /* PVOX_INSTREAM_H */
