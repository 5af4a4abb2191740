set vgrid $a size 3
vsave $a $a "new.h5"
