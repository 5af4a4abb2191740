# a data source of a single column, in plot and splot: gnuplot takes the point's index as
# x (and in 3D the block's as y); pvox does not make those coordinates and draws nothing,
# and the script runs on. Eight rows fill the rows' first allocation exactly: their x, y
# and z were once read past its end (AddressSanitizer, in the sanitizer suite)
$d << EOD
1
2
3
4
5
6
7
8
EOD
set term pngcairo size 200,150
set output "single_column.png"
splot $d using 1 with lines
plot $d with points
print "went on"
