# the article's scripts without their plots (the preliminaries and the animation loop of
# examples/dipole.gp, the scripting facts of GP-11, without the pvox extension GridDistance)
# oracle: mpi
set term pngcairo size 800,600
set xrange [0:1]; set yrange [0:1]; set zrange [0:1]
set view 65,40
set xyplane at -0.1
set border 4095
unset key
$charges << EOD
0 0 0.75 1
0 0 0.25 -1
EOD
set palette define (0 "red", 0.5 "white", 1 "blue")
pot(r) = r > 0 ? 1/r : 10**6
print "pot(0)=", pot(0), " pot(2)=", pot(2), " pot(2.)=", pot(2.), " pot(0.5)=", pot(0.5)
print "above ", -10**6
do for [j=0:9] {
    name = "slfr" . gprintf('%02g', j) . '.png'
    print name, " x=", j/9.
}
do for [j=0:99:33] { print "out/slfr" . gprintf('%02g', j) . '.png' }
set style fill transparent solid 0.4
set pm3d depthorder
set jitter spread 0.3
set samples 100, 100
set isosamples 100, 100
set cbrange [-3:3]
print "gprintf('%02g', j) for j=0,5,10,99,100: ", gprintf('%02g',0), " ", gprintf('%02g',5), " ", gprintf('%02g',10), " ", gprintf('%02g',99), " ", gprintf('%02g',100)
print "sprintf('%02g', 7) = ", sprintf('%02g', 7)
print "gprintf('%02g', 2.5) = ", gprintf('%02g', 2.5), "   gprintf('%02g', 1e6) = ", gprintf('%02g', 1e6)
name = 'frame' . gprintf('%02g', 3) . '.png'
print "concatenation: ", name
print "10**6 = ", 10**6, "  10**-1 = ", 10**-1, "  2**0.5 = ", 2**0.5, "  (-8)**(1./3) = ", (-8)**(1./3)
print "10^6 (bitwise XOR!) = ", 10^6
print "1/2 = ", 1/2, "  1/2. = ", 1/2., "  -7/2 = ", -7/2, "  -7%3 = ", -7%3
n = 0
do for [j=0:99] { n = n + 1 }
print "do for [j=0:99] iterations: ", n, "  exists(\"j\") after loop: ", exists("j")
n = 0
do for [j=0:9:3] { n = n + 1 }
print "do for [j=0:9:3] iterations: ", n
print "ternary precedence: 1 ? 2 : 3 + 10 = ", (1 ? 2 : 3 + 10)
print "exists('VoxelDistance') = ", exists('VoxelDistance')
print "datablock:"
print $charges
print "|$charges| = ", |$charges|
print "10**20 = ", 10**20, "  2**62 = ", 2**62, "  2**63 = ", 2**63
v = "voxel($1,$2,$3)"
print "macro text: ", v
dx = 1.0/19
print "dx = ", dx
set print "cube20.dat"
do for [i=0:3] { do for [j=0:3] { do for [k=0:3] { print i*dx, j*dx, k*dx } } }
set print
print "wrote cube20.dat"
