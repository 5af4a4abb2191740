# Function surfaces crossing the slab planes: a saddle drawn with pm3d and its mesh
# lines (implicit `set pm3d`), a parametric half-cylinder with lines, and the voxel
# potential sampled by a function of x and y. Every rank count must draw them alike.
load "common_small.gp"
set pm3d
set samples 15; set isosamples 9
set out "functions.png"
splot 0.5 + (x - 0.5)*(y - 0.5), 0.2 + 0.1*voxel(x, y, 0.5) with lines lc rgb "dark-green"
set parametric
set urange [0:pi]; set vrange [0:1]
set out "functions_param.png"
splot 0.5 + 0.3*cos(u), 0.5 + 0.3*sin(u), v with lines lw 2
