# load: runs a file in the current context
# oracle: mpi
loaded = 0
load "inc_load.gp"
print "loaded = ", loaded, " lf(2) = ", lf(2)
print $fromload
load "inc_load2.gp"
print "loaded = ", loaded
name = "inc_load.gp"
load name
load "inc_"."load.gp"
print "loaded = ", loaded
do for [i = 1:2] { load "inc_load.gp" }
print "loaded = ", loaded
