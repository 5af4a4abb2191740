# `exit status N` ends the run with exit code N on every rank; later commands do not run.
do for [i=1:3] { print "step ", i }
exit status 3
print "not reached"
