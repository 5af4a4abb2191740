# Images in 3D: a palette image (a slope plus the potential) on a tilted plane that crosses every
# slab plane, and a semi-transparent rgbalpha image in a z plane over it. Every rank
# count must draw each pixel once: no seam or gap where a slab plane cuts a pixel.
load "common_small.gp"
set cbrange [-3:3]
set urange [0:1]; set vrange [0:1]
set samples 14; set isosamples 14
set out "image3d.png"
splot "++" using 1:2:(0.1 + 0.3*$1):(4*($1 - $2) + voxel($1, $2, 0.1 + 0.3*$1)) with image, \
      "++" using 1:2:(0.55):(255*$1):(120):(255*$2):(150) with rgbalpha
