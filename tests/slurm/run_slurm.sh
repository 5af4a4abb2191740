#!/usr/bin/env bash
# run_slurm.sh PVOX [SRCDIR [WIDEN_SO]] -- run the SLURM job scripts of jobs/ on a private,
# single-node SLURM cluster started here and check the results.
#
# Brings up munged + slurmctld + slurmd as background children in foreground mode, with
# every file under a fresh temporary directory and nothing in /etc; submits, from a
# temporary working directory that links examples/ and jobs/:
#   1. jobs/dipole.sbatch               COMPLETED 0:0, 15 PNG files, the printed potential
#   2. jobs/fill_1024.sbatch at 64³      COMPLETED 0:0, HDF5 voxels against arithmetic,
#                                        2 ranks x 1 thread
#   3. jobs/render_h5.sbatch after 2     --dependency=afterok: starts after 2 ends, a PNG
#   4. the fill at 1 task x 2 threads    COMPLETED 0:0, 1 rank x 2 threads
#   5. the fill at 512³ with --mem=64M   FAILED 3:0: pvox refuses a grid over the allocation
#   6. dipole.sbatch on a broken script  FAILED 1:0 with pvox's error message
#   7. a task killed mid-job             dipole.sbatch on tests/fault/kill_job.gp (24
#                                        frames) with --checkpoint, 2 tasks: SIGKILL of task 1's pvox once 3 frames
#                                        exist; the step (srun --kill-on-bad-exit=1) and
#                                        the job end within 60 s, FAILED; the checkpoint
#                                        is intact; resubmitted with --resume, the job
#                                        ends COMPLETED 0:0 with the grid and the frames
#                                        of the same job run uninterrupted (queued first)
#   8. jobs/frames_array.sbatch          --array=0-3 after 2: each task loads dipole_64.h5 and
#                                        draws its quarter of 12 frames; together they
#                                        write the bytes of the same job run without
#                                        --array
#   9. jobs/restart.sbatch, SIGUSR1      (orbit.gp at 64³, 48 frames, --resume-if-exists)
#                                        `scancel --signal=USR1 --batch` after 4 frames:
#                                        the trap passes it on, pvox saves its checkpoint
#                                        and exits 75, the job requeues itself (released
#                                        at once instead of Slurm's ~2 minute hold), runs
#                                        again, resumes and ends COMPLETED 0:0 with
#                                        Restarts=1, the frames and the final grid
#                                        checksum of the job run uninterrupted
#  10. jobs/restart.sbatch, scancel      (SIGTERM, SIGKILL after KillWait) after 6
#                                        frames: CANCELLED; submitted again, it resumes
#                                        and ends as the uninterrupted job
#  11. 20 srun steps at once           in one job (12 one-task, 8 two-task steps,
#                                        --overlap) with tests/app/widen_mkdir.c
#                                        preloaded into pvox (WIDEN_SO), beside a loop
#                                        making and removing Open MPI's shared top
#                                        directory in the steps' TMPDIR as other jobs
#                                        on a node do: every step prints its line and
#                                        exits 0 (a rank using that directory would
#                                        fail; srun's ranks get one per step from
#                                        PMIx), nothing is left in that TMPDIR or of
#                                        the steps' PMIx directories
#  12. jobs/meep_fields.sbatch          Meep (python3-meep, resolution 10: 40³ files, 3 Ez
#                                        files) then pvox on 2 tasks reading its HDF5
#                                        output: COMPLETED 0:0, meep_eps.png and 3 frames
# then stops the daemons it started, by PID, whatever happens: on exit or a signal (trap),
# and, if the test is killed outright, from a detached watchdog (see "stopping").
# One run at a time per machine (lock file $TMPDIR/pvox-slurm-test.lock).
#
# Exit 0 pass, 1 fail, 77 skip (SLURM or munge not installed and CI is not "true").
# Needs (Debian 12): slurmctld slurmd slurm-client munge libpmix-dev hdf5-tools.
# Environment: KEEP=1 keeps the temporary directory (logs, job outputs) for debugging;
# PVOX_SLURM_PORT=P uses ports P and P+1 instead of a free pair picked at random;
# PVOX_SLURM_BUDGET=S gives up waiting for jobs after S seconds in all (default 330).
set -euo pipefail

# ------------------------------------------------------------------ stopping
# What this test starts: the three daemons (their PIDs also go to $BASE/daemons.pids), and
# through them the slurmstepd processes of the jobs, which slurmd detaches (their parent
# becomes init) and which are the parents of the jobs' processes. slurmstepd keeps
# SLURM_CONF=$BASE/etc/slurm.conf from slurmd's environment (and drops other variables):
# that finds our job steps, and only ours, when a job still runs after the daemons died.

stop_pids() {   # pid... : TERM all at once (daemons take 1-2 s), wait up to 10 s, KILL
    local pid alive
    [ "$#" -gt 0 ] || return 0
    kill "$@" 2>/dev/null
    for _ in $(seq 1 100); do
        alive=0
        for pid in "$@"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ "$alive" = 0 ] && return 0
        sleep 0.1
    done
    kill -9 "$@" 2>/dev/null
    return 0
}

stray_steps() {   # base -> PIDs of our slurmstepds and all their descendants
    local e pid roots=()
    for e in /proc/[0-9]*/environ; do
        pid=${e#/proc/}
        pid=${pid%/environ}
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = slurmstepd ] || continue
        tr '\0' '\n' 2>/dev/null <"$e" | grep -qxF "SLURM_CONF=$1/etc/slurm.conf" && roots+=("$pid")
    done
    [ "${#roots[@]}" -gt 0 ] || return 0
    ps -eo pid=,ppid= | awk -v roots="${roots[*]}" '
        BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1 }
        { parent[$1] = $2 }
        END { do { grew = 0
                   for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; grew = 1 }
              } while (grew)
              for (p in keep) print p }'
}

