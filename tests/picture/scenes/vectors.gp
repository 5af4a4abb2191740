# `with vectors` across the slab planes: the potential's gradient direction sampled on a
# coarse '++' mesh at three heights, open heads, and a few filled two-headed vectors;
# every rank count must draw each shaft and head once.
load "common_small.gp"
set urange [0.1:0.9]; set vrange [0.1:0.9]
set samples 4; set isosamples 4
set out "vectors.png"
splot for [z in "0.2 0.5 0.8"] '++' using 1:2:(z+0):(0.1*($1-0.5)):(0.1*($2-0.5)):(0.15) \
          with vectors lc rgb "dark-blue", \
      '++' using 1:2:(0.1):(0):(0):(0.8) every 3:3 with vectors heads filled lc rgb "red" lw 2
