# plot: a file that cannot be opened is skipped with gnuplot's warning, but one that cannot be read (a directory) stops the plot, exit 3 on every rank (README "Data sources")
set term png size 64,48
set output "skip.png"
plot "no_such_file.dat" using 1:2, "< echo 1 2" using 1:2
print "plotted"
set output "dir.png"
plot "." using 1:2
print "not reached"
