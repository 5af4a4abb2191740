#!/usr/bin/env python3
"""Bad checkpoint files for the vload error cases (tests/io/run_h5_scripts.py).

    make_fixtures.py DIR

Writes, with h5py (not pvox's writer):
  bad.h5    /grids/$d float64 [4][4][4], /grids/$s float32 [4][4][5],
            /grids/$t float32 [4][4], /grids/$grp a group, /grids/$ok float32 [3][3][3]
  plain.h5  a valid HDF5 file without /grids
  text.h5   a text file
"""
import os
import sys

import h5py
import numpy as np


def main():
    d = sys.argv[1]
    with h5py.File(os.path.join(d, "bad.h5"), "w") as f:
        g = f.create_group("grids")
        g["$d"] = np.zeros((4, 4, 4), dtype="f8")
        g["$s"] = np.zeros((4, 4, 5), dtype="f4")
        g["$t"] = np.zeros((4, 4), dtype="f4")
        g.create_group("$grp")
        g["$ok"] = np.arange(27, dtype="f4").reshape(3, 3, 3)
    with h5py.File(os.path.join(d, "plain.h5"), "w") as f:
        f["other"] = np.zeros(3)
    with open(os.path.join(d, "text.h5"), "w") as f:
        f.write("this is not an HDF5 file\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
