# `with rgbimage` and `rgbalpha` from x y r g b {a} rows (x varies fastest), a
# semi-transparent image over an opaque one, in 2D with a fixed range that cuts pixels
# at the border; no key. Checked pixel by pixel.
unset key
set xrange [-0.25:3.6]; set yrange [-0.4:2.5]
set print $rgb
do for [j=0:2] { do for [i=0:3] { print sprintf("%d %d %d %d %d", i, j, 60*i, 100*j, 200) } }
set print $rgba
do for [j=0:1] { do for [i=0:2] { print sprintf("%g %g 255 %d 0 %d", i+0.5, j+0.5, 120*j, 60+60*i) } }
unset print
plot $rgb with rgbimage, $rgba with rgbalpha
