# a plot iteration over inline data '-' needs constant bounds in pvox: the lexer counts
# the blocks before anything runs (gnuplot reads one block per iteration as it goes)
set table
n = 2
plot for [i=1:n] '-' using 1:2 with table
1 2
e
3 4
e
