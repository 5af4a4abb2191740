# the PNG is written to an unguessable temporary name, created exclusively and never
# through a link, then renamed: a link planted under the old fixed name (out.png.tmp)
# is left alone and its target is not overwritten
system "echo keep > victim.txt; ln -s victim.txt out.png.tmp"
set output "out.png"
set samples 5; set isosamples 5
splot x*y
print system("cat victim.txt; ls out.png.tmp* | wc -l")
