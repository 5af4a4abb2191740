# set view projection takes xy, xz or yz (gnuplot's words for anything else)
set view projection xz
show view
set view projection zz
