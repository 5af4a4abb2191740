# pvox job script for jobs/render_h5.sbatch: load a grid saved by jobs/fill_dipole.gp and
# draw five transparent slices of it (x = 0.1, 0.3 ... 0.9) coloured by the potential.
# Reading the grid back costs no refill: the render job needs only the memory of the grid.
#
# The job passes the file names with -e, before this script:
#     srun pvox -e 'file = "dipole_1024.h5"; png = "dipole_1024_slices.png"' jobs/render_slices.gp

if (!exists("file")) file = "dipole_1024.h5"
if (!exists("png")) png = file[1:strlen(file) - 3] . "_slices.png"

vload $v file

set term pngcairo size 800,600
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
set view 65,40
set xyplane at -0.1
set border 4095
unset key
set palette define (0 "red", 0.5 "white", 1 "blue")
# the ±10⁶ guard values at the charges would flatten the colours
set cbrange [-3:3]
set style fill transparent solid 0.4
set output png
splot for [j=0:4] "++" using (0.1 + j/5.):1:2:(voxel(0.1 + j/5., $1, $2)) with pm3d
set output
print sprintf("wrote %s from %s", png, file)