# Watchdog mode (started below, detached): once the test process is gone, stop whatever
# it left running because it was killed before its own clean-up could run (SIGKILL, e.g.
# a test runner's timeout, which takes our children but not the detached slurmstepds).
if [ "${1:-}" = --watchdog ]; then
    main=$2 BASE=$3
    echo "$$" >"$BASE/watchdog.pid"
    while kill -0 "$main" 2>/dev/null; do sleep 1; done
    if [ ! -d "$BASE" ] || [ -e "$BASE/.stopped" ]; then exit 0; fi
    daemons=()
    while read -r pid; do   # still ours if it still runs the same program
        case "$(cat "/proc/$pid/comm" 2>/dev/null)" in
        munged | slurmctld | slurmd) daemons+=("$pid") ;;
        esac
    done <"$BASE/daemons.pids"
    stop_pids "${daemons[@]}"
    # shellcheck disable=SC2046  # one PID per word
    stop_pids $(stray_steps "$BASE")
    [ "${KEEP:-}" = 1 ] || rm -rf "$BASE"
    exit 0
fi

PVOX=${1:?usage: run_slurm.sh PVOX [SRCDIR [WIDEN_SO]]}
SRCDIR=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
WIDEN=${3:-}   # tests/app/widen_mkdir.c built (none in sanitizer builds), for 11
PVOX=$(cd "$(dirname "$PVOX")" && pwd)/$(basename "$PVOX")

T0=$(date +%s.%N)
# every wait ends by then, well inside ctest's 300 s, so our own clean-up always runs
DEADLINE=$(( $(date +%s) + ${PVOX_SLURM_BUDGET:-330} ))
log() { printf '[slurm %5.1fs] %s\n' "$(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN{print b-a}')" "$*"; }
fail() { log "FAIL: $*"; exit 1; }

# ------------------------------------------------------------------ prerequisites
skip_or_fail() {
    if [ "${CI:-}" = true ]; then
        fail "$* (CI=true: install slurmctld slurmd slurm-client munge libpmix-dev hdf5-tools)"
    fi
    log "SKIP: $*"
    exit 77
}
for cmd in munged munge unmunge slurmctld slurmd sbatch srun scontrol sinfo scancel squeue \
           h5dump flock setsid; do
    command -v "$cmd" >/dev/null 2>&1 || skip_or_fail "'$cmd' not found"
done
# Slurm's mpi/pmix plugin dlopen()s the unversioned libpmix.so that libpmix-dev ships
compgen -G '/usr/lib/*/pmix2/lib/libpmix.so' >/dev/null || compgen -G '/usr/lib/pmix2/lib/libpmix.so' >/dev/null \
    || skip_or_fail "pmix2/lib/libpmix.so not found (package libpmix-dev)"
[ -x "$PVOX" ] || fail "pvox program '$PVOX' not found"
[ -f "$SRCDIR/jobs/dipole.sbatch" ] || fail "no jobs/dipole.sbatch under '$SRCDIR'"
[ -f "$SRCDIR/tests/fault/kill_job.gp" ] || fail "no tests/fault/kill_job.gp under '$SRCDIR'"
command -v pgrep >/dev/null 2>&1 || skip_or_fail "'pgrep' not found"

# ------------------------------------------------------------------ one run at a time
LOCK=${TMPDIR:-/tmp}/pvox-slurm-test.lock
exec 9>>"$LOCK"
if ! flock -n 9; then
    log "another run of this test holds $LOCK: waiting up to 120 s"
    flock -w 120 9 || fail "another run of this test still holds $LOCK"
fi

BASE=$(mktemp -d "${TMPDIR:-/tmp}/pvox-slurm.XXXXXX")
chmod 755 "$BASE"
DAEMON_PIDS=()   # the daemons we started
# the watchdog keeps the lock (fd 9) until it has seen us go
setsid -f bash "${BASH_SOURCE[0]}" --watchdog "$$" "$BASE" </dev/null >/dev/null 2>&1

