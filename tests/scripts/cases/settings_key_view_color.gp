# set key placements, set view projection and colour specs `lt N` / `ls N` / `default`;
# the ignored ones warn once per name
set key below
set key outside below samplen 0.6
set key under Left reverse
set key opaque fc rgb "gray" box lt 2 lw 3
show key
set view projection xz
show view
print GPVAL_VIEW_ROT_X, GPVAL_VIEW_ROT_Z, GPVAL_VIEW_SCALE, GPVAL_VIEW_AZIMUTH
set view projection yz
print GPVAL_VIEW_ROT_X, GPVAL_VIEW_ROT_Z, GPVAL_VIEW_SCALE, GPVAL_VIEW_AZIMUTH
set view projection xy
show view
set style line 5 lc rgb "orange"
set title "T" tc lt 1
show title
set xlabel "x" textcolor ls 5
show xlabel
set cblabel "c" tc lt -2
show cblabel
set title "T" tc default
show title
set contours base
set cntrparam levels incremental 0, 0.1, 1 firstlinetype 2 unsorted
set cntrlabel onecolor
set contour surface
set mcbtics 2
set fit quiet
unset fit
set fit logfile "fit.log"
print "done"
