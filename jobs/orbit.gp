# pvox job script for jobs/restart.sbatch: a frame sequence whose grid changes before
# every frame (two opposite charges turning about the z axis), so that a job stopped
# midway must resume from its checkpoint to draw the same pictures.
#
# The job passes the sizes with -e, before this script:
#     srun pvox -e 'N = 128; nframes = 48' ... jobs/orbit.gp
# Without them: a 128³ grid and 48 frames, orbit_000.png ... orbit_047.png.
# Keep N and nframes when a stopped job is run again: the checkpoint records this
# script's text, not the -e commands.

if (!exists("N")) N = 128
if (!exists("nframes")) nframes = 48

set term pngcairo size 640,480
set vgrid $v size N
set vxrange [-1:1]; set vyrange [-1:1]; set vzrange [-1:1]
$charges << EOD
0.45 0 0 1
-0.45 0 0 -1
EOD
set view 60, 30
unset key

do for [i=0:nframes-1] {
    a = 2*pi*i/nframes
    vclear $v
    # each charge adds a Gaussian bump within radius 0.5 of its turned position
    vfill $charges using ($1*cos(a)):($1*sin(a)):(0.3*sin(2*a)):(0.5):($4*exp(-VoxelDistance**2/0.03))
    set output sprintf("orbit_%03d.png", i)
    splot $v with isosurface level 0.3, $v with isosurface level -0.3
}
print sprintf("drew %d frames of a %d^3 grid", nframes, N)
