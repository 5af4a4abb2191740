set vgrid $a size 3
vsave 42
