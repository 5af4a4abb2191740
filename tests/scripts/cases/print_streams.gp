# print writes to stderr unless `set print "-"` sends it to stdout (rank 0 only).
print 1/2, 1.0/3, 10**6, "a"."b", 2**0.5
print -7/2, -7%3, 1e10
set print "-"
print "to stdout"
set print
print "back to stderr"