cleanup() {
    local rc=$? f
    set +e
    trap - EXIT INT TERM
    if [ -n "${SLURM_CONF:-}" ] && [ "${#DAEMON_PIDS[@]}" -gt 0 ]; then
        # cancel what is left so the job steps end before their slurmd
        scancel --quiet --user="$(id -un)" >/dev/null 2>&1
        for _ in $(seq 1 50); do
            [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
            sleep 0.1
        done
    fi
    if [ "$rc" != 0 ] && [ -d "$BASE/log" ]; then
        for f in "$BASE"/log/*.log; do
            [ -s "$f" ] && { echo "----- $f (last 25 lines)"; tail -n 25 "$f"; }
        done
    fi
    stop_pids "${DAEMON_PIDS[@]}"
    [ "${#DAEMON_PIDS[@]}" = 0 ] || wait "${DAEMON_PIDS[@]}" 2>/dev/null
    # shellcheck disable=SC2046  # one PID per word
    stop_pids $(stray_steps "$BASE")
    touch "$BASE/.stopped"
    # the watchdog leads its own process group (setsid): end it and its sleep now
    f=$(cat "$BASE/watchdog.pid" 2>/dev/null)
    [ -n "$f" ] && kill -- "-$f" 2>/dev/null
    if [ "${KEEP:-}" = 1 ]; then
        log "KEEP=1: kept $BASE"
    else
        rm -rf "$BASE"
    fi
    log "daemons stopped, exit $rc"
    exit "$rc"
}
trap cleanup EXIT
trap 'fail "interrupted by a signal"' INT TERM

# ------------------------------------------------------------------ configuration
# Two free ports (slurmctld, slurmd) away from Slurm's defaults 6817/6818.
port_listening() {   # port -> 0 if some socket listens on it
    local hex
    hex=$(printf ':%04X' "$1")
    awk -v p="$hex" 'FNR > 1 && $4 == "0A" && substr($2, length($2) - 4) == p { f = 1 }
                     END { exit !f }' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
PORT=${PVOX_SLURM_PORT:-}
if [ -z "$PORT" ]; then
    for _ in $(seq 1 30); do
        cand=$(( 27000 + (RANDOM % 1000) * 2 ))
        if ! port_listening "$cand" && ! port_listening $((cand + 1)); then PORT=$cand; break; fi
    done
    [ -n "$PORT" ] || fail "no free port pair found in 27000-28999"
fi

NODE=$(hostname -s)
USER_NAME=$(id -un)
mkdir -p "$BASE"/{etc,munge,state,spool,log,work}
MUNGE_SOCK=$BASE/munge/munge.socket.2
# munged refuses a key readable by others; the socket directory must be traversable
dd if=/dev/urandom of="$BASE/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$BASE/munge/munge.key"
chmod 711 "$BASE/munge"

# The node as slurmd sees it, minus RealMemory (given once below); at least 2 CPUs since
# the jobs run 2 tasks (config_overrides lets a 1-CPU machine advertise 2).
HW=$(slurmd -C | head -n 1)
HW_CPUS=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$HW")
MEM_MB=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$HW")
if [ "${HW_CPUS:-0}" -ge 2 ]; then
    NODE_HW=$(sed -e 's/^NodeName=[^ ]* //' -e 's/ RealMemory=[0-9]*//' -e 's/ UpTime=.*//' <<<"$HW")
    OVERRIDES=
else
    NODE_HW="CPUs=2"
    OVERRIDES="SlurmdParameters=config_overrides"
fi

export SLURM_CONF=$BASE/etc/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=pvoxtest
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=$USER_NAME
SlurmdUser=$USER_NAME
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCK,cred_expire=20
StateSaveLocation=$BASE/state
SlurmdSpoolDir=$BASE/spool
SlurmctldPidFile=$BASE/state/slurmctld.pid
SlurmdPidFile=$BASE/spool/slurmd.pid
SlurmctldLogFile=$BASE/log/slurmctld.log
SlurmdLogFile=$BASE/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=pmix
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
Waittime=0
$OVERRIDES
NodeName=$NODE NodeAddr=127.0.0.1 $NODE_HW RealMemory=$MEM_MB State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF

# ------------------------------------------------------------------ start the cluster
# -F/-D: stay in the foreground, as our children (a test runner that kills us and our
# children takes them along); their own log files get everything; 9>&-: not the lock.
munged -F --key-file="$BASE/munge/munge.key" --socket="$MUNGE_SOCK" \
    --pid-file="$BASE/munge/munged.pid" --seed-file="$BASE/munge/munged.seed" \
    --log-file="$BASE/log/munged.log" </dev/null >>"$BASE/log/munged.out" 2>&1 9>&- &
DAEMON_PIDS+=($!)
echo "$!" >>"$BASE/daemons.pids"
for _ in $(seq 1 50); do [ -S "$MUNGE_SOCK" ] && break; sleep 0.1; done
munge -n --socket="$MUNGE_SOCK" | unmunge --socket="$MUNGE_SOCK" >/dev/null \
    || fail "munge round trip failed"

slurmctld -D -i </dev/null >>"$BASE/log/slurmctld.out" 2>&1 9>&- &
DAEMON_PIDS+=($!)
echo "$!" >>"$BASE/daemons.pids"
slurmd -D -N "$NODE" </dev/null >>"$BASE/log/slurmd.out" 2>&1 9>&- &
DAEMON_PIDS+=($!)
echo "$!" >>"$BASE/daemons.pids"

state=
for _ in $(seq 1 60); do   # up to 30 s
    state=$(sinfo -h -n "$NODE" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    for pid in "${DAEMON_PIDS[@]}"; do
        kill -0 "$pid" 2>/dev/null || fail "a daemon (pid $pid) exited during start-up"
    done
    sleep 0.5
done
[ "$state" = idle ] || fail "node never became idle (state '$state')"
log "cluster up: node $NODE idle, ports $PORT/$((PORT + 1)), state in $BASE"

# ------------------------------------------------------------------ helpers
# Poll the controller (sbatch --wait backs off to 8 s and 32 s between polls).
wait_job() {   # jobid timeout_s -> sets JOB_STATE JOB_EC JOB_START JOB_END (epoch s)
    # runs in this shell, not a subshell: a signal stops the polling with the test
    local id=$1 deadline=$(( $(date +%s) + $2 )) line
    [ "$deadline" -le "$DEADLINE" ] || deadline=$DEADLINE
    while :; do
        line=$(scontrol show job -o "$id" 2>/dev/null || true)
        JOB_STATE=$(sed -n 's/.* JobState=\([A-Z_]*\).*/\1/p' <<<"$line")
        case "$JOB_STATE" in
        COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE | PREEMPTED)
            JOB_EC=$(sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p' <<<"$line")
            JOB_START=$(date -d "$(sed -n 's/.* StartTime=\([^ ]*\).*/\1/p' <<<"$line")" +%s 2>/dev/null || echo 0)
            JOB_END=$(date -d "$(sed -n 's/.* EndTime=\([^ ]*\).*/\1/p' <<<"$line")" +%s 2>/dev/null || echo 0)
            return 0
            ;;
        esac
        if [ "$(date +%s)" -ge "$deadline" ]; then
            scancel "$id" 2>/dev/null || true
            JOB_STATE="still ${JOB_STATE:-unknown} after the time allowed" JOB_EC=- JOB_START=0 JOB_END=0
            return 0
        fi
        sleep 0.5
    done
}

show_output() { echo "----- $1"; cat "$1" 2>/dev/null || echo "(missing)"; }

expect_job() {   # name jobid state exitcode outfile timeout -> sets JOB_START JOB_END
    local name=$1 id=$2 want_st=$3 want_ec=$4 out=$5
    wait_job "$id" "$6"
    if [ "$JOB_STATE" != "$want_st" ] || [ "$JOB_EC" != "$want_ec" ]; then
        show_output "$out"
        fail "$name (job $id): $JOB_STATE ExitCode=$JOB_EC, expected $want_st ExitCode=$want_ec"
    fi
    log "ok: $name (job $id) $JOB_STATE ExitCode=$JOB_EC"
}

# A PNG: the 8-byte signature, then the IHDR chunk with the width and height; and the
# whole file passes a strict decoder (tests/pngcheck.py: CRCs, the zlib checksum, the
# exact image bytes).
check_png() {   # file width height
    [ -s "$1" ] || fail "$1: missing or empty"
    local head
    head=$(od -An -tx1 -N24 "$1" | tr -d ' \n')
    [ "${head:0:16}" = 89504e470d0a1a0a ] || fail "$1: not a PNG (starts with ${head:0:16})"
    [ "${head:24:8}" = 49484452 ] || fail "$1: no IHDR chunk"
    local w=$((16#${head:32:8})) h=$((16#${head:40:8}))
    if [ "$w" != "$2" ] || [ "$h" != "$3" ]; then fail "$1: ${w}x$h pixels, expected $2x$3"; fi
    local bad
    bad=$(python3 "$SRCDIR/tests/pngcheck.py" "$1") || fail "$bad (a strict decoder refuses it)"
}

# The dipole's potential at (x, y, z): +1 at (0, 0, 0.75), -1 at (0, 0, 0.25).
potential() {
    awk -v x="$1" -v y="$2" -v z="$3" 'BEGIN {
        printf "%.9g", 1 / sqrt(x*x + y*y + (z-0.75)^2) - 1 / sqrt(x*x + y*y + (z-0.25)^2) }'
}
near() {   # got want what -> fail unless |got - want| <= 1e-5·max(1, |want|)
    awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d; a = w < 0 ? -w : w;
                                     exit !(g != "" && d <= 1e-5 * (a > 1 ? a : 1)) }' \
        || fail "$3: got '$1', expected $2"
}
printed_potential() {   # outfile -> the value of the line "potential at (0.5, 0.5, 0.75) = V"
    sed -n 's/^potential at (0\.5, 0\.5, 0\.75) = \(.*\)$/\1/p' "$1" | head -n 1
}
h5_voxel() {   # file iz iy ix -> the float32 voxel /grids/$v[iz][iy][ix]
    # shellcheck disable=SC2016  # the dataset is literally named $v
    h5dump -d '/grids/$v' -s "$2,$3,$4" -c 1,1,1 -m '%.9g' "$1" \
        | sed -n "s/^ *($2,$3,$4): *\([-0-9.eE+]*\).*/\1/p" | head -n 1
}

# ------------------------------------------------------------------ the jobs
WORK=$BASE/work
ln -s "$SRCDIR/examples" "$WORK/examples"
ln -s "$SRCDIR/jobs" "$WORK/jobs"
cd "$WORK"
export PVOX
unset PVOX_OUTDIR PVOX_N PVOX_H5 PVOX_PNG PVOX_ARGS
SB=(sbatch --parsable)

# Everything is queued at once; the scheduler runs the 2-CPU jobs one after the other.
j_dip=$("${SB[@]}" jobs/dipole.sbatch)
j_fill=$(PVOX_N=64 PVOX_ARGS=-vv "${SB[@]}" --mem=512M jobs/fill_1024.sbatch)
j_rend=$(PVOX_N=64 "${SB[@]}" --mem=512M --dependency=afterok:"$j_fill" \
    --kill-on-invalid-dep=yes jobs/render_h5.sbatch)
j_thr=$(PVOX_N=32 PVOX_ARGS=-vv "${SB[@]}" --mem=512M --ntasks=1 --cpus-per-task=2 \
    --job-name=fill_threads jobs/fill_1024.sbatch)
j_mem=$(PVOX_N=512 "${SB[@]}" --mem=64M --job-name=fill_toobig jobs/fill_1024.sbatch)
cat >broken.gp <<'EOF'
print "broken.gp starts"
print nosuchvar
EOF
j_bad=$(PVOX_OUTDIR=bad "${SB[@]}" --job-name=broken jobs/dipole.sbatch broken.gp)
# 7's job (a grid changed and drawn in a loop): the uninterrupted run now, the run to kill
# after 6. Checkpoint names are relative to the job's directory, frames to -o DIR.
cp "$SRCDIR/tests/fault/kill_job.gp" kill_job.gp
j_kref=$(PVOX_OUTDIR=kref PVOX_ARGS="--checkpoint kref.h5" "${SB[@]}" --mem=512M \
    --job-name=kill_ref jobs/dipole.sbatch kill_job.gp)
# 8's array tasks and the single job they are compared with, after the fill; the
# uninterrupted run of 9 and 10's restart.sbatch
j_aone=$(PVOX_N=64 PVOX_FRAMES=12 PVOX_OUTDIR=turn_one "${SB[@]}" --mem=512M \
    --job-name=frames_one --output=frames_one-%j.out --dependency=afterok:"$j_fill" \
    --kill-on-invalid-dep=yes jobs/frames_array.sbatch)
j_arr=$(PVOX_N=64 PVOX_FRAMES=12 PVOX_OUTDIR=turn_arr "${SB[@]}" --mem=512M --array=0-3 \
    --dependency=afterok:"$j_fill" --kill-on-invalid-dep=yes jobs/frames_array.sbatch)
RS_FRAMES=48   # restart.sbatch's frames in 9 and 10: the signals come after 4 and 6
j_rref=$(PVOX_OUTDIR=rs_ref PVOX_N=64 PVOX_FRAMES=$RS_FRAMES PVOX_ARGS=-v "${SB[@]}" --mem=512M \
    --job-name=restart_ref jobs/restart.sbatch)
# 11's job: 20 concurrent steps, each pvox with widen_mkdir.c preloaded, beside a loop
# that makes and removes Open MPI's per-user top directory in their TMPDIR
cat >steps.sbatch <<'EOF'
#!/bin/bash
#SBATCH --ntasks=2 --job-name=steps --output=steps-%j.out
export TMPDIR=$PWD/steps_tmp
top=$TMPDIR/ompi.$(hostname -s).$(id -u)
while [ ! -e steps_tmp.stop ]; do mkdir -p "$top"; rmdir "$top"; sleep 0.01; done 2>/dev/null &
churn=$!
pids=()
for i in $(seq 1 20); do
    n=1 args=()
    if [ $((i % 5)) -lt 2 ]; then n=2; fi
    if [ "$i" = 20 ]; then args=(-vv); fi
    srun --overlap -n "$n" --kill-on-bad-exit=1 env ${WIDEN:+LD_PRELOAD="$WIDEN"} \
        "$PVOX" "${args[@]}" -e 'set vgrid $g size 16; set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]' \
        -e "voxel(0.5, 0.5, 0.9) = $i; set print '-'; print sprintf('step $i: %g', voxel(0.5, 0.5, 0.9))" \
        >"steps/$i.out" 2>"steps/$i.err" &
    pids+=($!)
done
for i in $(seq 1 20); do
    wait "${pids[$((i - 1))]}"
    echo $? >"steps/$i.rc"
done
touch steps_tmp.stop
wait "$churn"
EOF
mkdir steps steps_tmp
j_steps=$(WIDEN=$WIDEN "${SB[@]}" steps.sbatch)
# 12's job: a small Meep run and its fields rendered
mkdir meep
j_meep=$(cd meep && ln -s "$SRCDIR/examples" examples && ln -s "$SRCDIR/jobs" jobs &&
    PVOX_RES=10 PVOX_FRAMES=3 PYTHON=/usr/bin/python3 "${SB[@]}" --mem=1G jobs/meep_fields.sbatch)
log "submitted jobs $j_dip $j_fill $j_rend $j_thr $j_mem $j_bad $j_kref $j_aone $j_arr $j_rref $j_steps $j_meep"

# 1. the example job: every picture of examples/dipole.gp
expect_job dipole.sbatch "$j_dip" COMPLETED 0:0 "dipole-$j_dip.out" 150
n=0
# (a7_iso, a8_nested: isosurfaces are not drawn yet, so pvox writes no picture for them)
for f in a1_charges a2_points a3_jitter a4_slice a5_slices \
         slfr00 slfr01 slfr02 slfr03 slfr04 slfr05 slfr06 slfr07 slfr08 slfr09; do
    check_png "out/$f.png" 800 600
    n=$((n + 1))
done
# (0.5, 0.5, 0.75) is a node of its 25³ grid: the voxel holds the exact potential there
near "$(printed_potential "dipole-$j_dip.out")" "$(potential 0.5 0.5 0.75)" \
    "dipole.sbatch: printed potential"
log "ok: dipole.sbatch wrote $n PNG files of 800x600"

# 2. the fill template at 64³: 2 ranks x 1 thread, the HDF5 voxels are the potential
out=fill_1024-$j_fill.out
expect_job "fill_1024.sbatch (64³)" "$j_fill" COMPLETED 0:0 "$out" 60
grep -q 'DEBUG app: pvox .* on 2 ranks x 1 threads' "$out" || { show_output "$out"; fail "fill: pvox did not run 2 ranks x 1 thread"; }
[ "$(od -An -tx1 -N8 dipole_64.h5 | tr -d ' \n')" = 894844460d0a1a0a ] \
    || fail "dipole_64.h5: not an HDF5 file"
# node i sits at i/63; the dataset is [z][y][x]. (32, 32, 48) is the node that
# (0.5, 0.5, 0.75) maps to (gnuplot's ceil rule: 31.5 -> 32, 47.25 -> 48)
for ijk in "48 32 32" "10 20 5" "0 63 17"; do
    read -r iz iy ix <<<"$ijk"
    want=$(potential "$(awk -v i="$ix" 'BEGIN{print i/63}')" "$(awk -v i="$iy" 'BEGIN{print i/63}')" \
                     "$(awk -v i="$iz" 'BEGIN{print i/63}')")
    near "$(h5_voxel dipole_64.h5 "$iz" "$iy" "$ix")" "$want" "dipole_64.h5 voxel [$iz][$iy][$ix]"
done
near "$(printed_potential "$out")" "$(potential "$(awk 'BEGIN{print 32/63}')" \
    "$(awk 'BEGIN{print 32/63}')" "$(awk 'BEGIN{print 48/63}')")" "fill: printed potential"
log "ok: dipole_64.h5 holds the dipole's potential (h5dump against arithmetic)"

# 3. the render job chained with --dependency=afterok: it starts after the fill ended
fill_end=$JOB_END
expect_job "render_h5.sbatch after the fill" "$j_rend" COMPLETED 0:0 "render_h5-$j_rend.out" 60
[ "$JOB_START" -ge "$fill_end" ] || fail "render job started at $JOB_START, before the fill ended at $fill_end"
check_png dipole_64_slices.png 800 600
log "ok: render_h5.sbatch drew dipole_64_slices.png from the checkpoint after the fill"

# 4. threads come from --cpus-per-task
out=fill_threads-$j_thr.out
expect_job "fill_1024.sbatch -n 1 -c 2" "$j_thr" COMPLETED 0:0 "$out" 60
grep -q 'DEBUG app: pvox .* on 1 ranks x 2 threads' "$out" || { show_output "$out"; fail "fill -c 2: pvox did not run 1 rank x 2 threads"; }
[ -s dipole_32.h5 ] || fail "dipole_32.h5 missing"
log "ok: --cpus-per-task=2 gave pvox 2 threads"

# 5. a grid larger than the allocation's memory is refused (512³ = 512 MiB > 64M)
out=fill_toobig-$j_mem.out
expect_job "fill_1024.sbatch 512³ in --mem=64M" "$j_mem" FAILED 3:0 "$out" 60
grep -qi 'memory' "$out" || { show_output "$out"; fail "fill 512³: no memory error in the output"; }
[ ! -e dipole_512.h5 ] || fail "fill 512³: dipole_512.h5 written despite the memory limit"
log "ok: pvox refused 512³ in --mem=64M: $(grep -i -m1 'memory' "$out")"

# 6. a script error fails the job with pvox's exit status 1
out=broken-$j_bad.out
expect_job "dipole.sbatch broken.gp" "$j_bad" FAILED 1:0 "$out" 60
# pvox's located error (file:line:column), after the script's first line ran
err='^broken\.gp:2:[0-9]*: error: undefined variable: nosuchvar'
if ! grep -q '^broken.gp starts$' "$out" || ! grep -q "$err" "$out"; then
    show_output "$out"
    fail "broken job: no 'undefined variable' error at broken.gp line 2"
fi
log "ok: a script error ends the job FAILED 1:0: $(grep -m1 "$err" "$out")"

# 7. a task killed with SIGKILL (as the OOM killer or a failing node does it), resumed
expect_job "dipole.sbatch kill_job.gp (uninterrupted)" "$j_kref" COMPLETED 0:0 "kill_ref-$j_kref.out" 90
j_kill=$(PVOX_OUTDIR=kill PVOX_ARGS="--checkpoint kill.h5 --checkpoint-every 0" "${SB[@]}" --mem=512M \
    --job-name=kill_task jobs/dipole.sbatch kill_job.gp)
out=kill_task-$j_kill.out
task_pids() {   # jobid [procid] -> PIDs of the job's pvox processes (of that task only)
    local e pid env
    for e in /proc/[0-9]*/environ; do
        pid=${e#/proc/}
        pid=${pid%/environ}
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = pvox ] || continue
        env=$(tr '\0' '\n' 2>/dev/null <"$e") || continue
        grep -qxF "SLURM_JOB_ID=$1" <<<"$env" || continue
        if [ -z "${2:-}" ] || grep -qxF "SLURM_PROCID=$2" <<<"$env"; then echo "$pid"; fi
    done
}
job_state() { scontrol show job -o "$1" 2>/dev/null | sed -n 's/.* JobState=\([A-Z_]*\).*/\1/p'; }
seconds_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
# once three frames exist, SIGKILL the pvox of task 1 (the cluster is this machine)
deadline=$(( $(date +%s) + 90 ))
victim=
while [ -z "$victim" ]; do
    if [ "$(date +%s)" -ge "$deadline" ] || [ "$(date +%s)" -ge "$DEADLINE" ]; then
        show_output "$out"
        fail "kill_task (job $j_kill): no kill/f02.png and task 1 in time"
    fi
    state=$(job_state "$j_kill")
    case "$state" in
    PENDING | CONFIGURING | RUNNING) ;;
    *) show_output "$out"; fail "kill_task (job $j_kill) ended $state before it could be killed" ;;
    esac
    [ -e kill/f02.png ] && victim=$(task_pids "$j_kill" 1)
    sleep 0.05
done
[ "$(wc -w <<<"$victim")" = 1 ] || fail "kill_task (job $j_kill): task 1 has pvox processes '$victim'"
kill -9 "$victim"
t_kill=$(date +%s.%N)
frames_before=$(compgen -G 'kill/f*.png' | wc -l)
# the step and the job end, and every pvox of the job exits, within 60 s
while :; do
    state=$(job_state "$j_kill")
    case "$state" in
    PENDING | CONFIGURING | RUNNING | COMPLETING | "") left=1 ;;
    *) left=$(task_pids "$j_kill" | wc -l) ;;
    esac
    [ "$left" = 0 ] && break
    if awk -v a="$t_kill" -v b="$(date +%s.%N)" 'BEGIN { exit !(b - a >= 60) }'; then
        show_output "$out"
        scancel "$j_kill" 2>/dev/null || true
        fail "kill_task (job $j_kill): still $state, pvox PIDs '$(task_pids "$j_kill" | tr '\n' ' ')', 60 s after task 1 was killed (hang)"
    fi
    sleep 0.1
