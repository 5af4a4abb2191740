# an error in a loaded file is reported with that file's name and line
print "main before"
load "err_in_load.inc"
print "not reached"
