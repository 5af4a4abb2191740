# a loop step of zero would never end
print "before"
do for [i = 1:3:0] { print i }
