#!/usr/bin/env bash
# Open MPI session directories (README "Start-up time"): pvox started as a singleton uses a
# session directory of its own, so many one-process runs started and ending together (a
# job array, a test suite), and mpiexec jobs beside them, cannot make each other's
# MPI_Init fail; mpiexec jobs given a directory each (--mca orte_tmpdir_base) cannot
# either; and nothing is left behind.
#
#   session_test.sh PVOX MPIEXEC [WIDEN_SO]
#
# WIDEN_SO (widen_mkdir.c, not in sanitizer builds) is preloaded into the singletons and
# into the mpiexec jobs of part 6: it widens the window in which a shared top directory
# can be removed under a starting job from microseconds to 20 ms, so that sharing it
# fails this test every time, not once in thousands of runs. Every run here uses TMPDIR=<scratch>/tmp, which only this test uses,
# so the check for leftovers is exact and other tests running beside this one do not
# matter. No timing is assumed: runs only have to finish (300 s hang guard each).
set -u
PVOX=$(realpath "$1")
MPIEXEC=$2
WIDEN=${3:-}
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=${OMPI_MCA_rmaps_base_oversubscribe:-1}
command -v flock >/dev/null || { echo "SKIP: flock (util-linux) not found"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/pvox-session.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work/tmp
mkdir "$TMPDIR" "$work/out"
# the singletons' own directories must not depend on these: they are the user's choice
unset OMPI_MCA_orte_tmpdir_base OMPI_MCA_orte_top_session_dir TEMP TMP

fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# check NAME EXPECTED: run NAME exited 0 and printed exactly EXPECTED on stdout
check() {
    local name=$1 expected=$2 rc out
    rc=$(cat "$work/out/$name.rc" 2>/dev/null)
    out=$(cat "$work/out/$name.out" 2>/dev/null)
    if [ "$rc" != 0 ] || [ "$out" != "$expected" ]; then
        fail "$name: exit code ${rc:-none}, stdout '$out' (expected '$expected')"
        sed 's/^/    /' "$work/out/$name.err" | head -20
    fi
}

# leftovers: TMPDIR must hold nothing once every run has ended
check_empty() {
    local left
    left=$(cd "$TMPDIR" && find . -mindepth 1 -maxdepth 3 | sort | head -20)
    [ -z "$left" ] || fail "$1: left behind in TMPDIR: $(echo "$left" | tr '\n' ' ')"
}

# singleton NAME [PVOX ARGS...]: a background singleton whose stdout, stderr and exit code
# are kept under NAME
singleton() {
    local name=$1
    shift
    (
        if [ -n "$WIDEN" ]; then export LD_PRELOAD=$WIDEN; fi
        timeout 300 "$PVOX" "$@" >"$work/out/$name.out" 2>"$work/out/$name.err" </dev/null
        echo $? >"$work/out/$name.rc"
    ) &
}

# mpiexec2 NAME [MPIEXEC OPTIONS...] -- PVOX ARGS...: a background 2-rank run
mpiexec2() {
    local name=$1 opts=()
    shift
    while [ "$1" != -- ]; do
        opts+=("$1")
        shift
    done
    shift
    (
        timeout 300 "$MPIEXEC" "${opts[@]}" -n 2 "$PVOX" "$@" \
            >"$work/out/$name.out" 2>"$work/out/$name.err" </dev/null
        echo $? >"$work/out/$name.rc"
    ) &
}

# 1. Three rounds: 60 singletons started at once, with three 2-rank mpiexec jobs beside
# them. The first mpiexec job uses the same TMPDIR as the singletons; the other two run
# side by side, so each gets a session directory of its own (--mca orte_tmpdir_base, as
# README advises for concurrent mpiexec jobs: their common top directory has the same
# hazard inside mpiexec, before pvox runs).
for round in 1 2 3; do
    mpiexec2 "m$round.1" -- -e "set print '-'; print 'm$round.1'"
    for k in 2 3; do
        mkdir -p "$work/mpi$round.$k"
        mpiexec2 "m$round.$k" --mca orte_tmpdir_base "$work/mpi$round.$k" -- \
            -e "set print '-'; print 'm$round.$k'"
    done
    for i in $(seq 60); do
        singleton "s$round.$i" -e "set print '-'; print 's$round.$i'"
    done
    wait
    for i in $(seq 60); do check "s$round.$i" "s$round.$i"; done
    for k in 1 2 3; do check "m$round.$k" "m$round.$k"; done
    check_empty "round $round"
done

# 2. Two streams of 40 singletons each, one run after another in each stream, beside a
# stream of 2-rank mpiexec jobs in the same TMPDIR: a shared top directory would empty
# and fill again all the time, the pattern in which a run starting as another ends fails
# (a burst of 60 keeps it full until the end). With WIDEN_SO, sharing fails here within
# a few runs.
for s in 1 2; do
    (
        for i in $(seq 40); do
            singleton "t$s.$i" -e "set print '-'; print 't$s.$i'"
            wait
        done
    ) &
done
(
    for i in 1 2 3 4; do
        mpiexec2 "tm.$i" -- -e "set print '-'; print 'tm.$i'"
        wait
    done
) &
wait
for s in 1 2; do
    for i in $(seq 40); do check "t$s.$i" "t$s.$i"; done
done
for i in 1 2 3 4; do check "tm.$i" "tm.$i"; done
check_empty "streams"

# 3. Every way out removes the directory: a script error (exit 1), the script's own exit
# status, a usage error, --version, a run that writes a checkpoint through MPI-IO
singleton e1 -e 'print undefined_name'
singleton e2 -e 'exit status 4'
singleton e3 --no-such-option
singleton e4 --version
singleton e5 -e 'set vgrid $g size 8; set vxrange [0:7]; set vyrange [0:7]; set vzrange [0:7]' \
    -e "voxel(1,2,3) = 5; vsave '$work/c.h5'; vclear; vload '$work/c.h5'" \
    -e "set print '-'; print voxel(1,2,3)"
wait
for e in 1 2 3; do
    rc=$(cat "$work/out/e$e.rc")
    case $e in 1) want=1 ;; 2) want=4 ;; 3) want=2 ;; esac
    [ "$rc" = "$want" ] || fail "e$e: exit code $rc, expected $want"
