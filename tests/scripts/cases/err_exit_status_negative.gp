# a negative exit status is a located error too (DIFF-23)
exit status -1
