/*
 * io/io_int.h: helpers shared by the io module's writers (not a public interface).
 */
#ifndef PV_IO_INT_H
#define PV_IO_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "pvox/core.h"
#include "pvox/outfile.h" /* the rule, temporary names */

/* Write s with the five XML special characters escaped (attribute values and text). */
void pv_io_put_xml(FILE *f, const char *s);

/* Rank 0 of a writer that needs a regular file (a checkpoint, its sidecar): apply the
 * rule to `path` and name the temporary (*tmp, malloc'd) after the file it will replace
 * (the file a link reaches), for pv_io_rename_temp. A refusal is PV_EIO, e.g. "/dev/full:
 * not a regular file: pvox writes <what> only to regular files". The caller agrees the
 * status over the ranks. */
pv_status pv_io_regular_temp(pv_ctx *ctx, const char *path, const char *what, char **tmp);
/* Rename a temporary of pv_io_temp_name over the name it was made for: 0, or -1 with
 * errno (EINVAL when `tmp` is not such a name). */
int pv_io_rename_temp(const char *tmp);

#endif
