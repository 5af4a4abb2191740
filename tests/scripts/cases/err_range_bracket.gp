# a range without its closing ']'
print "not printed"
set xrange [0:1
