# A checkpoint ParaView opens by itself (tests/io/run_h5_vtkhdf.sh, check_vtkhdf.py).
# Node (i,j,k) of $a holds i + 20*j + 400*k + 0.25, of $c the negative; node coordinates
# are exact binary fractions (spacings 0.5, 2 and 0.25), so gnuplot's ceil mapping hits
# node (i,j,k) exactly. $a and $c share size and ranges (one ImageData in /VTKHDF); $s
# has another size and is only under /grids and in the XDMF sidecar.
set term pngcairo size 160,120
set vgrid $a size 12
set vxrange [-1:4.5]
set vyrange [0:22]
set vzrange [10:12.75]
do for [k=0:11] {
    do for [j=0:11] {
        do for [i=0:11] {
            voxel(-1 + i*0.5, j*2, 10 + k*0.25) = i + 20*j + 400*k + 0.25
        }
    }
}
set vgrid $c size 12
set vxrange [-1:4.5]
set vyrange [0:22]
set vzrange [10:12.75]
do for [k=0:11] {
    do for [j=0:11] {
        do for [i=0:11] {
            voxel(-1 + i*0.5, j*2, 10 + k*0.25) = -(i + 20*j + 400*k + 0.25)
        }
    }
}
set vgrid $s size 5
set vxrange [0:1]
set vyrange [0:1]
set vzrange [0:1]
voxel(0.5, 0.5, 0.5) = 7
set vgrid $a
# a plot after grid changes makes the checkpoint
set output "vtkhdf.png"
splot $a with points above 1e9
