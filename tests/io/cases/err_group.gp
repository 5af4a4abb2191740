vload $grp "bad.h5"
