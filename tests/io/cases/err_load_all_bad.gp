vload "bad.h5"
