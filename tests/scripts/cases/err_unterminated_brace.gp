# a block opened with '{' and never closed
print "not printed"
do for [i = 1:3] {
    print i