done
check e5 "5.0"
[ "$(cat "$work/out/e4.rc")" = 0 ] || fail "e4 (--version): exit code $(cat "$work/out/e4.rc")"
check_empty "error exits"

# 4. A killed run (SIGKILL: no exit handler runs) leaves its directory behind; the next
# singleton removes it, because no live process holds its lock. A directory whose lock is
# held (here by this shell, as a live pvox holds its own) is left alone, and so is one
# named for another host (TMPDIR may be shared between nodes).
host=$(hostname)
host=${host%%.*}
host=${host:0:32}
timeout 300 "$PVOX" -e 'system("kill -KILL $PPID")' >/dev/null 2>&1 </dev/null
left=$(cd "$TMPDIR" && ls -d "pvox-mpi.$host".* 2>/dev/null)
[ -n "$left" ] || fail "a killed singleton left no session directory pvox-mpi.$host.* (is it made?)"
held=$TMPDIR/pvox-mpi.$host.heldXX
other=$TMPDIR/pvox-mpi.other-host.abcdef
mkdir "$held" "$other"
exec 9<"$held"
flock -x 9
timeout 300 "$PVOX" -e "set print '-'; print 'after kill'" >"$work/out/k.out" 2>"$work/out/k.err" \
    </dev/null
echo $? >"$work/out/k.rc"
check k "after kill"
[ -d "$held" ] || fail "a session directory whose lock is held was removed"
[ -d "$other" ] || fail "another host's session directory was removed"
for d in $left; do
    [ ! -e "$TMPDIR/$d" ] || fail "the killed singleton's directory $d was not removed"
done
exec 9<&-
rmdir "$other"
timeout 300 "$PVOX" -e 'print 1' >/dev/null 2>&1 </dev/null
check_empty "after a killed run"

# 5. Settings of the user's are kept: with OMPI_MCA_orte_tmpdir_base set, Open MPI's own
# directories go there and pvox makes none
mkdir "$work/user"
OMPI_MCA_orte_tmpdir_base=$work/user timeout 300 "$PVOX" -e "set print '-'; print 'user'" \
    >"$work/out/u.out" 2>"$work/out/u.err" </dev/null
echo $? >"$work/out/u.rc"
check u "user"
check_empty "with the user's orte_tmpdir_base"

# 6. mpiexec jobs side by side, each with a directory of its own (--mca orte_tmpdir_base,
# as README "Start-up time" and run.sh do): mpiexec makes its session directory before
# pvox runs, so only that setting keeps it apart. WIDEN_SO is preloaded into mpiexec here
# (and so into its ranks, where it changes nothing): the same jobs sharing the top
# directory fail a few times in such a run (README gives the numbers); with a directory
# each, none may. A burst of 12 at once, then three streams of 8 back-to-back jobs.
# Open MPI leaves the directory it was given (empty): nothing else may remain in it.
mpiexec_own() { # NAME: a background 2-rank run with its own orte_tmpdir_base
    mkdir "$work/own.$1"
    (
        if [ -n "$WIDEN" ]; then export LD_PRELOAD=$WIDEN; fi
        timeout 300 "$MPIEXEC" --mca orte_tmpdir_base "$work/own.$1" -n 2 "$PVOX" \
            -e "set print '-'; print '$1'" >"$work/out/$1.out" 2>"$work/out/$1.err" </dev/null
        echo $? >"$work/out/$1.rc"
    ) &
}
for i in $(seq 12); do mpiexec_own "b.$i"; done
wait
for s in 1 2 3; do
    (
        for i in $(seq 8); do
            mpiexec_own "ms$s.$i"
            wait
        done
    ) &
done
wait
for name in $(seq -f 'b.%g' 12) $(for s in 1 2 3; do seq -f "ms$s.%g" 8; done); do
    check "$name" "$name"
    left=$(cd "$work/own.$name" && find . -mindepth 1 | head -5)
    [ -z "$left" ] || fail "$name: left behind in its orte_tmpdir_base: $(echo "$left" | tr '\n' ' ')"
done
check_empty "mpiexec jobs with orte_tmpdir_base"

if [ "$fails" -ne 0 ]; then
    echo "session_test: $fails failure(s)"
    exit 1
fi
echo "session_test: ok"
