# inline data '-': the lines after the command up to a line starting with e/E (leading
# blanks allowed, "end" too), one block per '-' source in order, in plot/splot/replot/stats;
# data lines that look like commands, comments, blank lines, every/index, iterations.
# oracle: mpi
set table "s44_plot.txt"
plot '-' using 1:2 with lines, "-" using 1:2 title "second"
1 2
2 4.5
3 1
e
10 -1
print "a data line, not a command"
11 -2.5
# a comment line
12 7
end
print "after two blocks"
plot '-' u 1:($2*2) every 2 ; print "after ;"
1 1
2 2
3 3
4 4
5 5
  E
plot '-' using 1:2 index 1 title '-', \
     '-' using 2:1
1 1
2 2


3 9
4 16
5 25
	e
6 7
8 9
e
plot for [i=1:3] '-' using 1:(column(2) + i), for [s in "x y"] '-' u 1:2 title s
1 10
2 20
e
3 30
4 40
e
5 50
6 60
e
7 70
8 80
e
9 90
10 100
e
if (1 > 0) plot '-' u 1:2 ; plot '-' u 2:1
21 22
23 24
e
25 26
27 28
e
plot '-' u 1:2 w lines
1 2
2 3
e
replot '-' u 1:2
3 4
4 6
e
5 6
6 8
e
unset table
set table "s44_splot.txt"
splot '-' using 1:2:3 with points
1 2 3
4 5 6
7 8 10
e
replot
2 3 4
5 6 7
e
replot '-' using 1:2:3 with points
3 4 5
6 7 8
e
9 8 7
6 5 4
e
unset table
stats '-' using 1:2
1 2
2 4
3 6.5
4 8
e
print STATS_records, STATS_mean_x, STATS_mean_y
stats "-" using 1 nooutput name "S"
5
7
plot sin(x)
9
e
print S_records, S_invalid, S_mean, S_sum
