# set grid: drawn at the major tics; the kinds pvox does not draw are named in one warning,
# the script continues; show grid prints as gnuplot does
print "before"
set grid
show grid
set grid xtics ytics mztics vertical
set grid polar
show grid
unset grid
show grid
print "continues"
