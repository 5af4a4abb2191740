# set/unset/show of view (projection xz/yz/xy, map, equal, azimuth), key placements and
# box/opaque/autotitle/max options, text elements with tc lt N / rotation, and the old
# `set noNAME` forms, compared with gnuplot 5.4 show output
set view projection xz
show view
set view projection yz
set view equal xy
show view
set view azimuth 10
show view
set view 10,20
show view
set view map
show view
set view ,,2
show view
set view projection xy
show view
unset view
show view
set view equal xyz
set view map
set view ,,2
show view
set view 60,30,1,1
set view projection xz
set view azimuth 5
show view
set view projection yz
unset view
show view
show key
set key below
show key
set key outside below samplen 0.6
show key
set key under Left reverse
show key
set key above
show key
set key tmargin left
show key
set key lmargin bottom
show key
set key rmargin center
show key
set key inside left center
show key
set key center top
show key
set key center
show key
set key fixed bottom left horizontal
show key
set key at 1,2
show key
set key outside right
show key
set key box lt 2 lw 3 opaque fc rgb "gray" noautotitle
show key
set key box lc rgb "red" dt 2 noopaque autotitle columnhead maxrows 3 maxcols 2
show key
set key box lt -1 lw 2 nobox font ",10" tc lt 2 width 2 height 1.5 spacing 1.2
show key
set key title "Key" noreverse invert Right noenhanced autotitle
show key
set key off
show key
set key default
show key
set nokey
show key
set title "T" tc lt 1
show title
set xlabel "x" textcolor lt 4
show xlabel
set cblabel "c" tc lt -1
show cblabel
set title "T" tc palette frac 0.3
show title
set title "T" tc rgb "red"
show title
set title "T" tc default
show title
set linetype 2 lc rgb "blue"
set zlabel "z" tc lt 2
show zlabel
set title "T" tc black
show title
set title "T" tc bgnd
show title
set title "T" tc lt 0
show title
show title
show xlabel
show ylabel
show zlabel
show cblabel
set ylabel "y" rotate by 30
show ylabel
set xlabel "x" rotate parallel
show xlabel
set zlabel "z" norotate font ",8" offset 1,2
show zlabel
set ylabel "y" rotate
show ylabel
set title "T"
set notitle
show title
set noborder
show border
set border
set noxlabel
show xlabel
set nosurface
show surface
set noparametric
show parametric
set nosamples
show samples
set noview
show view
set noxrange
show xrange
