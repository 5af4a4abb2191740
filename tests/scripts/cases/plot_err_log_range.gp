# A log axis whose range is not positive: gnuplot's error at the plot command, on every
# rank, and the script stops there
set output "log.png"
set logscale x
set xrange [0:10]
plot x
print "not reached"
