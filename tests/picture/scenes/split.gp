# Plot data the ranks evaluate in shares, and the elements every rank evaluates whole
# (a using spec that assigns, a voxel() call the first pass could not foresee): every
# rank count must draw the same values as one rank.
load "common_small.gp"
set cbrange [-3:3]
set urange [0:1]; set vrange [0:1]
set samples 23; set isosamples 23
# a datablock of 300 rows (more than one share's run of rows)
set print $pts
do for [i=0:299] { print sprintf("%g %g %g", i/299., 0.5 + 0.4*sin(i/20.), 0.35) }
unset print
n = 0
set out "split.png"
splot "++" using 1:2:(0.1):(voxel($1, $2, 0.1)) with pm3d, \
      "++" using 1:2:(0.5):(voxel($1, $2, 0.5) > 0 ? voxel($1, $2, 0.9) : 0) \
          with pm3d, \
      "++" using 1:2:(n = n + 1, 0.9):(3*cos(n/40.)) with pm3d, \
      $pts using 1:2:3:(voxel($1, $2, $3)) with points pt 7 ps 0.5 lc palette
print sprintf("n = %d", n)
