# A negative threshold keeps the negative nodes but not the -100 background; a colour
# with alpha (0x80: opacity 0.5) over white (GP-6.2).
load "count_grid.gp"
splot $g with points above -10 pt 7 ps 1 lc rgb "#80FF0000"
