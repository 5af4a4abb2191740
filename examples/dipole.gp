# pvox's default job: the electric dipole of Lee Phillips' article "Voxel plotting with
# gnuplot 5.4" (LWN, 2020), every scene of it in one script. Two equal and opposite charges
# sit on the z axis at 0.75 and 0.25; their potential is filled into a 25x25x25 voxel grid
# once, then drawn as points, jittered points, slices, an animation and isosurfaces.
#
# Run from the project root (the pictures go to out/):
#     mpirun -n 2 pvox examples/dipole.gp
#
# Writes out/a1_charges.png .. out/a8_nested.png and the frames out/slfr00.png ..
# out/slfr09.png (join them with `convert out/slfr*.png slfr.gif`).

# ---- common preliminaries (shared by every scene of the article) ------------------------
set term pngcairo size 800,600
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
set view 65,40
set xyplane at -0.1
set border 4095
unset key
# the charges: x y z q
$charges << EOD
0 0 0.75 1
0 0 0.25 -1
EOD
set palette define (0 "red", 0.5 "white", 1 "blue")
# potential of a unit charge, finite at the charge itself
pot(r) = r > 0 ? 1/r : 10**6

# ---- a1: the two charges as large palette-coloured points ---------------------------------
set output "out/a1_charges.png"
splot $charges using 1:2:3:4 with points pointtype 7 pointsize 5 linecolor palette

# ---- the voxel grid, filled once and used by every later scene -----------------------------
set vgrid $v size 25
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
# each charge adds q/r to every voxel within radius 2, i.e. the whole box
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
print sprintf("potential at (0.5, 0.5, 0.75) = %.6g", voxel(0.5, 0.5, 0.75))

# ---- a2: every voxel as a point coloured by the palette -------------------------------------
set output "out/a2_points.png"
splot $v with points above -10**6 pointtype 7 pointsize 0.4 linecolor palette

# ---- a3: the same with jitter against the moire pattern -------------------------------------
set jitter spread 0.3
set output "out/a3_jitter.png"
splot $v with points above -10**6 pointtype 7 pointsize 0.4 linecolor palette
unset jitter

# ---- a4: one slice at x = 0.2 coloured by the potential -------------------------------------
# The colour range would otherwise come from the values on the slices, which include the
# +-10**6 guard values at the charges (a5 cuts through them): the article's appendix also
# fixes it.
set cbrange [-3:3]
set output "out/a4_slice.png"
splot "++" using (0.2):1:2:(voxel(0.2, $1, $2)) with pm3d

# ---- a5: ten transparent slices ---------------------------------------------------------------
set style fill transparent solid 0.4
set output "out/a5_slices.png"
splot for [j=0:9] "++" using (j/10.):1:2:(voxel(j/10., $1, $2)) with pm3d
set style fill empty

# ---- a6: an animation of a moving slice, ten frames ------------------------------------------
do for [j=0:9] {
    set output "out/slfr" . gprintf('%02g', j) . '.png'
    splot "++" using (j/9.):1:2:(voxel(j/9., $1, $2)) with pm3d
}

set cbrange [*:*]

# ---- a7: the isosurfaces at +1 and -1 ----------------------------------------------------------
set pm3d depthorder
set output "out/a7_iso.png"
splot $v with isosurface level 1, $v with isosurface level -1

# ---- a8: 201 nested transparent isosurfaces, a 3D contour plot ---------------------------------
set style fill transparent solid 0.4
set output "out/a8_nested.png"
splot for [j=-100:100:1] $v with isosurface level j
set output
