# unset vgrid needs a name
set vgrid $g size 10
unset vgrid
