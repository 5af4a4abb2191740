# vfill from text files read in parts (exec/fill_text.c): comments, blank and double blank
# lines, index, every, skip, $0 in the coordinates and in the value, column(-1)/column(-2),
# radii whose bricks cross slab planes, rows outside the grid; a CSV file with
# commentschars, missing values, empty fields, a leading '+'. Voxel values against gnuplot
# at 1-3 ranks.
# oracle: np=1,2,3 threads=1,2
set vgrid $g size 10
set vxrange [0:9]; set vyrange [0:9]; set vzrange [0:9]
do for [case=1:8] {
  vclear
  if (case==1) { vfill "data_text_rows.dat" using 1:2:3:4:($5) }
  if (case==2) { vfill "data_text_rows.dat" skip 7 using 1:2:3:4:($5*2+$0) }
  if (case==3) { vfill "data_text_rows.dat" index 1:4:2 using 1:2:3:4:($5) }
  if (case==4) { vfill "data_text_rows.dat" every 2:1:1 using 1:2:3:4:($5) }
  if (case==5) { vfill "data_text_rows.dat" using ($0/10):(column(-1)):(column(-2)):(1.2):($5) }
  if (case==6) { vfill "data_text_rows.dat" every ::1::3 using ($1+$0/20):2:3:4:(VoxelDistance+$5) }
  if (case==7) { vfill "data_text_rows.dat" every 3:2 using ($0/3):(column(-1)/2):3:(0.7):($5-$1+$0/7) }
  if (case==8) {
    set datafile separator ","; set datafile missing "NA"; set datafile commentschars "#!"
    vfill "data_text_rows.csv" skip 1 using 1:2:3:4:($5)
    unset datafile separator; unset datafile missing; set datafile commentschars
  }
  do for [i=0:9] { do for [j=0:9] { do for [k=0:9] {
    v = voxel(i,j,k)
    if (v != 0) { print sprintf("%d %d %d %d %.9g", case, i, j, k, v) }
  } } }
}
