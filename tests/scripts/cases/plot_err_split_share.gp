# An error in the last rows of a '++' element only: whichever rank evaluates those rows,
# every rank count reports it at the same place and stops.
set term pngcairo size 200,150
set out "err.png"
set urange [0:1]; set vrange [0:1]
set samples 20; set isosamples 20
splot "++" using 1:2:($1 > 0.9 && $2 > 0.9 ? nosuch : 0) with pm3d
print "not reached"
