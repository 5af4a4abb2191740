vload $t "bad.h5"
