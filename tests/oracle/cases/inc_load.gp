# helper for s08 (not a case): loaded file defines things and prints
print "in inc_load.gp, loaded = ", loaded
loaded = loaded + 1
lf(x) = x * 3
$fromload << EOD
10 20
EOD
