# A canvas too large for the memory limit: exit code 3 on every rank, located at the plot
set term pngcairo size 65535,65535
set output "huge.png"
plot x
