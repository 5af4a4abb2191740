#!/usr/bin/env bash
# Whole-job scale benchmark (bench/README.md, "A 1024^3 job end to end"): the article's
# dipole filled on an N^3 grid, a vsave checkpoint, 201 nested isosurfaces, a frame of
# three "++" pm3d slices and F frames of a moving slice, all in one pvox process
# (bench/scale_job.gp), then the checkpoint reloaded at another rank count with one frame
# drawn (bench/scale_reload.gp); per phase the wall time the process spent (the job prints
# "@phase EPOCH" marks, on the same clock as the launch and the exit) beside the kernel
# time pvox reports (-v log lines, --stats frames), and per rank the peak memory against
# the target of 4.2 bytes per local voxel + 256 MiB.
#
#   bench/bench_scale.sh [PVOX]                         # default build/pvox, every part
#   N=256 PARTS=job bench/bench_scale.sh build/pvox    # a quick run
#
# PARTS (default "job sweep overhead anchor"):
#   job       the N^3 job (N=1024, F=100 frames, S=200 samples) at NP (2) ranks x NT (1)
#             threads, REPS (1) runs, the median-time run reported; then the reload at
#             RELOAD_NP (1) ranks x RELOAD_NT (2) threads; the two grid checksums must agree.
#   sweep     the same job with SWEEP_F (10) frames at SWEEP_SIZES ("256 512 1024") on 2
#             ranks x 1 thread, and at SWEEP_N (1024) on SWEEP_LAYOUTS ("1x2 2x1 4x1",
#             ranks x threads; 4x1 oversubscribes the 2 cores); writes scale_size.dat and
#             scale_ranks.dat to RESULTS and draws them with bench/scale_plot.gp.
#   overhead  start-up of an empty job (pvox singleton, mpiexec -n 1 and 2, gnuplot; Open
#             MPI MCA settings), median of OVH_REPS (7); fills at OVH_N^3 (400): time from
#             launch to the fill kernel, the kernel, the end of the run; dipole and Gaussian.
#   anchor    gnuplot 5.4 on the same job at GN^3 (128; 256 at most) with GF (100) frames;
#             ParaView's pvbatch on the sequence (bench/frames_pvbatch.py, PV_F frames,
#             default F) and VTK's flying edges (bench/iso_vtk.py, VTK_LEVELS, default "0": one
#             level) on the N^3 checkpoint of the job part.
# WORK (default build/bench_scale) holds the runs and the checkpoints (4 GiB at 1024^3;
# deleted at the end unless KEEP=1); RESULTS (default WORK) gets the .dat files; PLOTS
# (default bench) the PNGs. mpiexec runs with --bind-to none --oversubscribe.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
PVOX=$(realpath "${1:-build/pvox}")
N=${N:-1024}
F=${F:-100}
S=${S:-200}
NP=${NP:-2}
NT=${NT:-1}
REPS=${REPS:-1}
RELOAD_NP=${RELOAD_NP:-1}
RELOAD_NT=${RELOAD_NT:-2}
SWEEP_F=${SWEEP_F:-10}
SWEEP_SIZES=${SWEEP_SIZES:-256 512 1024}
SWEEP_N=${SWEEP_N:-1024}
SWEEP_LAYOUTS=${SWEEP_LAYOUTS:-1x2 2x1 4x1}
OVH_REPS=${OVH_REPS:-7}
OVH_N=${OVH_N:-400}
GN=${GN:-128}
GF=${GF:-100}
PV_F=${PV_F:-$F}
VTK_LEVELS=${VTK_LEVELS:-0}
PARTS=${PARTS:-job sweep overhead anchor}
WORK=$(realpath -m "${WORK:-build/bench_scale}")
RESULTS=${RESULTS:-$WORK}
PLOTS=${PLOTS:-$here}
[ -x "$PVOX" ] || { echo "bench_scale: $PVOX not built" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench_scale: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
mkdir -p "$WORK" "$RESULTS"
[ "${KEEP:-0}" = 1 ] || trap 'rm -f "$WORK"/*.h5 "$WORK"/*.xmf; rm -rf "$WORK"/run.*' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
has() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.3f\", $* }"; }
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
fail() { echo "bench_scale: $1" >&2; [ -z "${2:-}" ] || tail -30 "$2" >&2; exit 1; }

