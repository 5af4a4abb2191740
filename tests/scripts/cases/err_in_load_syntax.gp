# a syntax error in a loaded file: the main script ran up to the load
print "main before"
load "err_in_load_syntax.inc"
print "not reached"
