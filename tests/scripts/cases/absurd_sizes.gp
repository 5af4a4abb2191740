# absurd font, point and line sizes: the font is drawn at 1000 pt and markers at
# 65536 px (beyond any canvas: the terminal's integer arithmetic no longer overflows)
# and the script runs on, as in gnuplot
set term pngcairo size 200,150 font ",1e9"
set output "big.png"
set samples 3; set isosamples 3
set pointsize 1e9
splot x*y with points, x*y with lines lw 1e9
print "went on"