# launch DIR NP NT ARGS...: one mpiexec run of pvox in DIR (its -o), each rank under its
# own /usr/bin/time (peak resident KiB in DIR/rss.RANK); DIR/log, DIR/t0 and DIR/t1.
launch() {
    local d=$1 np=$2 nt=$3
    shift 3
    rm -rf "$d" && mkdir -p "$d"
    now > "$d/t0"
    OMP_NUM_THREADS=$nt mpiexec --bind-to none --oversubscribe -n "$np" \
        sh -c 'exec /usr/bin/time -f %M -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' "$d/rss" \
        "$PVOX" -v --log-all-ranks --threads "$nt" --stats "$d/stats.json" -o "$d" "$@" \
        > "$d/log" 2>&1 || fail "pvox failed in $d" "$d/log"
    now > "$d/t1"
}

# summarise DIR N NP: one line of key=value from a run of scale_job.gp or scale_reload.gp:
# wall seconds per phase (between the job's marks; startup from the launch, exit to the
# end of mpiexec), kernel seconds per phase (slowest rank), the grid checksum, and per rank
# tracked peak, peak RSS (stats) and /usr/bin/time's peak, with the memory target.
summarise() {
    python3 - "$@" <<'PY'
import glob, json, re, sys
d, n, np_ = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
log = open(f"{d}/log").read()
t0, t1 = float(open(f"{d}/t0").read()), float(open(f"{d}/t1").read())
marks = {m: float(t) for m, t in re.findall(r"^@(\w+) ([0-9.]+)$", log, re.M)}
st = json.load(open(f"{d}/stats.json"))
out = {"total": t1 - t0, "startup": marks["start"] - t0, "exit": t1 - marks["end"]}
order = [m for m in ("start", "load", "frame", "fill", "checkpoint", "iso", "slices",
                     "sequence", "end") if m in marks]
for a, b in zip(order, order[1:]):
    out[a if a != "start" else "setup"] = marks[b] - marks[a]
def kmax(pat):
    v = [float(x) for x in re.findall(pat, log)]
    return max(v) if v else 0.0
out["k_fill"] = kmax(r"vfill: \d+ voxel updates in ([0-9.]+) s")
out["k_checkpoint"] = kmax(r"vsave \S+: .* bytes in ([0-9.]+) s")
out["k_load"] = kmax(r"vload \S+: .* bytes in ([0-9.]+) s")
# the -v checksum pass after the fill: the log clock of rank 0's checksum line minus its
# vfill line
m = re.search(r"\[\s*([0-9.]+)\] r0/\d+ INFO  grid: vfill:.*\n(?:.*\n)*?\[\s*([0-9.]+)\] r0/\d+ INFO  grid: \$v checksum", log)
out["k_checksum"] = float(m.group(2)) - float(m.group(1)) if m else 0.0
sums = re.findall(r"grid: \$v checksum ([0-9a-f]+)", log)
out["checksum"] = sums[-1] if sums else "-"
phases = ("scene_s", "raster_s", "composite_s", "annotate_s", "encode_s")
def frame_time(fr):  # the slowest rank's sum of the phases (write_s overlaps the next frame)
    return max(sum(r[p] for p in phases) for r in fr["ranks"])
kf = {"iso": 0.0, "slices": 0.0, "sequence": 0.0, "frame": 0.0}
nseq = 0
for fr in st["frames"]:
    name = fr["output"].rsplit("/", 1)[-1]
    key = {"iso_201.png": "iso", "slices.png": "slices", "slice_reload.png": "frame"}.get(name, "sequence")
    kf[key] += frame_time(fr)
    nseq += key == "sequence"
for k, v in kf.items():
    out["k_" + k] = v
out["frames"] = nseq
out["triangles"] = st["totals"]["triangles"]
# memory: per rank, its planes of the z-slab split (N/P, the first N mod P ranks one more)
worst, worst_tracked = None, 0.0
for r in st["ranks"]:
    k = r["rank"]
    planes = n // np_ + (1 if k < n % np_ else 0)
    target = 4.2 * n * n * planes + 256 * 2**20
    try:
        rss_time = int(open(f"{d}/rss.{k}").read().split()[-1]) * 1024
    except (OSError, ValueError, IndexError):
        rss_time = 0
    peak = max(rss_time, r["peak_rss_bytes"])  # resident: /usr/bin/time's and getrusage's
    out[f"mem{k}"] = "%.0f/%.0f/%.0f/%.0f" % (r["peak_memory_bytes"] / 2**20, r["peak_rss_bytes"] / 2**20,
                                            rss_time / 2**20, target / 2**20)
    if worst is None or peak / target > worst[0]:
        worst = (peak / target, peak, target)
    worst_tracked = max(worst_tracked, r["peak_memory_bytes"] / target)
out["mem_ratio"] = worst[0]
out["mem_peak_mib"] = worst[1] / 2**20
out["mem_target_mib"] = worst[2] / 2**20
out["mem"] = "PASS" if worst[0] <= 1 else "MISS"
out["mem_tracked_ratio"] = worst_tracked
out["mem_tracked"] = "PASS" if worst_tracked <= 1 else "MISS"
print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in out.items()))
PY
}
get() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; } # get LINE KEY

