# `set parametric`: three functions of u and v give one surface, sampled over the u/v
# ranges; the x/y ranges autoscale to what it covers. A cylinder of straight lines in red
# (half of it) and a plane of straight lines in blue beside it.
unset key
set parametric
set urange [0:pi]; set vrange [0:1]
set isosamples 9, 3
set samples 9, 3
splot cos(u), sin(u), v lc rgb "red", 2 + u/2, v, 0.5 lc rgb "blue"
