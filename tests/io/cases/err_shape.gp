vload $ok $s "bad.h5"
