# binary data: gnuplot's binary matrix (`binary` alone), general binary with array
# (generated coordinates, dx/dy, flipy, origin, center, rotation, splot's z), record,
# format with skipped fields, endian, skip=, every, stats of binary records.
# oracle: mpi
set table "b_matrix.txt"
plot 'binary_matrix.bin' binary using 1:2:3:0:(column(-1)) with table
plot 'binary_matrix.bin' binary every 2:2 using 1:2:3 with table
unset table
set table "b_msplot.txt"
splot 'binary_matrix.bin' binary
splot 'binary_matrix.bin' binary using 1:2:($3*10)
unset table
set table "b_array.txt"
plot 'binary_rgb.bin' binary array=(6,4) format='%uchar' using 1:2:3 with table
plot 'binary_rgb.bin' binary array=(6,4) flipy format='%uchar%uchar%uchar' using ($1+$2+$3) with table
plot 'binary_rgb.bin' binary array=6x4 dx=0.5 origin=(3,4) format='%*uchar%uchar%*uchar' using 1 with table
plot 'binary_rgb.bin' binary array=(6,4) dx=2 dy=3 format='%uchar' every 2:2 using 1:2 with table
plot 'binary_rgb.bin' binary array=(6,4) rotation=90d center=(2.5,1.5) format='%3uchar' using 1:2:3 with table
plot 'binary_rgb.bin' binary array=(6,4) rotation=0.5pi format='%uchar' using 1:2 with table
plot 'binary_rgb.bin' binary array=24 format='%uchar%uchar%uchar' using 1:2 with table
unset table
set table "b_asplot.txt"
splot 'binary_rgb.bin' binary array=(6,4) flip=y format='%uchar%uchar%uchar' origin=(-10,-10,0) dx=0.25 dy=0.25 using ($1+$2+$3)/3 with lines
unset table
set table "b_record.txt"
plot 'binary_rgb.bin' binary record=10 format='%uchar' using 0:1 with table
plot 'binary_mixed.bin' binary format='%float%*int16%double' using 1:2 with table
plot 'binary_mixed.bin' binary skip=14 format='%float%*int16%double' using 0:($1+$2) with table
plot 'binary_big.bin' binary format='%int32%int16' endian=big using 1:2 with table
plot 'binary_big.bin' binary format='%int%short' endian=swap using 1:2 with table
unset table
stats 'binary_mixed.bin' binary format='%float%*int16%double' using 1:2 nooutput
print STATS_records, STATS_mean_x, STATS_mean_y, STATS_correlation
stats 'binary_matrix.bin' binary nooutput
print STATS_records, STATS_mean, STATS_max
