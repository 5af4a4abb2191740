# Function surfaces as gnuplot samples them: isosamples lines along x (samples points
# each), then along y, over the autoscaled x/y range [-10:10], with the dummies renamed.
# A saddle (straight iso lines) in red, a tilted plane far below it in blue, twice as wide.
unset key
set samples 9, 7
set isosamples 5, 4
set dummy s, t
splot s*t/20 lc rgb "red", -25 + (s + t)/4 lc rgb "blue" lw 2
