# Enhanced text (pngcairo's default `enhanced`) in the title, the axis labels and labels:
# sub- and superscripts (nested), {/Symbol} Greek and octal codes, size and style
# changes, escapes, phantom (@), hidden (&) and overprinted (~) text, justified and
# rotated.
set title "E_0 = mc^2, {/Symbol a}_{ij} x^{10}"
set xlabel "{/Symbol D}x_1 [m]"
set ylabel "y^{2} {/*0.8 (scaled)}"
set zlabel "{/:Bold z} \\_ {/:Italic t}"
set label 1 "{/=16 big} {/Symbol abgd \\245} a\\_b" at screen 0.05, 0.92
set label 2 "x@^2_i ~a{.8-} &{xx}end" at screen 0.95, 0.08 right
set label 3 "T_{rot}^{(2)}" at screen 0.93, 0.5 rotate by 90 centre
unset key; unset colorbox
set samples 2; set isosamples 2
splot x*y with points pt 7
