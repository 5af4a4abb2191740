vload "text.h5"
