# Filled polygons in 3D: a tetrahedron `with polygons` (one face a data block, lit, with
# pm3d borders) and a transparent square `set object polygon ... depthorder` cutting
# through it; all cross the slab planes. Every rank count must fill each polygon once,
# depth-sorted with the rest, with no seam at the slab planes.
load "common_small.gp"
$tet << EOD
0.2 0.2 0.1
0.8 0.2 0.1
0.5 0.8 0.1

0.2 0.2 0.1
0.8 0.2 0.1
0.5 0.5 0.9

0.8 0.2 0.1
0.5 0.8 0.1
0.5 0.5 0.9

0.5 0.8 0.1
0.2 0.2 0.1
0.5 0.5 0.9
EOD
set object 1 polygon from 0.1,0.5,0.05 to 0.9,0.5,0.05 to 0.9,0.5,0.95 to 0.1,0.5,0.95 \
    depthorder fc rgb "blue" fs transparent solid 0.4
set pm3d lighting primary 0.5 specular 0.2
set pm3d border lc rgb "black" lw 1
set out "polygons.png"
splot $tet with polygons fc rgb "gold"
