/*
 * exec/h5src: what vload's dataset loader (iocmd.c) shares with the vfill source reader
 * (h5src.c). iocmd.c calling into h5src.c also links h5src.o into every pvox (the
 * library's fill_array.c may hold weak stand-ins for the reader's entry points, which a
 * static link keeps unless h5src.o is pulled in for a symbol of its own).
 */
#ifndef PV_EXEC_H5SRC_H
#define PV_EXEC_H5SRC_H

#include "pvox/h5.h"

/* Options for opening another program's dataset: the defaults, and the testing hook
 * PVOX_H5_MAX_IO=BYTES (tests/io/ext_h5.py: small transfer calls, to exercise the
 * split). No MPI; the same on every rank (the environment is). */
pv_h5_opts pv_h5src_opts(void);

#endif
