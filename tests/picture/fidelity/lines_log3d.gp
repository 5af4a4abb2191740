# A log z axis in 3D: a function surface sampled on a linear x/y grid (red) and data
# lines (blue, twice as wide) placed at log10 of their z, z tics every power with the
# minor tics between them; no key.
unset key
set logscale z
set xrange [-3:3]; set yrange [-3:3]
set isosamples 7
$d << EOD
-3 -3 0.01
0 0 1
3 3 1000
EOD
splot exp(x*y/2) lc rgb "red", $d with lines lc rgb "blue" lw 2
