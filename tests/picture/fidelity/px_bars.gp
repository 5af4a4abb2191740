# 2D boxes and error bars: solid bars with their border under y, x and xy error bars
# (delta and low/high forms; bars cut at the range lose their caps), with the key's
# error-bar samples. Checked pixel by pixel.
set key top left
set style fill solid 0.4 border
set yrange [0:11]
$d << EOD
1 5 0.5
2 7 1
3 6 0.3
5 8 4
EOD
plot $d with boxes lc rgb "gray" title "bars", \
     $d using 1:2:3 with yerrorbars pt 7 title "y", \
     $d using ($1+0.3):($2-2):3 with xerrorbars title "x", \
     $d using ($1+0.1):($2-4):($1):($1+0.4):($2-4.5):($2-3) with xyerrorbars title "xy"
