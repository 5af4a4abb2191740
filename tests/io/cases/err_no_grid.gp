vload $a $zz "good.h5"
