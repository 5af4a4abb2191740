#!/usr/bin/env bash
# ParaView opens a pvox checkpoint through its XDMF sidecar (tests/io/tests.cmake).
#   run_h5_paraview.sh PVOX MPIEXEC
# Writes p.h5 + p.xmf with tests/io/h5_save.gp at 2 ranks, then runs
# `xvfb-run -a pvbatch check_xdmf.py /abs/p.xmf`, which checks the dimensions, origin,
# spacing, data range and some node values ParaView reports against h5_save.gp's formulas.
# Without pvbatch or xvfb-run: skip (77), or fail when CI=true. Exit 0 pass, 1 fail.
set -uo pipefail
PVOX=$(realpath "$1") MPIEXEC=$2
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1

for tool in pvbatch xvfb-run; do
    if ! command -v "$tool" >/dev/null; then
        if [ "${CI:-}" = true ]; then
            echo "FAIL: $tool not found (Debian: paraview python3-paraview xvfb)"
            exit 1
        fi
        echo "SKIP: $tool not found (Debian: paraview python3-paraview xvfb)"
        exit 77
    fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/pvox-paraview.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
if ! timeout -k 5 120 "$MPIEXEC" --quiet -n 2 "$PVOX" -q -e 'out="p"' "$HERE/h5_save.gp" \
    >pvox.log 2>&1; then
    echo "FAIL: pvox could not write the checkpoint"
    cat pvox.log
    exit 1
fi
# pvbatch is an MPI program too: keep it away from mpirun's environment
env -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_RANK -u PMIX_RANK \
    timeout -k 5 240 xvfb-run -a pvbatch "$HERE/check_xdmf.py" "$work/p.xmf" >check.log 2>&1
rc=$?
grep -E '^(ok|FAIL)' check.log
if [ "$rc" != 0 ] || grep -q '^FAIL' check.log || ! grep -q '^ok' check.log; then
    echo "FAIL: ParaView check (exit $rc)"
    grep -vE '^(ok|FAIL)' check.log | grep -v '^ *[0-9]* *0x' | head -40
    exit 1
fi
echo "ok ParaView reads the checkpoint"
