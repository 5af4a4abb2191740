#!/usr/bin/env bash
# Ties through VTK (tests/iso/tests.cmake):   run_ties_vtk.sh PVOX MPIEXEC NP
# Runs ties.gp (a 12^3 field of 0, 1 and 2, many nodes equal to the level) at NP ranks and
# checks its meshes (.vtp, .pvtp and the text table) with check_ties.py the way a user would: points merged by coordinates
# (tolerance 0), then no boundary edge, no non-manifold edge, no collapsed cell, no pinched
# point, one point per edge id, a consistent Euler characteristic (12 at the level 1, -66
# at the level 2, as tests/iso/test_ties.c computes by edge id). The .vtp must be
# byte-identical to the one written at 1 rank. VTK's own extractors on the same field are
# printed for comparison. Without pvpython: skip (77), or fail when CI=true.
# Exit 0 pass, 1 fail.
set -uo pipefail
PVOX=$(realpath "$1") MPIEXEC=$2 NP=${3:-2}
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
if ! command -v pvpython >/dev/null; then
    if [ "${CI:-}" = true ]; then echo "FAIL: pvpython not found"; exit 1; fi
    echo "SKIP: pvpython not found (Debian: paraview python3-paraview)"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/pvox-ties.XXXXXX")
trap 'rm -rf "$work"' EXIT
for np in 1 "$NP"; do
    mkdir -p "$work/np$np"
    if ! (cd "$work/np$np" && timeout -k 5 200 "$MPIEXEC" --quiet -n "$np" "$PVOX" -q \
            "$HERE/ties.gp" >log 2>&1); then
        echo "FAIL: pvox at $np ranks"; cat "$work/np$np/log"; exit 1
    fi
    [ "$np" = "$NP" ] && break
done
fails=0
if cmp -s "$work/np1/ties.vtp" "$work/np$NP/ties.vtp"; then
    echo "ok ties.vtp identical at 1 and $NP ranks"
else
    echo "FAIL: ties.vtp differs between 1 and $NP ranks"; fails=$((fails + 1))
fi
vtk() { env -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_RANK -u PMIX_RANK \
        timeout -k 5 120 pvpython "$@" 2>"$work/vtk.err" | grep -v '^$'; }
for spec in ties.pvtp:12 ties.vtp:12 ties.txt:12 ties_tri.pvtp:12 ties2.pvtp:-66; do
    f=${spec%%:*} want=${spec##*:}
    if vtk "$HERE/check_ties.py" "$work/np$NP/$f" ${want:+"--euler=$want"}; then :
    else echo "FAIL: $f"; cat "$work/vtk.err"; fails=$((fails + 1)); fi
done
# for comparison only: VTK's own extractors on the same field
vtk "$HERE/check_ties.py" --vtk-reference | sed 's/^/  (VTK) /'
[ "$fails" = 0 ] || exit 1
echo "ok isosurface meshes with ties: closed 2-manifolds after merging points, $NP ranks"
