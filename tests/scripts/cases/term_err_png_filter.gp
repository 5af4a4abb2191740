# an unknown PNG filter name is a syntax error found before anything runs (README "Plotting")
print "not printed: the script is checked first"
set term pngcairo filter best
