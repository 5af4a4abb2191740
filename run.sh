#!/usr/bin/env bash
# Build pvox and run a job on local MPI ranks (default: the dipole, examples/dipole.gp).
#
#   ./run.sh                     install what is missing (Debian 12), build, run the dipole
#                                from the project root (its pictures go to out/)
#   ./run.sh my.gp [more.gp]     the same for your own job scripts, run from the current
#                                directory (relative output paths are relative to it)
#
# Environment: PVOX_NP ranks (default 2), PVOX_BUILD build directory (default ./build),
# PVOX_OUT passed as `-o DIR` when set. Exit code: pvox's (README "Exit codes").
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tools/common.sh
. "$here/tools/common.sh"

jobs=("$@")
if [ "${#jobs[@]}" -eq 0 ]; then
    cd "$here"
    mkdir -p out
    jobs=(examples/dipole.gp)
fi
build=${PVOX_BUILD:-$here/build}
opts=()
if [ -n "${PVOX_OUT:-}" ]; then
    mkdir -p "$PVOX_OUT"
    opts=(-o "$PVOX_OUT")
fi

pv_install_packages "${PV_BUILD_PACKAGES[@]}"
pv_build "$here" "$build" -DPV_BUILD_TESTS=OFF -DPV_BUILD_BENCH=OFF
pv_mpi_env
np=${PVOX_NP:-2}
# Open MPI's session directory of its own for this mpirun, removed at exit: Open MPI 4
# otherwise keeps every job's under one shared $TMPDIR/ompi.<host>.<uid>, and an mpirun
# starting just as another job on the node ends can fail in MPI_Init (README "Start-up
# time"). A choice of the user's (OMPI_MCA_orte_*tmpdir_base, orte_top_session_dir) is
# kept; the directory is made in TMPDIR (or /tmp).
mpi_opts=()
if [ -z "${OMPI_MCA_orte_tmpdir_base:-}${OMPI_MCA_orte_local_tmpdir_base:-}${OMPI_MCA_orte_remote_tmpdir_base:-}${OMPI_MCA_orte_top_session_dir:-}" ]; then
    session=$(mktemp -d "${TMPDIR:-/tmp}/pvox-run.XXXXXX")
    trap 'rm -rf "$session"' EXIT
    mpi_opts=(--mca orte_tmpdir_base "$session")
fi
pv_say "mpirun --bind-to none -n $np $build/pvox ${opts[*]} ${jobs[*]}   (in $(pwd))"
set +e
mpirun --quiet --bind-to none "${mpi_opts[@]}" -n "$np" "$build/pvox" "${opts[@]}" "${jobs[@]}"
rc=$?
set -e
pv_say "pvox exited with $rc"
exit "$rc"
