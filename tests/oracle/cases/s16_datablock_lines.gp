# $db[i]: one line of a datablock as a string
# oracle: mpi
$charges << EOD
0 0 0.75 1
0 0 0.25 -1
EOD
print $charges[1]
print $charges[2]
$mixed << END
# a comment line
1 2 3

  4   5	6
"quoted string" 7
END
print "line 3: [", $mixed[3], "]"
print "line 4: [", $mixed[4], "]"
do for [i = 1:|$mixed|] { print i, ": ", $mixed[i] }
print words($mixed[4]), word($mixed[4], 2)
print strlen($charges[1]), $charges[1] . "|"
n = 2
print $charges[n], " ", $charges[n - 1][1:3]
