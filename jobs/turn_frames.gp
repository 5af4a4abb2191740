# pvox job script for jobs/frames_array.sbatch: load a grid saved by jobs/fill_dipole.gp
# and draw frames first..last of a turn around it (frame i seen from azimuth
# 360*i/nframes), the isosurfaces of the dipole's potential at +-3.
#
# The job passes the file, the frame count and this task's range with -e:
#     srun pvox -e 'file = "dipole_256.h5"; nframes = 96; first = 24; last = 47' jobs/turn_frames.gp
# Frame i goes to turn_<iii>.png whichever task draws it, so the tasks of an array
# together write the pictures one job drawing every frame would.

if (!exists("file")) file = "dipole_1024.h5"
if (!exists("nframes")) nframes = 96
if (!exists("first")) first = 0
if (!exists("last")) last = nframes - 1

vload $v file

set term pngcairo size 640,480
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
unset key
do for [i=first:last] {
    set output sprintf("turn_%03d.png", i)
    set view 60, 360.0*i/nframes
    splot $v with isosurface level 3, $v with isosurface level -3
}
print sprintf("drew frames %d to %d of %d from %s", first, last, nframes, file)
