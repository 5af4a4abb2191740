set vgrid $a size 3
vsave $a $q "new.h5"
