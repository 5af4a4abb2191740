# Checkpoint round trip, save side (tests/io/run_h5_scripts.py, run_h5_paraview.sh).
# Run with -e 'out="NAME"': writes NAME.h5 (all grids) and NAME_ba.h5 ($b then $a).
# Voxel values follow formulas the checkers recompute on their own:
#   $a (9^3, x [-1:1] y [0:4] z [10:12]): voxel at node (i,j,k) = i + 10*j + 100*k + 0.5
#   $b (6^3, x [0:5] y [0:10] z [-5:0]): two voxels set, all others 0
#   $u (4^3): ranges never set, all 0
# Node coordinates are multiples of 1/4, so gnuplot's ceil mapping hits node (i,j,k) exactly.
set vgrid $a size 9
set vxrange [-1:1]
set vyrange [0:4]
set vzrange [10:12]
do for [k=0:8] {
    do for [j=0:8] {
        do for [i=0:8] {
            voxel(-1 + i*0.25, j*0.5, 10 + k*0.25) = i + 10*j + 100*k + 0.5
        }
    }
}
set vgrid $b size 6
set vxrange [0:5]
set vyrange [0:10]
set vzrange [-5:0]
voxel(1, 4, -2) = -7.25
voxel(5, 10, 0) = 1e6
set vgrid $u size 4
set vgrid $a
show vgrid
vsave out.".h5"
vsave $b $a out."_ba.h5"
