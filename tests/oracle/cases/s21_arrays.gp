# arrays (gnuplot 5.4): declaration, initializers, element assignment, |A|, print, show
# oracle: mpi
array A[3]
print A
print |A|, A[1]
A[1] = 5
A[2] = "two"
A[3] = 1.5
print A
print A[1] + 1, A[2], A[3]*2
array B[3] = [1, "two", 3.0]
print B
array C = [4, 5, 6, 7]
print C, |C|
array D[5] = [1, , "x"]
print D
array E[2] = ["a\"b", "c\\d"]
print E
A[2.7] = A[1] * 10
print A
x = 3
array x[2]
print |x|
n = 2
array F[n*2+0.5]
print |F|
do for [i = 1:|F|] { F[i] = i**2 }
print F
print sum [i = 1:|F|] F[i]
y = D[4]
print exists("y")
G = 5
array H[1] = [G]
print H
undefine C
print exists("C")
show variables A
show variables D
set print $out
print B, "after"
unset print
print $out
