# `set table` + splot of functions, as gnuplot 5.4 writes them (this output is gnuplot's
# own): each function's isosamples lines along x, in order, over the x/y range (the
# command's, or [-10:10]); a parametric triple over u and v; a hole where the function is
# undefined; the command's dummy names and ranges
set table
set samples 3, 4; set isosamples 2, 3
splot [a=0:1] [b=-1:1] a + b title "sum", 1/a notitle
set parametric
set urange [0:1]; set vrange [0:2]
splot u, v, u*v, 2*u, v - 1, 1 with lines
set isosamples 2, 2; set samples 2, 2
splot for [i=1:2] i*u, v, u + i
unset table
