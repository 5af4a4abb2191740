# a datablock whose terminator line never comes runs to the end of the file, as in
# gnuplot 5.4 (which says nothing); pvox warns, since the lines after it are data
print "printed"
$charges << EOD
0 0 0.75 1
0 0 0.25 -1
ENDD
print "data, not a command"
