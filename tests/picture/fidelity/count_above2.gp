# `above 2` is strict (the four nodes holding exactly 2 are not drawn) and an explicit
# colour range (GP-6.1, GP-6.2).
load "count_grid.gp"
set cbrange [-5:5]
splot $g with points above 2 pt 7 ps 1 lc palette
