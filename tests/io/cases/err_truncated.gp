vload "trunc.h5"
