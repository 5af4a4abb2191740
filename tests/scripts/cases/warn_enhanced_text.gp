# gnuplot's enhanced text markup is printed as written: named once per script, the
# picture is still drawn (titles of plot elements are not enhanced by gnuplot either)
set output "e.png"
set title "E_0 and x^2"
splot x*y title "a_b"
set xlabel "{/Symbol a}"
splot x*y
set title "E_0" noenhanced
set xlabel ""
splot x*y
print "went on"
