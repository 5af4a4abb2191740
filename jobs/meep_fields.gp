# pvox job script for jobs/meep_fields.sbatch: render a Meep simulation's HDF5 output
# (examples/meep_ring.py writes it): the dielectric as an isosurface, Ez as slices
# through the cell, one frame per time step of Ez. Meep stores x slowest, hence
# `order "xyz"`; its files carry no coordinates, so the grids take the cell's ranges.
#
# The job passes the run's names with -e, before this script:
#     srun pvox -e 'prefix = "ring"; nframes = 24; dt = 1; half = 2' jobs/meep_fields.gp
# Frame i shows ring-ez-<i*dt>.h5 and goes to meep_ez_<iii>.png; meep_eps.png shows the
# structure alone.

if (!exists("prefix")) prefix = "ring"
if (!exists("nframes")) nframes = 24
if (!exists("dt")) dt = 1
if (!exists("half")) half = 2           # half the cell side: the cell is [-half:half]^3
ezfile(i) = sprintf("%s-ez-%09.2f.h5", prefix, i*dt)

vload $eps sprintf("%s-eps-000000.00.h5", prefix) dataset "eps" order "xyz"
set vxrange [-half:half]; set vyrange [-half:half]; set vzrange [-half:half]

set term pngcairo size 800,600
set xrange [-half:half]; set yrange [-half:half]; set zrange [-half:half]
set view 60, 30
set border 4095
unset key
set output "meep_eps.png"
set title "dielectric (eps = 6 isosurface)"
splot $eps with isosurface level 6

# Ez colour range [-emax:emax] (beyond it: clipped); by default half the largest |Ez| of
# the last frame's z = 0 plane, so the early, weak frames show how the field grows
if (!exists("emax")) {
    vload $ez ezfile(nframes) dataset "ez" order "xyz"
    set vxrange [-half:half]; set vyrange [-half:half]; set vzrange [-half:half]
    set urange [-half:half]; set vrange [-half:half]
    stats "++" using (abs(voxel($1, $2, 0))) nooutput
    emax = STATS_max > 0 ? STATS_max / 2 : 1
}
set palette define (0 "blue", 0.5 "white", 1 "red")
set cbrange [-emax:emax]
set style fill transparent solid 0.8
set samples 48; set isosamples 48       # slice resolution
clip(v) = v > emax ? emax : v < -emax ? -emax : v
do for [i=1:nframes] {
    vload $ez ezfile(i) dataset "ez" order "xyz"
    set vxrange [-half:half]; set vyrange [-half:half]; set vzrange [-half:half]
    set output sprintf("meep_ez_%03d.png", i)
    set title sprintf("E_z at t = %g", i*dt)
    # the plane z = 0 (the ring's) and x = 1 (through the source), and the ring itself
    splot "++" using 1:2:(0):(clip(voxel($1, $2, 0))) with pm3d, \
          "++" using (1):1:2:(clip(voxel(1, $1, $2))) with pm3d, \
          $eps with isosurface level 6 lc rgb "gray50"
}
set output
print sprintf("drew meep_eps.png and %d frames of Ez from %s-*.h5", nframes, prefix)
