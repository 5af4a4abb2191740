# an iteration without its closing ']'
print "not printed"
do for [i = 1:3 { print i }
