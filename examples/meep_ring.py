#!/usr/bin/env python3
"""Make Meep output for jobs/meep_fields.gp: a dielectric ring resonator (eps 11.56) in a
cubic cell with PML, excited by a Gaussian Ez pulse. Writes, in the current directory,

    ring-eps-000000.00.h5            the dielectric function (dataset "eps")
    ring-ez-<time>.h5                Ez every DT time units (dataset "ez"), FRAMES files

each RES*L points per side, stored x slowest (pvox: `dataset "ez" order "xyz"`).

    python3 examples/meep_ring.py [RES [FRAMES [DT]]]      defaults: 16 24 1

At RES 16 the cell is 64^3 (about 20 s on 2 cores); RES 64 gives 256^3 (a cluster job).
Meep is Debian's python3-meep (or conda's pymeep); under MPI (pymeep built with MPI) run
it with mpirun to share the work.
"""
import sys

import meep as mp

res = int(sys.argv[1]) if len(sys.argv) > 1 else 16
frames = int(sys.argv[2]) if len(sys.argv) > 2 else 24
dt = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
L = 4.0  # cell side (Meep's units); the cell is a cube, so are the files
ring = [mp.Cylinder(radius=1.2, height=0.5, material=mp.Medium(epsilon=11.56)),
        mp.Cylinder(radius=0.8, height=0.5, material=mp.air)]
pulse = [mp.Source(mp.GaussianSource(0.15, fwidth=0.5), component=mp.Ez,
                   center=mp.Vector3(1.0, 0.1, 0.05))]
sim = mp.Simulation(cell_size=mp.Vector3(L, L, L), geometry=ring, sources=pulse,
                    resolution=res, boundary_layers=[mp.PML(0.5)], filename_prefix="ring")
sim.run(mp.at_beginning(mp.output_epsilon),
        mp.at_every(dt, mp.output_efield_z),
        until=dt * frames - 1e-9)
