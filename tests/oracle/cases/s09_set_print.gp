# set print: file, append, datablock, stdout
# oracle: mpi
print "to stderr"
set print "p_out.txt"
print "line one"
print 1, 2.5, "three"
set print
print "back on stderr"
set print "p_out.txt" append
print "appended"
unset print
set print "p_new.txt"
print "new file"
set print
set print $collected
do for [i = 1:3] { print i, i * i }
unset print
print "collected ", |$collected|, " lines:"
print $collected
set print $collected append
print "4 16"
set print
print $collected
set print $fresh
print "first"
set print $fresh
print "replaced"
set print
print $fresh
set print "-"
print "to stdout"
print 42
set print
print "stderr again"
set print "p_loop.txt"
do for [x = 0:2] { do for [y = 0:1] { print x, y, x + y } }
set print
