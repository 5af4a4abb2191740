# gnuplot 5.4 still reads the old `set noNAME ...` as `unset NAME ...`, silently
set key box
set nokey
show key
set logscale x
set nolog x
set nomztics
set nomcbtics
set nocontour
set title "T"
set notitle
show title
set print "p.txt"
set noprint
print "to stderr again"
set table "t.txt"
set notable
print "done"
