# datablocks: definition, |$db|, $db[i], print $db
# oracle: mpi
$charges << EOD
0 0 0.75 1
0 0 0.25 -1
EOD
print $charges
print |$charges|
$mixed << END
# a comment line
1 2 3

  4   5	6
"quoted string" 7
END
print $mixed
print "lines: ", |$mixed|
$empty << EOD
EOD
print "empty: ", |$empty|
print $empty
$charges << EOD
9 9 9 9
EOD
print "redefined: ", |$charges|
print $charges
n = |$charges| + 10
print n
$x << EOD
a
b
EOD
undefine $x
print exists("x")
print "after undefine"
