vload "missing.h5"
