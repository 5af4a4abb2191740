# `with vectors` from a datablock (x y z dx dy dz): shafts from each point to its tip
# (red, `nohead`: a head's V is no straight piece to measure) and filled heads at both
# ends (blue, twice as wide; the heads are too short to be measured); the tips extend
# the autoscaled ranges. The open default heads are checked by the picture scene
# vectors.gp.
unset key
$d << EOD
0 0 0 0.25 0.25 0.25
1 0 0 0 0.3 0.2
0.5 0.5 0.2 0.2 -0.2 0.3
EOD
splot $d with vectors nohead lc rgb "red", \
      $d using 1:($2 + 0.1):(1):(0):(0.3):(0) with vectors heads filled lc rgb "blue" lw 2
