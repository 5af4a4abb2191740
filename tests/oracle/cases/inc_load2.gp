# helper for s08 (not a case): nested load
print "in inc_load2.gp"
load "inc_load.gp"
print "back in inc_load2.gp"
