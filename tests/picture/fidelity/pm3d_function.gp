# A function surface drawn with pm3d: quads between the isosamples lines along x only
# (samples points each; the lines along y add no quads), coloured by z.
unset key; unset colorbox
set samples 7, 6
set isosamples 5, 4
splot [-2:2][-1:1] x*y + x with pm3d
