# `with labels`: each row's text at its point (a text column, or a string expression),
# `offset`, `tc`, `left`, `rotate by`, in front of the data; the key lists the labels
# plot's title without a sample.
$d << EOD
0 0 0 alpha
1 0 0.5 beta
0.5 1 1 gamma
EOD
splot $d with points pt 7, $d using 1:2:3:4 with labels offset 0,1 tc rgb "red" notitle, \
      $d using 1:2:3:(sprintf("%.1f",$3)) with labels left rotate by 30
