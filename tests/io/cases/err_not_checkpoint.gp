vload "plain.h5"
