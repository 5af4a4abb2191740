vload $d "bad.h5"
