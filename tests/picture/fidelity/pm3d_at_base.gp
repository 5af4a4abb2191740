# `set pm3d at b`: the surface's quads flattened onto the base plane, coloured by their
# own z (unlit); `unset surface` leaves the surface itself out.
unset key; unset colorbox
set pm3d at b
unset surface
set samples 7; set isosamples 6
splot [-2:2][-2:2] exp(-(x*x + y*y)/2)
