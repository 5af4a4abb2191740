# `eval` of a command reading inline data '-': gnuplot 5.4 reads standard input; pvox
# stops with an error
set table
eval "plot '-' using 1:2 with table"
