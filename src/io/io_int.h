/*
 * io/io_int.h: helpers shared by the io module's writers (not a public interface).
 */
#ifndef PV_IO_INT_H
#define PV_IO_INT_H

#include <stdio.h>

/* Write s with the five XML special characters escaped (attribute values and text). */
void pv_io_put_xml(FILE *f, const char *s);

/* A temporary name beside `path`: "<path>.tmp.<16 random hex digits>" (malloc'd, NULL if
 * memory ran out). */
char *pv_io_temp_name(const char *path);
/* Create `tmp` for writing: exclusively (an existing file or link of that name is an
 * error, EEXIST), never through a symbolic link. NULL with errno set on failure. */
FILE *pv_io_fopen_new(const char *tmp, const char *mode);

#endif
