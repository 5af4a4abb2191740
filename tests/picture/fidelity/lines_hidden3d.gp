# `set hidden3d`: a surface drawn with lines hides what lies behind it, itself included;
# its visible lines keep their full width over the opaque surface. A bump in red over a
# tilted plane in blue below it (partly hidden by it).
unset key
set hidden3d
set isosamples 5, 5
set xrange [-2:2]; set yrange [-2:2]
splot 1.2*exp(-(x*x + y*y)/2) lc rgb "red", x/4 - 1.5 lc rgb "blue"
