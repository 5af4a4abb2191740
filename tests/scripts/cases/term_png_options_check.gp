# --check accepts pvox's PNG terminal options (README "Plotting") with png and pngcairo,
# every filter name, and an expression for the level (its range is checked when run)
set term pngcairo size 64,48 compression 9 filter paeth
set term pngcairo compression 1 filter none
set term pngcairo filter sub; set term pngcairo filter up; set term pngcairo filter average
set term png compression 2*3 filter adaptive truecolor
