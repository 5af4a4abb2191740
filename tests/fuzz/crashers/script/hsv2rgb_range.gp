# hsv2rgb with saturation or value outside [0, 1]: a negative channel was shifted left
# (UBSan); gnuplot clamps all three arguments to [0, 1]
print hsv2rgb(0.5, 2, 1), hsv2rgb(0.5, 0.5, -1), hsv2rgb(0.2, 0.5, 1e300)
print hsv2rgb(NaN, 0.5, 1), hsv2rgb(0.3, NaN, 1), hsv2rgb(0.2, -1, 0.5)
