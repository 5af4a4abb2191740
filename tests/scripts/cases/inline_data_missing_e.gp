# inline data '-': a block that no line 'e' ends runs to the end of the file. gnuplot 5.4
# reads it silently and gives later '-' sources no data; pvox does the same and warns, as
# a forgotten `e` turns the rest of a script into data.
set table
plot '-' using 1:2 with table, '-' using 1:2 with table
1 2
3 4
print "this line is data, not a command"
5 6
