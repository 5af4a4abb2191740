# shellcheck shell=bash disable=SC2034
# Shared by run.sh and test.sh (sourced, not run): Debian packages, build, MPI as root.
# Everything here is idempotent: packages are installed only when missing, the build
# directory is reused.

# Debian 12 packages (README "Building by hand" lists the same set). Append, do not reorder.
PV_BUILD_PACKAGES=(build-essential cmake pkg-config libopenmpi-dev openmpi-bin
    libhdf5-openmpi-dev hdf5-tools libpng-dev libcairo2-dev fonts-dejavu-core)
# Oracles and checkers used by the test suite.
PV_TEST_PACKAGES=(gnuplot-nox gnuplot-doc python3 python3-numpy python3-h5py python3-pil
    paraview python3-paraview xvfb xauth
    slurmctld slurmd slurm-client munge libpmix-dev
    clang libclang-rt-14-dev libomp-dev
    python3-meep netcdf-bin)

pv_say() { printf '==> %s\n' "$*" >&2; }
pv_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# pv_install_packages PKG...: apt-get install the ones dpkg does not list as installed.
pv_install_packages() {
    local missing=() p
    for p in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$p")
        fi
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        pv_say "Debian packages: all ${#} present"
        return 0
    fi
    command -v apt-get >/dev/null || pv_die "missing packages (${missing[*]}) and no apt-get: install them by hand"
    local sudo=()
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null || pv_die "missing packages (${missing[*]}): run as root or install them"
        sudo=(sudo)
    fi
    pv_say "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # munge's and slurm's maintainer scripts would start system-wide daemons through
    # invoke-rc.d on a machine without a policy-rc.d; the SLURM test runs its own private
    # cluster, so forbid that for the duration of the install
    local added_policy=0
    if [ ! -e /usr/sbin/policy-rc.d ] && [ -w /usr/sbin ]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d &&
            added_policy=1
    fi
    local rc=0
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update </dev/null || rc=$?
    [ "$rc" = 0 ] && { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y \
        --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}" </dev/null || rc=$?; }
    [ "$added_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
    [ "$rc" = 0 ] || pv_die "apt-get failed (exit $rc) installing: ${missing[*]}"
}

# pv_build SRC BUILD [cmake -D options...]: configure (warnings are errors under CI=true)
# and build with two jobs.
pv_build() {
    local src=$1 build=$2
    shift 2
    local werror=OFF
    [ "${CI:-}" = true ] && werror=ON
    pv_say "configuring $build (PV_WERROR=$werror)"
    cmake -S "$src" -B "$build" -DPV_WERROR="$werror" "$@"
    pv_say "building"
    cmake --build "$build" -j2
}

# Open MPI refuses to run as root unless told, and more ranks than cores without
# oversubscription; both are fine on a workstation or a CI container.
pv_mpi_env() {
    if [ "$(id -u)" = 0 ]; then
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    fi
    export OMPI_MCA_rmaps_base_oversubscribe=1
}
