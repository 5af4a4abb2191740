set vgrid $a size 3
vsave "nodir/new.h5"
