# a setting gnuplot has but pvox does not draw: one warning, the script continues
print "before"
set grid
set grid xtics ytics
unset grid
print "continues"