done
waited=$(seconds_since "$t_kill")
wait_job "$j_kill" 10
if [ "$JOB_STATE" != FAILED ]; then
    show_output "$out"
    fail "kill_task (job $j_kill): $JOB_STATE ExitCode=$JOB_EC after task 1 was killed, expected FAILED"
fi
grep -q 'task 1: Killed' "$out" || { show_output "$out"; fail "kill_task: no 'task 1: Killed' from srun"; }
log "ok: task 1 of job $j_kill killed after $frames_before frames: the step and the job ended ($JOB_STATE ExitCode=$JOB_EC) $waited s later"
# the checkpoint is intact (and the resumed job loads it, checking its checksums)
h5dump -H kill.h5 >/dev/null 2>&1 || fail "kill.h5: h5dump cannot read the checkpoint"
h5_checksum() {   # file -> the checksum attribute of /grids/$v
    # shellcheck disable=SC2016  # the dataset is literally named $v
    h5dump -a '/grids/$v/checksum' "$1" 2>/dev/null | sed -n 's/^ *(0): *\([0-9]*\).*/\1/p' | head -n 1
}
[ -n "$(h5_checksum kill.h5)" ] || fail "kill.h5: no checksum attribute"
# resubmitted with --resume: the frames written are kept, the others drawn
t_res=$(date +%s.%N)
j_res=$(PVOX_OUTDIR=kill PVOX_ARGS="-v --resume kill.h5 --checkpoint kill.h5" "${SB[@]}" \
    --mem=512M --job-name=kill_resume jobs/dipole.sbatch kill_job.gp)
