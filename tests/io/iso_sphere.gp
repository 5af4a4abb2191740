# A sphere and a torus isosurface written as meshes (tests/io/run_iso_mesh.sh): both stay
# inside the grid, so they are closed; the sphere has Euler characteristic 2, the torus 0.
set vgrid $s size 48
set vxrange [-1:1]; set vyrange [-1:1]; set vzrange [-1:1]
$c << EOD
0.02 -0.03 0.01 1
EOD
vfill $c using 1:2:3:(3):(VoxelDistance)
set table "sphere.vtp"
splot $s with isosurface level 0.7
set table "sphere.pvtp"
splot $s with isosurface level 0.7
set vgrid $t size 48
set vxrange [-1:1]; set vyrange [-1:1]; set vzrange [-1:1]
# distance to a circle of radius 0.55 in the plane z = 0: a torus of tube radius 0.22
# (the node of index i is written through a coordinate half a spacing below it, which
# maps to it whatever the rounding of i*delta: gnuplot's ceil rule)
h(i) = i == 0 ? -1 : -1 + (i - 0.5)*2./47
do for [k=0:47] { do for [j=0:47] { do for [i=0:47] {
    x = -1 + i*2./47; y = -1 + j*2./47; z = -1 + k*2./47
    voxel(h(i), h(j), h(k)) = sqrt((sqrt(x*x + y*y) - 0.55)**2 + z*z)
}}}
set table "torus.vtp"
splot $t with isosurface level 0.22
unset table
