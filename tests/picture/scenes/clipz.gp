# pm3d `clip z` (gnuplot's default): a surface that rises above the z range is cut there;
# the colour range is autoscaled from the points inside the ranges only
set term pngcairo size 320,240
set out "clipz.png"
set xrange [-2:2]; set yrange [-2:2]; set zrange [0:1]
set isosamples 20; set samples 20
unset key
splot '++' using 1:2:(exp(-($1**2+$2**2))*1.5):(exp(-($1**2+$2**2))) with pm3d
