# iteration at the end of the 64-bit integers ends instead of wrapping around (the
# counter would overflow after the last value); real limits are truncated as gnuplot
# truncates them
do for [i=9223372036854775806:9223372036854775807] { print i }
do for [i=1.7:3.2] { print i }
print "end"
