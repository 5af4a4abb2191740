# splot of a grid whose ranges were never set (gnuplot 5.4 crashes here, pvox refuses)
set vgrid $w size 10
splot $w with points
print "not reached"
