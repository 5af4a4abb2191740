# Ties through VTK (tests/iso/run_ties_vtk.sh): 12^3 nodes of 0, 1 and 2 (about a third
# equal to the level 1), 0 on the box's faces so the surface closes inside the grid. The
# same field is built by check_ties.py (--vtk-reference) and tests/iso/test_ties.c.
set vgrid $t size 12
set vxrange [0:11]; set vyrange [0:11]; set vzrange [0:11]
f(i, j, k) = ((i*73856093) ^ (j*19349663) ^ (k*83492791)) % 3
do for [k=0:11] { do for [j=0:11] { do for [i=0:11] {
    voxel(i, j, k) = (i == 0 || j == 0 || k == 0 || i == 11 || j == 11 || k == 11) ? 0 : f(i, j, k)
}}}
set table "ties.pvtp"
splot $t with isosurface level 1
set table "ties.vtp"
splot $t with isosurface level 1
set table "ties.txt"
splot $t with isosurface level 1
set isosurface triangles
set table "ties_tri.pvtp"
splot $t with isosurface level 1
set table "ties2.pvtp"
splot $t with isosurface level 2
unset table
