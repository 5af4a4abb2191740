# a syntax error on the last line stops the script before the first line runs
print "line 2 is not printed"
do for [i = 1:3] { print i }
a = 1
b = 2
c = a +* b
