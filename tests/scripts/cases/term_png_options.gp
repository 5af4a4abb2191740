# pvox extension (README "Plotting"): `set term pngcairo compression N filter F` sets the
# PNG encoder's zlib level and row filter; `show term` prints them when not default; they
# stay when the same terminal is set again and reset when the terminal type changes
set term pngcairo size 64,48 compression 9 filter paeth
show term
$d << EOD
0 0 0
1 1 1
EOD
set output "term_png_options.png"
splot $d with points
set term pngcairo font ",9"
show term
set term png compression 0 filter adaptive
show term
set term pngcairo
show term
