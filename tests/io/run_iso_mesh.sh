#!/usr/bin/env bash
# pvox's isosurface meshes through VTK (tests/io/tests.cmake):
#   run_iso_mesh.sh PVOX MPIEXEC NP
# Runs iso_sphere.gp at 1 rank and at NP ranks: the .vtp files (merged over ranks, points
# numbered by first use in slab order) must be byte-identical across rank counts; VTK reads
# them and the .pvtp, finds no boundary and no non-manifold edge (check_mesh.py) and the
# Euler characteristic V - E + F is 2 for the sphere and 0 for the torus.
# Without pvpython: skip (77), or fail when CI=true. Exit 0 pass, 1 fail.
set -uo pipefail
PVOX=$(realpath "$1") MPIEXEC=$2 NP=${3:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1
if ! command -v pvpython >/dev/null; then
    if [ "${CI:-}" = true ]; then echo "FAIL: pvpython not found"; exit 1; fi
    echo "SKIP: pvpython not found (Debian: paraview python3-paraview)"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/pvox-iso-mesh.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0
for np in 1 "$NP"; do
    mkdir -p "$work/np$np"
    if ! (cd "$work/np$np" && timeout -k 5 200 "$MPIEXEC" --quiet -n "$np" "$PVOX" -q \
            "$HERE/iso_sphere.gp" >log 2>&1); then
        echo "FAIL: pvox at $np ranks"; cat "$work/np$np/log"; exit 1
    fi
done
for f in sphere.vtp torus.vtp; do
    if cmp -s "$work/np1/$f" "$work/np$NP/$f"; then echo "ok $f identical at 1 and $NP ranks"
    else echo "FAIL: $f differs between 1 and $NP ranks"; fails=$((fails + 1)); fi
done
vtk() { env -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_RANK -u PMIX_RANK \
        timeout -k 5 120 pvpython "$@"; }
for f in sphere.vtp sphere.pvtp torus.vtp; do
    if vtk "$HERE/check_mesh.py" "$work/np$NP/$f" >"$work/check.log" 2>&1; then
        echo "ok $f closed: $(grep -c . "$work/check.log") lines"
    else
        echo "FAIL: $f"; cat "$work/check.log"; fails=$((fails + 1))
    fi
done
cat >"$work/euler.py" <<'PY'
import sys
from vtkmodules.vtkIOXML import vtkXMLPolyDataReader
from vtkmodules.vtkFiltersCore import vtkExtractEdges
r = vtkXMLPolyDataReader(); r.SetFileName(sys.argv[1]); r.Update()
m = r.GetOutput()
e = vtkExtractEdges(); e.SetInputData(m); e.Update()
V, E, F = m.GetNumberOfPoints(), e.GetOutput().GetNumberOfLines(), m.GetNumberOfPolys()
print("V %d E %d F %d euler %d" % (V, E, F, V - E + F))
sys.exit(0 if V - E + F == int(sys.argv[2]) else 1)
PY
for spec in sphere.vtp:2 torus.vtp:0; do
    f=${spec%%:*} want=${spec##*:}
    if out=$(vtk "$work/euler.py" "$work/np$NP/$f" "$want" 2>&1); then echo "ok $f: $out"
    else echo "FAIL: $f Euler characteristic, want $want: $out"; fails=$((fails + 1)); fi
done
[ "$fails" = 0 ] || exit 1
echo "ok isosurface meshes: closed, right topology, the same at 1 and $NP ranks"
