# pvox job script for jobs/fill_1024.sbatch: fill the potential of the dipole of
# examples/dipole.gp (charges +1 at z = 0.75 and -1 at z = 0.25 on the z axis) into an
# N³ voxel grid and save the grid to an HDF5 checkpoint.
#
# The job passes N and the file name with -e, before this script:
#     srun pvox -e 'N = 1024; file = "dipole_1024.h5"' jobs/fill_dipole.gp
# Without them it fills 1024³ into dipole_1024.h5.

if (!exists("N")) N = 1024
if (!exists("file")) file = sprintf("dipole_%d.h5", N)

$charges << EOD
0 0 0.75 1
0 0 0.25 -1
EOD
# potential of a unit charge, finite at the charge itself
pot(r) = r > 0 ? 1/r : 10**6

set vgrid $v size N
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
# each charge adds q/r to every voxel within radius 2, i.e. the whole box
vfill $charges using 1:2:3:(2):($4*pot(VoxelDistance))
print sprintf("potential at (0.5, 0.5, 0.75) = %.6g", voxel(0.5, 0.5, 0.75))

# the grid $v with its ranges; pvox also writes the XDMF sidecar (file with .xmf) that
# ParaView opens
vsave $v file
print sprintf("saved %d^3 grid $v to %s", N, file)
