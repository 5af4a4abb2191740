# stats with no usable rows warns (as gnuplot) and leaves no STATS_ variable behind
$d << EOD
1 2
2 4
EOD
stats $d using 1 nooutput
print exists("STATS_records"), STATS_records
stats $d index 1 using 1:2 nooutput
print exists("STATS_records"), exists("STATS_slope")
stats [*:*][10:20] $d using 1:2
print exists("STATS_records")
