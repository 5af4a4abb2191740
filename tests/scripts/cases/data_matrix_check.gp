# --check: matrix and binary options that gnuplot accepts pass, its refusals are located
$d << EOD
1 2
3 4
EOD
plot $d matrix rowheaders columnheaders using 1:2:3 with image pixels
splot 'f.bin' binary array=(128,128) flip=y format='%uchar%*uchar%2uchar' origin=(-10,-10,0) dx=0.156 dy=0.2 using ($1+$2)/3 with image
plot 'f.bin' binary array=128x64 flipy rotation=-90d center=(201,201) endian=swap skip=16 transpose with rgbimage
plot 'f.bin' binary record=100:100 format="%float%double" using 1:2 every 2 with lines
splot 'f.dat' nonuniform matrix index 1 every 2:2 using 2:1:3
plot $d binary
plot $d columnheaders
plot 'f.bin' binary format='%quux'
plot 'f.bin' binary skip=1 skip=2
plot 'f.bin' binary filetype=tiff
plot 'f.bin' binary array=(4,4) matrix
plot 'f.dat' matrix matrix
plot 'f.bin' binary skip 3