out=kill_resume-$j_res.out
expect_job "dipole.sbatch kill_job.gp --resume" "$j_res" COMPLETED 0:0 "$out" 90
grep -q 'ckpt: resuming from kill.h5' "$out" || { show_output "$out"; fail "kill_resume: no 'resuming from kill.h5'"; }
sum_ref=$(h5_checksum kref.h5) sum_res=$(h5_checksum kill.h5)
if [ -z "$sum_ref" ] || [ "$sum_res" != "$sum_ref" ]; then
    fail "kill_resume: final grid checksum '$sum_res', the uninterrupted run's '$sum_ref'"
fi
# shellcheck disable=SC2016
h5diff kill.h5 kref.h5 '/grids/$v' '/grids/$v' >/dev/null 2>&1 \
    || fail "kill_resume: the final voxels differ from the uninterrupted run's (h5diff)"
bad=$(python3 "$SRCDIR/tests/pngcheck.py" kref/f*.png) || fail "kill_resume: $bad"
for i in $(seq -f '%02g' 0 23); do   # the same rank count: the same bytes
    cmp -s "kill/f$i.png" "kref/f$i.png" || fail "kill_resume: kill/f$i.png differs from kref/f$i.png (or is missing)"
done
tmps=$(compgen -G 'kill.*.tmp.*' || true; compgen -G 'kill/*.tmp.*' || true)
[ -z "$tmps" ] || fail "kill_resume: temporary files left: $tmps"
log "ok: resubmitted with --resume: COMPLETED 0:0 $(seconds_since "$t_res") s after submission, the final grid and all 24 frames as uninterrupted"