# job DIR N NP NT F [H5]: REPS runs of scale_job.gp; prints the summary of the median run
job() {
    local d=$1 n=$2 np=$3 nt=$4 f=$5 h5=${6:-} args k lines=() tot=()
    args="N=$n; F=$f; S=$S"
    [ -z "$h5" ] || args="$args; H5='$h5'"
    for k in $(seq "$REPS"); do
        launch "$d.$k" "$np" "$nt" -e "$args" "$here/scale_job.gp"
        lines+=("$(summarise "$d.$k" "$n" "$np")")
        tot+=("$(get "${lines[-1]}" total)")
    done
    local med
    med=$(printf '%s\n' "${tot[@]}" | median)
    for k in "${!lines[@]}"; do # the run nearest the median
        echo "$(calc "(${tot[$k]} - $med)^2") $k"
    done | sort -g | head -1 | { read -r _ k; echo "${lines[$k]} runs=$(printf '%s,' "${tot[@]}" | sed 's/,$//')"; }
}

phase_row() { # LABEL WALL KERNEL (0: none)
    printf '| %s | %s | %s | %s |\n' "$1" "$2" "$(awk -v k="$3" 'BEGIN { print (k > 0) ? k : "-" }')" \
        "$(awk -v w="$2" -v k="$3" 'BEGIN { if (k > 0) printf "%.2f", w / k; else printf "-" }')"
}

