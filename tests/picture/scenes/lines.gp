# Lines crossing the slab planes: the potential on a '++' mesh drawn with palette lines
# (each segment the mean colour of its ends), a helix with linespoints rising through
# every slab, impulses from z = 0 and a transparent wide line over the mesh. Every rank
# count must draw each line once, with no seam where it crosses a slab plane.
load "common_small.gp"
set palette rgbformulae 7,5,15
set cbrange [-3:3]
set urange [0:1]; set vrange [0:1]
set samples 12; set isosamples 12
set print $helix
do for [k=0:40] { print sprintf("%g %g %g", 0.5 + 0.3*cos(k/4.), 0.5 + 0.3*sin(k/4.), k/40.) }
unset print
set out "lines.png"
splot "++" using 1:2:(0.2 + 0.6*$1*$2):(voxel($1, $2, 0.5)) with lines lc palette, \
      $helix with linespoints pt 6 ps 0.6 lc rgb "dark-green" lw 1.5, \
      $helix using 1:2:($3*0.8) every 5 with impulses lc rgb "#80000000" lw 4
