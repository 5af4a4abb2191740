# a syntax error inside an eval'd string is found when the eval runs
print "before"
eval "print (1"
