# --check: every line gnuplot 5.4.4 accepts (gnuplot -e LINE exits 0) passes the check
# each one, carrying it out, storing it or warning once per ignored name (DEC-11)
set angles degrees
set angles radians
unset angles
set arrow 1 from 0,0 to 1,1 nohead lw 2 lc rgb "red" front
unset arrow
set autoscale
set autoscale xy
set autoscale xfix
set autoscale xfixmin
set autoscale cbfix
set autoscale keepfix
set autoscale noextend
set autoscale z
set autoscale ymax
set autoscale x2
unset autoscale
unset autoscale x
set bars 2
set bars small
set bars fullwidth
unset bars
set bmargin 3
set bmargin at screen 0.1
unset bmargin
set border
set border 31
set border 4095 front lt black lw 1 dt solid
set border 127+256+512 back
set border behind
set border lc rgb "blue" lw 2
set border polar
set border 15 linestyle 1
unset border
set boxdepth 0.5
unset boxdepth
set boxwidth 0.5 absolute
set boxwidth 0.3 relative
unset boxwidth
set cbdata time
unset cbdata
set cbdtics
unset cbdtics
set cblabel "cb"
set cblabel "cb" offset 1,0 font ",10" tc lt 3 rotate by 90
set cblabel "cb" norotate
set cblabel 'color cblabel' textcolor lt 3
unset cblabel
set cbmtics
unset cbmtics
set mcbtics
set mcbtics 2
set mcbtics default
unset mcbtics
set cbrange [0:1]
set cbrange [*:*] noreverse nowriteback
set cbrange restore
unset cbrange
set cbtics
set cbtics 0.5
set cbtics 0,0.1,1
set cbtics out nomirror scale 0.5
set cbtics ("a" 0, "b" 1)
set cbtics add ("c" 0.5)
set cbtics format "%.1f" font ",8" textcolor rgb "red"
unset cbtics
set clabel
set clabel "%8.3g"
unset clabel
set clip
set clip points
set clip one
set clip two
set clip radial
unset clip
unset clip points
set cntrlabel format "%8.3g" font ",7"
set cntrlabel start 5 interval 20
set cntrlabel onecolor
unset cntrlabel
set cntrparam linear
set cntrparam cubicspline
set cntrparam bspline
set cntrparam points 5
set cntrparam order 4
set cntrparam levels 10
set cntrparam levels auto 5
set cntrparam levels discrete 0.1, 0.2, 0.3
set cntrparam levels incremental 0, 0.1, 1
set cntrparam levels incremental 0, 0.1
set cntrparam levels 5 sorted
set cntrparam unsorted
set cntrparam firstlinetype 3
set cntrparam levels 5 firstlinetype 2 unsorted
set cntrparam
unset cntrparam
set color
set colorbox
set colorbox vertical
set colorbox horizontal
set colorbox user origin 0.1,0.2 size 0.05,0.5
set colorbox user origin screen 0.1, screen 0.2 size screen 0.05, screen 0.5
set colorbox default
set colorbox front
set colorbox back
set colorbox noborder
set colorbox bdefault
set colorbox border 3
set colorbox invert
set colorbox noinvert
unset colorbox
set colorsequence default
set colorsequence podo
set colorsequence classic
set contour
set contour base
set contour surface
set contour both
set contours
set contours base
unset contour
unset contours
set dashtype 1 (2,4)
set dashtype 2 ".-"
unset dashtype
set datafile separator ","
set datafile separator whitespace
set datafile separator tab
set datafile separator comma
set datafile missing "?"
set datafile missing NaN
set datafile commentschars "#!"
set datafile fortran
set datafile nofortran
set datafile fpe_trap
set datafile nofpe_trap
set datafile columnheaders
set datafile nocolumnheaders
unset datafile
unset datafile separator
unset datafile missing
unset datafile commentschars
set decimalsign ','
set decimalsign locale
unset decimalsign
set dgrid3d
set dgrid3d 10,10
set dgrid3d 10,10 qnorm 2
set dgrid3d 30,30 gauss 0.5
set dgrid3d splines
set dgrid3d 10,10 exp 1,1
unset dgrid3d
set dummy u,v
set dummy t
unset dummy
set encoding utf8
set encoding iso_8859_1
set encoding default
set errorbars 2
set errorbars small
unset errorbars
set fit quiet
set fit logfile "fit.log"
set fit errorvariables
set fit nolog
unset fit
set format x "%g"
set format "%.2f"
set format xy "%.1f"
set format z "%g" numeric
set format cb "%3.0f%%"
unset format
set grid
set grid xtics ytics
set grid mxtics lt 0 lw 1
set grid nocb
set grid front
set grid back
set grid layerdefault
set grid polar 15
set grid xtics lt -1 lw 0.5, lt 0 lw 0.5
unset grid
set hidden3d
set hidden3d offset 1 trianglepattern 3 undefined 1 altdiagonal bentover
set hidden3d front
set hidden3d back
set hidden3d nooffset
set hidden3d noundefined
set hidden3d noaltdiagonal nobentover
unset hidden3d
set history size 100
set historysize 100
unset historysize
set isosamples 20
set isosamples 20,30
unset isosamples
set isosurface mixed
set isosurface triangles
set isosurface insidecolor 2
set isosurface noinsidecolor
set jitter
set jitter overlap 1 spread 0.5
set jitter wrap 2 swarm
set jitter square
set jitter vertical
unset jitter
set key
set key off
set key on
set key default
set key below
set key under
set key above
set key over
set key outside below samplen 0.6
set key under Left reverse
set key inside
set key outside
set key lmargin
set key rmargin
set key tmargin
set key bmargin
set key fixed
set key at 1,2
set key at screen 0.5, screen 0.5 center
set key left top
set key right bottom
set key center center
set key left center
set key vertical
set key horizontal
set key Left
set key Right
set key enhanced
set key noenhanced
set key opaque
set key opaque fc rgb "gray"
set key noopaque
set key reverse
set key noreverse
set key invert
set key noinvert
set key samplen 2
set key spacing 1.5
set key width 2
set key height 1
set key autotitle
set key autotitle columnhead
set key autotitle columnheader
set key noautotitle
set key title "Key"
set key title "Key" enhanced center
set key title "Key" noenhanced left
set key title
set key notitle
set key font ",10"
set key textcolor rgb "red"
set key tc lt 2
set key tc variable
set key box
set key box lt 2 lw 3
set key box ls 1
set key box linewidth 2 linetype 3
set key box lc rgb "red" dt 2
set key nobox
set key maxrows 3
set key maxrows auto
set key maxcols 2
set key maxcolumns auto
set key top right box 3
set key outside right top vertical Left reverse noenhanced autotitle columnhead nobox
unset key
set label 1 "text" at 0,0 center front tc lt 2
set label "t" at graph 0.5, graph 0.5 rotate by 45 font ",8" point pt 7 offset 1,1
set label 2 "x" at 1,2,3 left norotate back textcolor rgb "red" boxed
unset label
unset label 1
set linetype 1 lc rgb "red" lw 2 pt 7
set linetype 3 lc rgb "blue" dt 2
set linetype cycle 8
unset linetype
unset linetype 1
set link x2
set link y2 via y**2 inverse sqrt(y)
unset link x2
set lmargin 10
set lmargin at screen 0.1
unset lmargin
set log
set log x
set logscale xy 2
set logscale z
set logscale cb
set logscale x 10
unset logscale
unset logscale x
unset log
set macros
unset macros
set mapping cartesian
set mapping spherical
set mapping cylindrical
unset mapping
set margin 1,1,1,1
set margins 1,2,3,4
unset margin
unset margins
set micro
unset micro
set minussign
unset minussign
set monochrome
set monochrome lt 1 lw 2
unset monochrome
set mouse
unset mouse
set mttics
unset mttics
set multiplot layout 2,2
unset multiplot
set mx2tics
unset mx2tics
set mxtics
set mxtics 4
set mxtics default
unset mxtics
set my2tics
unset my2tics
set mytics 2
unset mytics
set mztics
set mztics 5
unset mztics
set nonlinear x via log10(x) inverse 10**x
unset nonlinear x
set object 1 rectangle from 0,0 to 1,1 fc rgb "red" fs solid 0.5 behind
set object 2 circle at 0,0 size 1 front
unset object
unset object 1
set offsets 0,0,0,0
set offsets 0.1, 0.1, graph 0.1, graph 0.1
unset offsets
set origin 0,0
set origin 0.5,0.5
unset origin
set overflow float
set overflow NaN
set overflow undefined
unset overflow
set palette
set palette rgbformulae 7,5,15
set palette rgb 33,13,10
set palette defined (0 "blue", 1 "white", 2 "red")
set palette defined (0 0 0 1, 1 1 1 1)
set palette defined
set palette cubehelix start 0.5 cycles -1.5 saturation 1
set palette cubehelix
set palette gray
set palette grey
set palette color
set palette negative
set palette positive
set palette nops_allcF
set palette ps_allcF
set palette maxcolors 8
set palette maxcolors 0
set palette gamma 1.5
set palette model RGB
set palette model HSV
set palette model CMY
set palette model HSV rgbformulae 3,2,2
set palette functions gray, 1, 1-gray
unset palette
set parametric
unset parametric
set paxis 1 range [0:1]
unset pixmap
set pm3d
set pm3d at s
set pm3d at b
set pm3d at bst
set pm3d implicit
set pm3d explicit
set pm3d depthorder
set pm3d depthorder base
set pm3d border lc rgb "black" lw 0.5
set pm3d border retrace
set pm3d noborder
set pm3d lighting
set pm3d lighting primary 0.5 specular 0.2 spec2 0.3
set pm3d nolighting
set pm3d interpolate 2,2
set pm3d corners2color mean
set pm3d corners2color geomean
set pm3d corners2color harmean
set pm3d corners2color rms
set pm3d corners2color median
set pm3d corners2color min
set pm3d corners2color max
set pm3d corners2color c1
set pm3d corners2color c4
set pm3d clip z
set pm3d clip1in
set pm3d clip4in
set pm3d ftriangles
set pm3d noftriangles
set pm3d scansautomatic
set pm3d scansforward
set pm3d scansbackward
set pm3d hidden3d 1
set pm3d nohidden3d
set pm3d flush begin
set pm3d flush center
set pm3d flush end
set pm3d map
set pm3d noclipcb
set pm3d clipcb
set pm3d transparent
set pm3d solid
set pm3d at s depthorder hidden3d 100
unset pm3d
set pointintervalbox 2
unset pointintervalbox
set pointsize 2
unset pointsize
set polar
unset polar
set raxis
unset raxis
set rgbmax 255
set rgbmax 1.0
set rlabel "r"
set rmargin 2
unset rmargin
set rrange [0:1]
set rtics
unset rtics
set samples 200
set samples 100,200
unset samples
set size 1,1
set size square
set size ratio 1
set size ratio -1
set size noratio
set size nosquare
unset size
set spiderplot
unset spiderplot
set style data lines
set style data points
set style data linespoints
set style data dots
set style data impulses
set style data pm3d
set style data boxes
set style function lines
set style line 1 lc rgb "red" lw 2 pt 7 ps 1.5
set style line 2 lt 2 dt 3
set style line 3 default
set style line 4 linecolor palette z
set style fill solid 0.5
set style fill solid 0.5 noborder
set style fill transparent solid 0.5 border lc rgb "black"
set style fill pattern 2
set style fill empty
set style fill border -1
set style arrow 1 head filled size 0.1,20 lw 2
set style rectangle fc rgb "red" fs solid
set style circle radius 0.1
set style ellipse size 0.1,0.2 angle 30
set style histogram clustered gap 1
set style histogram rowstacked
set style boxplot outliers pt 7
set style textbox opaque noborder
set style increment default
set style parallelaxis lw 2
set style spiderplot fs empty
unset style line
unset style line 1
unset style fill
unset style arrow
set surface
set surface implicit
set surface explicit
unset surface
set terminal pngcairo size 800,600 enhanced font "Arial,12"
set terminal png size 640,480 truecolor
set termoption enhanced
set termoption noenhanced
set theta top clockwise
set tics
set tics out
set tics in
set tics front
set tics back
set tics nomirror
set tics mirror
set tics rotate by 45
set tics norotate
set tics offset 1,0
set tics nooffset
set tics left
set tics center
set tics autojustify
set tics format "%g"
set tics font ",8"
set tics textcolor rgb "red"
set tics scale 2
set tics scale 2,1
set tics scale default
set tics axis
set tics border
unset tics
set ticscale 1
set ticslevel 0
set ticslevel 0.5
unset ticslevel
set timefmt "%Y"
set timestamp
set timestamp "%d/%m/%y" top offset 1,1 font ",8" tc lt 1
unset timestamp
set title "T"
set title "T" offset 0,1 font ",14" tc lt 1 enhanced
set title "T" noenhanced
set title "T" textcolor rgb "red"
set title "T" tc ls 1
set title "T" tc palette z
set title "T" tc palette cb 0.5
set title "T" tc palette frac 0.5
set title "T" tc default
set title "T" tc variable
set title "T" tc lt -1
set title "T" tc black
set title "T" tc bgnd
set title "T" tc "red"
set title "T" tc rgb 0xff0000
set title "T" tc rgb "#80ff0000"
set title "T" left
set title "T" right
set title "T" center
set title "Textcolor options in 2D plot (notice this title in color)" tc lt 1
unset title
set tmargin 2
unset tmargin
set trange [0:1]
unset trange
set ttics
unset ttics
set urange [0:1]
unset urange
set view 60,30
set view 60,30,1,1
set view 60
set view ,30
set view ,,2
set view ,,,2
set view map
set view map scale 1.2
set view projection xz
set view projection yz
set view projection xy
set view equal xy
set view equal xyz
set view equal
set view noequal
set view azimuth 30
unset view
set vrange [0:1]
unset vrange
set walls
set wall z0 fc rgb "slategrey" fs transparent solid 0.5
set walls x0
unset walls
set x2data time
set x2dtics
set x2label "x2"
unset x2label
set x2mtics
set x2range [0:1]
set x2tics
unset x2tics
set x2zeroaxis
unset x2zeroaxis
set xdata time
set xdata
unset xdata
set xdtics
unset xdtics
set xlabel "x"
set xlabel "x" offset 1,1 font "Arial,10" textcolor lt 4 norotate
set xlabel "x" rotate by 30
set xlabel "x" rotate parallel
set xlabel "x" noenhanced
set xlabel 'color of xlabel should be lt 4' tc lt 4
set xlabel "x" tc ls 2
unset xlabel
set xmtics
unset xmtics
set xrange [0:1]
set xrange [*:*]
set xrange [1:0] reverse
set xrange [0:1] writeback
set xrange restore
set xrange [:10]
set xrange [0:]
unset xrange
set xtics
set xtics 1
set xtics 0,1
set xtics 0,1,10
set xtics axis
set xtics border
set xtics mirror
set xtics nomirror
set xtics in
set xtics out
set xtics scale 1.5
set xtics scale 1,0.5
set xtics scale default
set xtics rotate
set xtics rotate by 45
set xtics norotate
set xtics offset 0,-1
set xtics nooffset
set xtics left
set xtics right
set xtics center
set xtics autojustify
set xtics add ("pi" 3.14)
set xtics autofreq
set xtics ("a" 1, "b" 2 1, 3)
set xtics format "%.1f"
set xtics font ",8"
set xtics enhanced
set xtics noenhanced
set xtics numeric
set xtics timedate
set xtics geographic
set xtics logscale
set xtics nologscale
set xtics rangelimited
set xtics norangelimited
set xtics textcolor rgb "red"
set xtics tc lt 2
set xtics out nomirror rotate by -45 offset 0,0 scale 0.5 format "%g" font ",9" textcolor rgb "blue"
unset xtics
set xyplane 0
set xyplane at 0
set xyplane relative 0.5
unset xyplane
set xzeroaxis
set xzeroaxis lt 1 lw 2
unset xzeroaxis
set y2data
set y2dtics
set y2label "y2"
set y2mtics
set y2range [0:1]
set y2tics
set y2zeroaxis
set ydata
set ydtics
set ylabel "y"
set ylabel "y" rotate by 90
unset ylabel
set ymtics
set yrange [0:1]
unset yrange
set ytics 0.5
unset ytics
set yzeroaxis
set zdata
set zdtics
set zero 1e-8
unset zero
set zeroaxis
set zeroaxis lt -1
unset zeroaxis
set zlabel "z"
set zlabel "z" rotate parallel
unset zlabel
set zmtics
set zrange [-1:1]
unset zrange
set ztics 0.5
set ztics out
unset ztics
set zzeroaxis
unset zzeroaxis
set nokey
set nomztics
set nomxtics
set nomcbtics
set nologscale
set nolog x
set noxtics
set noztics
set noborder
set nosurface
set nocontour
set nohidden3d
set nogrid
set notitle
set noxlabel
set noparametric
set nopolar
set nopm3d
set nolabel
set noarrow
set noclip
set noxzeroaxis
set nozeroaxis
set nocolorbox
set noxrange
set noview
set nodgrid3d
set notimestamp
set noxyplane
set nomultiplot
set nooutput
set nostyle line
set noautoscale
set nocbtics
set nomouse
set nopalette
set nosamples
set noisosamples
print "all accepted"
