#!/usr/bin/env bash
# VTK (ParaView's Python) reads the meshes of the mesh writer (tests/io/tests.cmake).
#   run_mesh_paraview.sh TEST_MESH_MPI MPIEXEC NP
# Runs the io test test_mesh_mpi at NP ranks with PV_MESH_DIR set, so it keeps its files,
# then check_mesh.py under pvpython: the tube meshes (.vtp merged over ranks, .pvtp stitched
# by edge_id; small.* has ranks without polygons at 3 ranks) and cube.* (a 160^3-cell
# cube's surface) are closed with the expected point and cell counts, and the two broken
# meshes are rejected with the expected counts (open.vtp: 3 boundary edges;
# nonmanifold.vtp: 4 non-manifold edges).
# Without pvpython: skip (77), or fail when CI=true. Exit 0 pass, 1 fail.
set -uo pipefail
TEST=$(realpath "$1") MPIEXEC=$2 NP=${3:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1

if ! command -v pvpython >/dev/null; then
    if [ "${CI:-}" = true ]; then
        echo "FAIL: pvpython not found (Debian: paraview python3-paraview)"
        exit 1
    fi
    echo "SKIP: pvpython not found (Debian: paraview python3-paraview)"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/pvox-mesh-paraview.XXXXXX")
trap 'rm -rf "$work"' EXIT
if ! PV_MESH_DIR="$work" timeout -k 5 120 "$MPIEXEC" --quiet -n "$NP" "$TEST" >"$work/test.log" 2>&1
then
    echo "FAIL: test_mesh_mpi could not write the meshes"
    cat "$work/test.log"
    exit 1
fi
fails=0
# check FILE WANT_RC PATTERN [options]: run check_mesh.py, expect its exit code and a line
check() {
    local file=$1 want=$2 pattern=$3
    shift 3
    # pvpython is an MPI program too: keep it away from mpirun's environment
    env -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_RANK -u PMIX_RANK \
        timeout -k 5 120 pvpython "$HERE/check_mesh.py" "$work/$file" "$@" >"$work/check.log" 2>&1
    local rc=$?
    if [ "$rc" != "$want" ] || ! grep -q "^$pattern" "$work/check.log"; then
        echo "FAIL: $file: exit $rc (want $want), no line '$pattern'"
        cat "$work/check.log"
        fails=$((fails + 1))
    else
        echo "ok $file: $pattern"
    fi
}
check box.vtp 0 "ok " --points 26 --cells 28
check box.pvtp 0 "ok " --points 26 --cells 28
check small.vtp 0 "ok " --points 14 --cells 16
check small.pvtp 0 "ok " --points 14 --cells 16
check cube.vtp 0 "ok " --points 153602 --cells 179200
check cube.pvtp 0 "ok " --points 153602 --cells 179200
check open.vtp 1 "boundary edges: 3"
check nonmanifold.vtp 1 "non-manifold edges: 4"
[ "$fails" = 0 ] || exit 1
echo "ok VTK reads the meshes and finds them closed"
