# A frame sequence for the rotating writers: eight frames of one canvas, so that at 1 to
# 8 ranks every rank annotates and writes some of them (frame f by rank f mod P). Each
# frame mixes what the compositor must get right: opaque and transparent isosurfaces,
# voxel points, a pm3d slice through every slab, and a rotating view (the polygons of
# the unchanged grid are replayed from the isosurface cache after the first frame).
load "common_small.gp"
set vgrid $w size 19
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
set cbrange [-3:3]
set urange [0:1]; set vrange [0:1]
set samples 9; set isosamples 9
do for [f=0:7] {
    set view 65, 20 + 40*f
    set out sprintf("sequence_%02d.png", f)
    if (f % 2 == 0) {
        set style fill solid 1.0
    } else {
        set style fill transparent solid 0.45
    }
    splot $w with isosurface level 1.2, $w with isosurface level -1.2, \
          "++" using (0.1*f+0.1):1:2:(voxel(0.1*f+0.1, $1, $2)) with pm3d, \
          $w with points above 5 pt 7 ps 0.4 lc rgb "#008000"
}
