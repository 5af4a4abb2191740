/*
 * io/io_int.h: helpers shared by the io module's writers (not a public interface).
 */
#ifndef PV_IO_INT_H
#define PV_IO_INT_H

#include <stdio.h>

/* Write s with the five XML special characters escaped (attribute values and text). */
void pv_io_put_xml(FILE *f, const char *s);

#endif
