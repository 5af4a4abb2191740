# helper for s06 (not a case): a call inside a call
print "outer ARG1=", ARG1
call "inc_args.gp" "inner"
print "outer ARG1 again=", ARG1, " ARGC=", ARGC