# 8. a job array: the tasks split the frames of a turn around the fill's grid (2's
# dipole_64.h5); together they write the bytes one job drawing every frame writes
expect_job "frames_array.sbatch, one job" "$j_aone" COMPLETED 0:0 "frames_one-$j_aone.out" 90
for k in 0 1 2 3; do
    expect_job "frames_array.sbatch --array=0-3, task $k" "${j_arr}_$k" COMPLETED 0:0 \
        "frames_array-${j_arr}_$k.out" 90
    grep -q "task $k of 4: frames $((k * 3)) to $((k * 3 + 2)) of 12" "frames_array-${j_arr}_$k.out" \
        || { show_output "frames_array-${j_arr}_$k.out"; fail "array task $k: not frames $((k * 3))-$((k * 3 + 2))"; }
done
[ "$(compgen -G 'turn_arr/turn_*.png' | wc -l)" = 12 ] || fail "the array wrote $(compgen -G 'turn_arr/turn_*.png' | wc -l) frames, expected 12"
for i in $(seq -f '%03g' 0 11); do
    check_png "turn_one/turn_$i.png" 640 480
    cmp -s "turn_arr/turn_$i.png" "turn_one/turn_$i.png" \
        || fail "array: turn_arr/turn_$i.png differs from the single job's turn_one/turn_$i.png (or is missing)"
