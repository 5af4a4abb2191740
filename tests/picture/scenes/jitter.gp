# The whole grid as jittered points (article a3 at a small size).
load "common_small.gp"
set jitter spread 0.3
set out "jitter.png"
splot $v with points above -10**6 pt 7 ps 0.4 lc palette
