# a zlib level outside 0..9 is a located error when the `set term` runs (README "Plotting")
print "before"
set term pngcairo compression 12
print "not reached"