done
log "ok: the 4 tasks of frames_array.sbatch wrote the 12 frames of the single job, byte for byte"

# 9 and 10: jobs/restart.sbatch (orbit.gp at 64³, 48 frames; the grid changes before
# every frame). The uninterrupted job first: its frames and its last grid checksum (-v).
# shellcheck disable=SC2016  # the grid is literally named $v
last_checksum() { sed -n 's/.* grid: \$v checksum \([0-9a-f]*\).*/\1/p' "$1" | tail -n 1; }
expect_job "restart.sbatch (uninterrupted)" "$j_rref" COMPLETED 0:0 "restart_ref-$j_rref.out" 90
sum_rref=$(last_checksum "restart_ref-$j_rref.out")
[ -n "$sum_rref" ] || { show_output "restart_ref-$j_rref.out"; fail "restart_ref: no grid checksum in the log"; }
for i in $(seq -f '%03g' 0 $((RS_FRAMES - 1))); do check_png "rs_ref/orbit_$i.png" 640 480; done
restart_matches() {   # name dir log -> the frames and final grid of the uninterrupted job
    local i sum
    [ "$(compgen -G "$2/orbit_*.png" | wc -l)" = "$RS_FRAMES" ] || fail "$1: $(compgen -G "$2/orbit_*.png" | wc -l) frames in $2, expected $RS_FRAMES"
    for i in $(seq -f '%03g' 0 $((RS_FRAMES - 1))); do
        cmp -s "$2/orbit_$i.png" "rs_ref/orbit_$i.png" || fail "$1: $2/orbit_$i.png differs from the uninterrupted job's"
    done
    sum=$(last_checksum "$3")
    [ "$sum" = "$sum_rref" ] || fail "$1: final grid checksum '$sum', the uninterrupted job's $sum_rref"
    [ -z "$(compgen -G "$2/*.tmp.*")" ] || fail "$1: temporary files left: $(compgen -G "$2/*.tmp.*" | tr '\n' ' ')"
    h5dump -H "$2/restart.h5" >/dev/null 2>&1 || fail "$1: h5dump cannot read $2/restart.h5"
}
wait_frame() {   # name jobid file -> returns once file exists while the job runs
    local deadline=$(( $(date +%s) + 90 ))
    while [ ! -e "$3" ]; do
        case "$(job_state "$2")" in
        PENDING | CONFIGURING | RUNNING) ;;
        *) show_output "$1-$2.out"; fail "$1 (job $2) ended $(job_state "$2") before $3" ;;
        esac
        { [ "$(date +%s)" -lt "$deadline" ] && [ "$(date +%s)" -lt "$DEADLINE" ]; } \
            || fail "$1 (job $2): no $3 in time"
        sleep 0.05
    done
}

# 9. SIGUSR1 to the batch shell (as --signal=B:USR1@120 sends it before the time limit):
# the trap passes it on, pvox checkpoints and exits 75, the job requeues itself, runs
# again under the same id, resumes, and completes
t_rs=$(date +%s.%N)
j_rs=$(PVOX_OUTDIR=rs PVOX_N=64 PVOX_FRAMES=$RS_FRAMES PVOX_ARGS=-v "${SB[@]}" --mem=512M \
    --job-name=restart_usr1 jobs/restart.sbatch)
out=restart_usr1-$j_rs.out
wait_frame restart_usr1 "$j_rs" rs/orbit_003.png
scancel --signal=USR1 --batch "$j_rs"
frames_before=$(compgen -G 'rs/orbit_*.png' | wc -l)
# Slurm holds a requeued job until BeginTime, cred_expire (20 s in this cluster's
# slurm.conf; 120 s by default) on: until then slurmd refuses the job id's credentials
# ("Job credential revoked"), so the job is not released earlier
deadline=$(( $(date +%s) + 90 ))
while ! scontrol show job -o "$j_rs" | grep -q ' JobState=PENDING.* Restarts=1\| Restarts=1 .*JobState=PENDING'; do
    case "$(job_state "$j_rs")" in
    COMPLETED | FAILED | CANCELLED) show_output "$out"; fail "restart_usr1 (job $j_rs) ended $(job_state "$j_rs") instead of requeueing" ;;
    esac
    [ "$(date +%s)" -lt "$deadline" ] || { show_output "$out"; fail "restart_usr1 (job $j_rs): not requeued 90 s after SIGUSR1"; }
    sleep 0.1
done
log "restart_usr1 (job $j_rs) requeued $(seconds_since "$t_rs") s after submission: $(scontrol show job -o "$j_rs" | grep -o 'Reason=[^ ]*\|EligibleTime=[^ ]*' | tr '\n' ' ')"
# (the first run's step daemons must have gone: the new run's step has the same id)
while pgrep -f "slurmstepd: \[$j_rs\." >/dev/null; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "restart_usr1 (job $j_rs): the first run's slurmstepd still runs"
    sleep 0.1
done
until grep -qF '(run 2)' "$out"; do   # its state before then is the first run's
    [ "$(date +%s)" -lt "$deadline" ] || { show_output "$out"; scontrol show job "$j_rs"; fail "restart_usr1 (job $j_rs): no second run within 90 s"; }
    sleep 0.1
done
expect_job "restart.sbatch stopped by SIGUSR1" "$j_rs" COMPLETED 0:0 "$out" 120
restarts=$(scontrol show job -o "$j_rs" | sed -n 's/.* Restarts=\([0-9]*\).*/\1/p')
[ "$restarts" = 1 ] || { show_output "$out"; fail "restart_usr1: Restarts=$restarts, expected 1 (one requeue)"; }
for want in 'SIGUSR1: stopped early; checkpoint rs/restart.h5' 'requeueing the job' \
            'ckpt: resuming from rs/restart.h5' '(run 2)'; do
    grep -qF "$want" "$out" || { show_output "$out"; fail "restart_usr1: no '$want' in the job log"; }
done
restart_matches restart_usr1 rs "$out"
log "ok: restart.sbatch got SIGUSR1 after $frames_before frames, stopped with a checkpoint, requeued itself and completed the $RS_FRAMES frames as uninterrupted ($(seconds_since "$t_rs") s in all)"

# 10. scancel (SIGTERM, then SIGKILL after KillWait): the job ends CANCELLED; submitted
# again, it resumes from its checkpoint and completes
t_rs=$(date +%s.%N)
j_rk=$(PVOX_OUTDIR=rk PVOX_N=64 PVOX_FRAMES=$RS_FRAMES PVOX_ARGS=-v "${SB[@]}" --mem=512M \
    --job-name=restart_kill jobs/restart.sbatch)
wait_frame restart_kill "$j_rk" rk/orbit_005.png
scancel "$j_rk"
frames_before=$(compgen -G 'rk/orbit_*.png' | wc -l)
wait_job "$j_rk" 60
[ "$JOB_STATE" = CANCELLED ] || { show_output "restart_kill-$j_rk.out"; fail "restart_kill (job $j_rk): $JOB_STATE ExitCode=$JOB_EC after scancel, expected CANCELLED"; }
how=$(grep -q 'stopped early; checkpoint rk/restart.h5' "restart_kill-$j_rk.out" \
    && echo "pvox stopped at a safe point and saved its checkpoint" || echo "pvox killed before a safe point")
[ "$(compgen -G 'rk/orbit_*.png' | wc -l)" -lt "$RS_FRAMES" ] || fail "restart_kill: the job drew every frame before scancel took effect"
j_rk2=$(PVOX_OUTDIR=rk PVOX_N=64 PVOX_FRAMES=$RS_FRAMES PVOX_ARGS=-v "${SB[@]}" --mem=512M \
    --job-name=restart_again jobs/restart.sbatch)
out=restart_again-$j_rk2.out
expect_job "restart.sbatch submitted again" "$j_rk2" COMPLETED 0:0 "$out" 120
grep -qF 'ckpt: resuming from rk/restart.h5' "$out" || { show_output "$out"; fail "restart_again: no 'resuming from rk/restart.h5'"; }
restart_matches restart_again rk "$out"
log "ok: restart.sbatch cancelled after $frames_before frames ($how), submitted again: resumed and completed the $RS_FRAMES frames as uninterrupted ($(seconds_since "$t_rs") s in all)"

# 11. the concurrent steps (queued at the start): every one printed its line and exited 0
expect_job "steps.sbatch (20 concurrent srun steps)" "$j_steps" COMPLETED 0:0 "steps-$j_steps.out" 120
for i in $(seq 1 20); do
    rc=$(cat "steps/$i.rc" 2>/dev/null || true)
    if [ "$rc" != 0 ] || [ "$(cat "steps/$i.out")" != "step $i: $i" ]; then
        show_output "steps/$i.out"
        show_output "steps/$i.err"
        fail "steps.sbatch: step $i exited ${rc:-?}, expected 0 and 'step $i: $i'"
    fi
done
grep -q 'MPI start-up settings: one node' steps/20.err \
    || { show_output steps/20.err; fail "steps.sbatch: pvox -vv did not log the one-node start-up settings"; }
left=$(cd steps_tmp && find . -mindepth 1 | head -5)
[ -z "$left" ] || fail "steps.sbatch: left behind in the steps' TMPDIR: $(echo "$left" | tr '\n' ' ')"
left=$(compgen -G "/tmp/spmix_appdir_$(id -u)_$j_steps.*" || true)
[ -z "$left" ] || fail "steps.sbatch: the steps' PMIx directories are left: $left"
log "ok: 20 concurrent srun steps (8 of 2 tasks) ${WIDEN:+with widen_mkdir.c preloaded }beside a shared top directory made and removed: all exited 0, nothing left (the job ran $((JOB_END - JOB_START)) s)"

# 12. Meep's fields rendered from its own HDF5 files
out=meep/meep_fields-$j_meep.out
expect_job meep_fields.sbatch "$j_meep" COMPLETED 0:0 "$out" 240
for f in meep_eps meep_ez_001 meep_ez_002 meep_ez_003; do
    check_png "meep/$f.png" 800 600
done
grep -q 'drew meep_eps.png and 3 frames of Ez from ring-\*.h5' "$out" \
    || { show_output "$out"; fail "meep_fields.sbatch: no closing line"; }
log "ok: meep_fields.sbatch ran Meep and drew its eps isosurface and 3 Ez frames"

log "all SLURM checks passed"
