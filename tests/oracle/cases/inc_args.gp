# helper for s06 (not a case): prints what call passed
print "ARGC=", ARGC, " ARG0=", ARG0
print "ARG1=[", ARG1, "] ARG2=[", ARG2, "] ARG3=[", ARG3, "]"
