#!/usr/bin/env python3
"""A small real Meep run for the tests (tests/io/ext_h5.py): a dielectric ring resonator
in a 4x4x4 cell with PML, excited by a Gaussian Ez source, run briefly; eps and ez are
written at the end (ring-eps-*.h5, ring-ez-*.h5: RES*4 points per side, x slowest).

    python3 ext_meep.py [RES]      (RES 10: 40^3, about 2 s on one core)
"""
import sys

import meep as mp

res = int(sys.argv[1]) if len(sys.argv) > 1 else 10
cell = mp.Vector3(4, 4, 4)
ring = [mp.Cylinder(radius=1.2, height=0.5, material=mp.Medium(epsilon=11.56)),
        mp.Cylinder(radius=0.8, height=0.5, material=mp.air)]
source = [mp.Source(mp.GaussianSource(0.15, fwidth=0.1), component=mp.Ez,
                    center=mp.Vector3(1.0, 0.1, 0.05))]
sim = mp.Simulation(cell_size=cell, geometry=ring, sources=source, resolution=res,
                    boundary_layers=[mp.PML(0.5)], filename_prefix="ring")
sim.run(mp.at_end(mp.output_epsilon, mp.output_efield_z), until=10)
