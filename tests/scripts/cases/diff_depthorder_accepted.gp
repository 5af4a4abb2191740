# set pm3d depthorder and set term png/pngcairo are accepted silently (DEC-8, DEC-10)
set pm3d depthorder
set term png size 320,240
set term pngcairo size 800,600 background "white"
print "ok"