# ---- job: the N^3 job and its reload ------------------------------------------------
if has job; then
    h5="$WORK/scale_$N.h5"
    echo "== ${N}^3 job at $NP ranks x $NT threads, F=$F frames of ${S}x$S samples (median of $REPS)"
    J=$(job "$WORK/run.job" "$N" "$NP" "$NT" "$F" "$h5")
    echo "$J" > "$RESULTS/scale_job.txt"
    echo "| phase | wall s (whole process) | kernel s (pvox's own timers) | wall / kernel |"
    echo "|---|---|---|---|"
    phase_row "start-up (launch to the first line)" "$(get "$J" startup)" 0
    phase_row "set-up (terminal, set vgrid)" "$(get "$J" setup)" 0
    phase_row "fill (vfill; wall incl. the -v checksum $(get "$J" k_checksum) s)" "$(get "$J" fill)" "$(get "$J" k_fill)"
    phase_row "checkpoint (vsave, $(calc "4 * $N^3 / 2^30") GiB)" "$(get "$J" checkpoint)" "$(get "$J" k_checkpoint)"
    phase_row "201 isosurfaces, 1 frame ($(get "$J" triangles) triangles in all frames)" "$(get "$J" iso)" "$(get "$J" k_iso)"
    phase_row "3 slices, 1 frame" "$(get "$J" slices)" "$(get "$J" k_slices)"
    phase_row "sequence, $(get "$J" frames) frames" "$(get "$J" sequence)" "$(get "$J" k_sequence)"
    phase_row "exit (last line to mpiexec's end)" "$(get "$J" exit)" 0
    phase_row "**whole job** (\`time mpiexec\`; runs: $(get "$J" runs))" "$(get "$J" total)" 0
    echo "checksum $(get "$J" checksum); memory per rank (MiB: tracked/stats RSS/time RSS/target):" \
        "$(echo "$J" | tr ' ' '\n' | grep '^mem[0-9]' | tr '\n' ' ')"
    echo "memory target: resident peak $(get "$J" mem_peak_mib) MiB against $(get "$J" mem_target_mib) MiB" \
        "(4.2 B/voxel + 256 MiB), $(get "$J" mem_ratio) of it: $(get "$J" mem);" \
        "tracked peak $(get "$J" mem_tracked_ratio) of it: $(get "$J" mem_tracked)"

    echo "== reload of the checkpoint at $RELOAD_NP ranks x $RELOAD_NT threads"
    launch "$WORK/run.reload" "$RELOAD_NP" "$RELOAD_NT" -e "H5='$h5'; S=$S" "$here/scale_reload.gp"
    R=$(summarise "$WORK/run.reload" "$N" "$RELOAD_NP")
    echo "$R" > "$RESULTS/scale_reload.txt"
    echo "| phase | wall s | kernel s | wall / kernel |"
    echo "|---|---|---|---|"
    phase_row "start-up" "$(get "$R" startup)" 0
    phase_row "set-up" "$(get "$R" setup)" 0
    phase_row "load (vload, checksum checked)" "$(get "$R" load)" "$(get "$R" k_load)"
    phase_row "1 slice frame" "$(get "$R" frame)" "$(get "$R" k_frame)"
    phase_row "exit" "$(get "$R" exit)" 0
    phase_row "**whole job**" "$(get "$R" total)" 0
    same=NO
    [ "$(get "$R" checksum)" = "$(get "$J" checksum)" ] && same=yes
    echo "checksum written $(get "$J" checksum), reloaded $(get "$R" checksum): same=$same;" \
        "memory $(get "$R" mem_peak_mib) MiB against $(get "$R" mem_target_mib) MiB: $(get "$R" mem)" \
        "(tracked $(get "$R" mem_tracked))"
    [ "$same" = yes ] || fail "the reloaded grid's checksum differs"
fi

# ---- anchor: gnuplot on the same job at GN^3; pvbatch and VTK on the N^3 checkpoint -------
if has anchor; then
    echo "== anchors"
    if command -v gnuplot >/dev/null; then
        d="$WORK/run.gnuplot"
        rm -rf "$d" && mkdir -p "$d"
        t0=$(now)
        (cd "$d" && /usr/bin/time -f %M -o rss gnuplot -e "N=$GN; F=$GF; S=$S" "$here/scale_job.gp" > log 2>&1) ||
            fail "gnuplot failed" "$d/log"
        t1=$(now)
        python3 - "$d/log" "$t0" "$t1" "$(cat "$d/rss")" "$GN" "$GF" <<'PY' | tee "$RESULTS/scale_gnuplot.txt"
import re, sys
log, t0, t1, rss, n, f = open(sys.argv[1]).read(), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
m = {k: float(v) for k, v in re.findall(r"^@(\w+) ([0-9.]+)$", log, re.M)}
o = ["start", "fill", "checkpoint", "iso", "slices", "sequence", "end"]
print(f"gnuplot {n}^3 F={f}: startup={m['start'] - t0:.3f} setup={m['fill'] - m['start']:.3f} " +
      " ".join(f"{a}={m[b] - m[a]:.3f}" for a, b in zip(o[1:], o[2:])) +
      f" exit={t1 - m['end']:.3f} total={t1 - t0:.3f} rss_mib={rss / 1024:.0f}")
