# Rotated and hand-justified tic labels: gnuplot draws them so in `set view map` only (in
# other 3D views the rotation is ignored).
set view map
set xtics rotate by 45 right
set ytics rotate by 30
unset key; unset colorbox
set samples 5; set isosamples 5
splot x*y + 2*x + 3*y with pm3d
