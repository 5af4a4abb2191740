# --checkpoint / --resume (tests/io/run_ckpt.sh): two fills, a voxel() write and two plots;
# with -e "crash=1" the job stops (exit status 3) after the first plot
set term pngcairo size 320,240
set vgrid $v size 32
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
$c << EOD
0.5 0.5 0.5 1
EOD
vfill $c using 1:2:3:(0.3):($4*exp(-VoxelDistance**2/0.02))
set output "f1.png"
splot $v with points above 0.5 pt 7 ps 0.3
if (exists("crash")) { exit status 3 }
vfill $c using 1:2:3:(0.2):(10)
voxel(0.5,0.5,0.5) = 42
set output "f2.png"
splot $v with points above 5 pt 7 ps 0.3
print voxel(0.5,0.5,0.5), " ", voxel(0.55,0.5,0.5), " ", voxel(0.1,0.1,0.1)
show vgrid