PY
    fi
    h5="$WORK/scale_$N.h5"
    if [ -f "$h5" ] && command -v pvbatch >/dev/null; then
        d="$WORK/run.pvbatch"
        rm -rf "$d" && mkdir -p "$d"
        t0=$(now)
        env -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_RANK -u PMIX_RANK /usr/bin/time -f %M -o "$d/rss" \
            xvfb-run -a pvbatch "$here/frames_pvbatch.py" "$h5" "$d" --frames "$PV_F" > "$d/log" 2>&1 ||
            fail "pvbatch failed" "$d/log"
        t1=$(now)
        echo "pvbatch ${N}^3 sequence: $(grep '^pv_frames' "$d/log") whole=$(calc "$t1 - $t0") rss_mib=$(($(cat "$d/rss") / 1024))" |
            tee "$RESULTS/scale_pvbatch.txt"
        rm -rf "$d"
    fi
    if [ -f "$h5" ] && command -v pvpython >/dev/null; then
        d="$WORK/run.vtk"
        rm -rf "$d" && mkdir -p "$d"
        t0=$(now)
        env -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_RANK -u PMIX_RANK /usr/bin/time -f %M -o "$d/rss" \
            pvpython "$here/iso_vtk.py" "$h5" --levels="$VTK_LEVELS" --threads "2" --reps 1 > "$d/log" 2>&1 ||
            fail "iso_vtk.py failed" "$d/log"
        t1=$(now)
        echo "vtk ${N}^3 levels=$VTK_LEVELS: $(grep '^vtk_iso' "$d/log") whole=$(calc "$t1 - $t0") rss_mib=$(($(cat "$d/rss") / 1024))" |
            tee "$RESULTS/scale_vtk.txt"
        rm -rf "$d"
    fi
fi
[ "${KEEP:-0}" = 1 ] || rm -f "$WORK"/scale_*.h5 "$WORK"/scale_*.xmf

# ---- sweep: grid size at 2 ranks, rank count at SWEEP_N ---------------------------------
sweep_cols="startup setup fill k_fill k_checksum checkpoint k_checkpoint iso k_iso slices k_slices sequence k_sequence exit total mem_peak_mib mem_target_mib mem_ratio mem_tracked_ratio"
sweep_line() { # X SUMMARY
    local c out="$1"
    for c in $sweep_cols; do out="$out $(get "$2" "$c")"; done
    echo "$out"
}
if has sweep; then
    echo "== sweep: sizes ($SWEEP_SIZES) at 2x1, layouts ($SWEEP_LAYOUTS) at ${SWEEP_N}^3; F=$SWEEP_F"
    {
        echo "# N $sweep_cols"
        for n in $SWEEP_SIZES; do
            sweep_line "$n" "$(job "$WORK/run.size$n" "$n" 2 1 "$SWEEP_F" "$WORK/scale_sweep.h5")"
            rm -f "$WORK/scale_sweep.h5" "$WORK/scale_sweep.xmf"
        done
    } | tee "$RESULTS/scale_size.dat"
    {
        echo "# ranks threads $sweep_cols"
        for l in $SWEEP_LAYOUTS; do
            np=${l%x*} nt=${l#*x}
            sweep_line "$np $nt" "$(job "$WORK/run.np$l" "$SWEEP_N" "$np" "$nt" "$SWEEP_F" "$WORK/scale_sweep.h5")"
            rm -f "$WORK/scale_sweep.h5" "$WORK/scale_sweep.xmf"
        done
    } | tee "$RESULTS/scale_ranks.dat"
    # drawn by pvox's own 2D plot (gnuplot 5.4 draws the same from the script)
    "$PVOX" -q -e "DIR='$RESULTS'; OUT='$PLOTS'; F=$SWEEP_F; NR=$SWEEP_N" "$here/scale_plot.gp" &&
        echo "plots: $PLOTS/scale_size.png $PLOTS/scale_ranks.png"
fi

# ---- overhead: start-up, the time around a fill ---------------------------------------
if has overhead; then
    echo "== overheads (median of $OVH_REPS)"
    wall() { # command...: seconds
        local t0 t1
        t0=$(now)
        "$@" > /dev/null 2>&1 || fail "failed: $*"
        t1=$(now)
        calc "$t1 - $t0"
    }
    med_of() { # command...: median wall seconds of OVH_REPS runs
        local k
        for k in $(seq "$OVH_REPS"); do wall "$@"; echo; done | median
    }
    mpx() { mpiexec --bind-to none --oversubscribe "$@"; }
    echo "| empty job ('print 1') | median s |"
    echo "|---|---|"
    echo "| gnuplot -e 'print 1' | $(med_of gnuplot -e 'print 1') |"
    echo "| pvox -e 'print 1' (singleton) | $(med_of "$PVOX" -e 'print 1') |"
    echo "| mpiexec -n 1 pvox | $(med_of mpx -n 1 "$PVOX" -e 'print 1') |"
    echo "| mpiexec -n 2 pvox | $(med_of mpx -n 2 "$PVOX" -e 'print 1') |"
    for mca in "OMPI_MCA_pml=ob1" "OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader" \
        "OMPI_MCA_ess_singleton_isolated=1" \
        "OMPI_MCA_ess_singleton_isolated=1 OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader"; do
        echo "| $mca pvox (singleton) | $(med_of env $mca "$PVOX" -e 'print 1') |"
        case $mca in *singleton*) continue ;; esac
        echo "| $mca mpiexec -n 1 | $(med_of env $mca mpiexec --bind-to none --oversubscribe -n 1 "$PVOX" -e 'print 1') |"
        echo "| $mca mpiexec -n 2 | $(med_of env $mca mpiexec --bind-to none --oversubscribe -n 2 "$PVOX" -e 'print 1') |"
    done
    # a fill alone: launch -> first line -> fill kernel -> last line -> exit
    for c in "dipole|\$4*pot(VoxelDistance)" "gauss|\$4*exp(-VoxelDistance**2/0.05)"; do
        IFS='|' read -r name expr <<<"$c"
        cat > "$WORK/ovh_$name.gp" <<EOF
