# size is an integer expression (1.9 truncates to 1); pvox needs at least 2 (DEC-1)
set vgrid $g size 2
print "size 2 is fine"
set vgrid $h size 1.9
