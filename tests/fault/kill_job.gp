# A grid changed and drawn in a loop, for killing a rank mid-job: with --checkpoint every
# vfill is saved, and --resume must end with the grid and frames of an uninterrupted run
# (tests/fault/kill_rank.sh under mpiexec, tests/slurm/run_slurm.sh under srun).
set term pngcairo size 480,360
set vgrid $v size 64
set vxrange [-1:1]; set vyrange [-1:1]; set vzrange [-1:1]
$src << EOD
-0.5 -0.3 0.1 1.0
0.4 0.2 -0.2 0.7
0.0 0.5 0.4 -0.6
EOD
do for [i=0:23] {
    vfill $src using ($1+0.03*i):($2-0.02*i):($3+0.01*i):(0.35):($4*exp(-VoxelDistance**2/0.05))
    set output sprintf("f%02d.png", i)
    set view 60, 30+3*i
    splot $v with isosurface level 0.3*(1+0.05*i)
}
