# 2D `plot` lines: a sampled function in red (set samples) and a data profile in blue,
# twice as wide, over an autoscaled x range extended to whole tics; no key.
unset key
set samples 25
$p << EOD
-8 -0.5
-3 0.8
2 0.1
6 -0.9
EOD
plot [-9:9] sin(x/2) lc rgb "red", $p with lines lc rgb "blue" lw 2
