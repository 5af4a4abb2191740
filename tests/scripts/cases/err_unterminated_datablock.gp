# a datablock whose terminator line never comes
print "not printed"
$charges << EOD
0 0 0.75 1
0 0 0.25 -1
ENDD