print sprintf("@start %.6f", time(0.0))
pot(r) = r > 0 ? 1/r : 10**6
\$c << EOD
0 0 0.75 1
0 0 0.25 -1
EOD
set vgrid \$v size $OVH_N
set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
print sprintf("@fill %.6f", time(0.0))
vfill \$c using 1:2:3:(2):($expr)
print sprintf("@end %.6f", time(0.0))
EOF
        for l in 1x2 2x1; do
            np=${l%x*} nt=${l#*x}
            rows=()
            for k in $(seq "$OVH_REPS"); do
                d="$WORK/run.ovh"
                launch "$d" "$np" "$nt" "$WORK/ovh_$name.gp"
                # -v's checksum pass is left out: marks around the fill minus its log time
                rows+=("$(python3 - "$d" "$OVH_N" <<'PY'
import re, sys
d, n = sys.argv[1], int(sys.argv[2])
log = open(f"{d}/log").read()
t0, t1 = float(open(f"{d}/t0").read()), float(open(f"{d}/t1").read())
m = {k: float(v) for k, v in re.findall(r"^@(\w+) ([0-9.]+)$", log, re.M)}
k = max(float(x) for x in re.findall(r"vfill: \d+ voxel updates in ([0-9.]+) s", log))
c = re.findall(r"\[\s*([0-9.]+)\] r0/\d+ INFO  grid: (?:vfill|\$v checksum)", log)
ck = float(c[1]) - float(c[0]) if len(c) >= 2 else 0.0
before = m["fill"] - t0
after = t1 - m["end"]
whole = t1 - t0 - ck
print(f"{before:.3f} {m['fill'] - m['start']:.3f} {k:.3f} {m['end'] - m['fill'] - k - ck:.3f} {ck:.3f} {after:.3f} {whole:.3f} {2 * n**3 / k / 1e6:.0f} {2 * n**3 / whole / 1e6:.0f}")
PY
)")
            done
            # the median run by whole time
            printf '%s\n' "${rows[@]}" | sort -g -k7 | sed -n "$(((OVH_REPS + 1) / 2))p" |
                awk -v c="$name" -v l="$l" -v n="$OVH_N" '{ printf "| %s %d^3 %s | %s | %s | %s | %s | %s | %s | %s | %s / %s |\n", c, n, l, $1, $2, $3, $4, $5, $6, $7, $8, $9 }'
        done
    done | { echo "| fill job | launch to kernel s | of which set vgrid etc. | kernel s | vfill's other work s | -v checksum s | last line to exit s | whole s (less checksum) | M upd/s kernel / whole |"; echo "|---|---|---|---|---|---|---|---|---|"; cat; }
    rm -rf "$WORK/run.ovh" "$WORK"/ovh_*.gp
fi
