#!/usr/bin/env bash
# Frame-sequence benchmark (bench/README.md, "Frame sequences"): pvox against gnuplot 5.4
# and ParaView's pvbatch on the same frames, side by side in one invocation, as ratios.
#
#   bench/bench_frames.sh [PVOX]             # default build/pvox
#   GNUPLOT=0 JOBS=b bench/bench_frames.sh build-fbench/pvox
#
# Two jobs of bench/frames_seq.gp (the article's dipole on an N^3 grid, then F frames, each
# an x = const slice drawn with pm3d over S x S samples, one W x H pngcairo PNG a frame):
#   a  N=128, S=100, F=100, 800x600      target gnuplot / pvox 1x2 >= 5x
#   b  N=256, S=256, F=20, 1920x1080     target gnuplot / pvox 1x2 >= 15x
# For each job, the whole process (/usr/bin/time: wall seconds, peak resident memory):
#   gnuplot   gnuplot 5.4 on the script, GREPS times (1: the 256^3 fill alone takes gnuplot
#             minutes; that is the point, it is timed whole). GNUPLOT=0 skips it and prints
#             the figure last measured on this machine instead (marked *).
#   pvox 1x2  mpiexec -n 1 --bind-to none pvox --threads 2, best of REPS (3)
#   pvox 2x1  mpiexec -n 2 --bind-to none pvox --threads 1, best of REPS (target: no slower
#             than 1x2)
#   each pvox layout also runs the same job with F=0 (start-up and fill, no frames), best of
#   REPS, alternating with the full job: per-frame ms = (full - fill only) / F.
#   pvbatch   ParaView 5.11 (xvfb-run -a pvbatch bench/frames_pvbatch.py) renders the same F
#             slices from the HDF5 checkpoint of the same grid (pvox writes it with vsave,
#             untimed): load through the XDMF sidecar, a Slice filter moved F times,
#             SaveScreenshot; best of PVREPS (1). Its own timer gives the frame loop alone
#             (per-frame ms) and the load.
# Prints one table per job: wall seconds, fill-only (pvbatch: everything but its frame loop),
# per-frame ms, peak MiB (pvox: its largest rank), and the ratios gnuplot / pvox,
# pvbatch / pvox and pvox 2x1 / 1x2 beside their targets; then key=value lines with every run.
# When pvox accepts --stats FILE, the best full run of each layout passes it and the
# per-phase totals of its JSON ("totals": scene_s raster_s composite_s annotate_s encode_s
# write_s) are printed; without the flag that line is skipped.
# At the end the kernel benchmarks of the build (BUILD, default PVOX's directory; built with
# PV_BUILD_BENCH=ON): bench/bench_blend (pv_composite_over against memcpy, 1920x1080,
# target >= 50%; pixel kinds drawn per pixel, then in runs as rasterised tiles have them) and bench/bench_png (pv_png_write against libpng's defaults on a frame of
# job b, else a, target <= 0.5x).
#
# Environment: JOBS ("a b"), EXPR_a / EXPR_b (a job's -e variables instead of the above, all
# of N S F W H, e.g. EXPR_a="N=32; S=20; F=4; W=400; H=300" for a quick check), REPS (3), GREPS (1), PVREPS (1), GNUPLOT (1; 0 = skip),
# GFILL (jobs whose gnuplot fill is timed alone, F=0, for gnuplot's per-frame time; "a":
# job b's takes minutes), PVBATCH (1; 0 = skip), KERNELS (1; 0 = skip), BUILD, BLEND_REPS (10), PNG_REPS (10),
# PVBATCH_CMD (default "xvfb-run -a -s '-screen 0 1920x1200x24' pvbatch"), MPIEXEC
# (mpiexec), WORK (scratch directory, default a new one under /tmp), KEEP=1 (keep WORK).
# Best-of rather than median: the machine is shared; slow runs are other load.
set -uo pipefail
PVOX=$(realpath "${1:-build/pvox}")
JOBS=${JOBS:-a b}
REPS=${REPS:-3}
GREPS=${GREPS:-1}
GFILL=${GFILL:-a}
PVREPS=${PVREPS:-1}
GNUPLOT=${GNUPLOT:-1}
PVBATCH=${PVBATCH:-1}
KERNELS=${KERNELS:-1}
BUILD=${BUILD:-$(dirname "$PVOX")}
BLEND_REPS=${BLEND_REPS:-10}
PNG_REPS=${PNG_REPS:-10}
MPIEXEC=${MPIEXEC:-mpiexec}
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=1

# gnuplot 5.4's figures last measured on this machine (bench/README.md, "Frame sequences"),
# printed with GNUPLOT=0: "wall_s peak_kib date"
declare -A LAST_GNUPLOT=([a]="27.33 37192 2026-12-05" [b]="136.07 125792 2026-12-05")

[ -x "$PVOX" ] || { echo "bench_frames: $PVOX not built" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench_frames: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
if [ -n "${WORK:-}" ]; then
    mkdir -p "$WORK" && work=$(mktemp -d "$(realpath "$WORK")/pvox-bench-frames.XXXXXX")
else
    work=$(mktemp -d /tmp/pvox-bench-frames.XXXXXX)
fi
if [ "${KEEP:-0}" = 1 ]; then
    trap 'echo "bench_frames: logs and files kept in $work"' EXIT
else
    trap 'rm -rf "$work"' EXIT
fi

fail() { echo "bench_frames: $1" >&2; [ -n "${2:-}" ] && tail -20 "$2" >&2; exit 1; }
ratio() { # A B: A / B with an x, or n/a
    if [ -n "$1" ] && [ -n "$2" ] && [ "$1" != 0 ] && [ "$2" != 0 ]; then
        awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'
    else echo n/a; fi
}
mib() { [ -n "$1" ] && [ "$1" != 0 ] && awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }' || echo n/a; }
per_frame() { # TOTAL FILL F: ms per frame
    if [ -n "$1" ] && [ -n "$2" ]; then awk -v t="$1" -v f="$2" -v n="$3" 'BEGIN { printf "%.1f", 1000 * (t - f) / n }'
    else echo n/a; fi
}
better() { [ -z "$2" ] || awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; } # A B: A < B or no B
verdict() { # VALUE OP TARGET: met / missed (value "n/a": nothing)
    [ "${1%x}" = n/a ] && return
    awk -v v="${1%x}" -v t="$3" -v op="$2" 'BEGIN { ok = op == ">=" ? v >= t : v <= t
                                                    printf "%s", ok ? "met" : "MISSED" }'
}

has_stats=no
"$PVOX" --help 2>&1 | grep -q -- '--stats' && has_stats=yes

job_expr() { # JOB: the -e variables of frames_seq.gp
    case $1 in
        a) echo "${EXPR_a:-N=128; S=100; F=100; W=800; H=600}" ;;
        b) echo "${EXPR_b:-N=256; S=256; F=20; W=1920; H=1080}" ;;
        *) fail "unknown job '$1' (a, b)" ;;
    esac
}
job_target() { case $1 in a) echo 5 ;; b) echo 15 ;; esac; }
var() { sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p" <<<"$2"; } # NAME EXPR

count_frames() { # DIR F: exit 1 unless DIR holds f000.png .. f(F-1).png
    local n
    n=$(find "$1" -maxdepth 1 -name 'f[0-9][0-9][0-9].png' | wc -l)
    [ "$n" -eq "$2" ]
}

# one pvox run: NP NT EXPR F [STATS]; prints "seconds peak_rank_kib"
run_pvox() {
    local np=$1 nt=$2 expr=$3 f=$4 stats=${5:-} d="$work/run"
    rm -rf "$d" && mkdir -p "$d/out"
    local extra=()
    [ -n "$stats" ] && extra=(--stats "$stats")
    # shellcheck disable=SC2016 # the sh -c script expands its variables itself, per rank
    OMP_NUM_THREADS=$nt /usr/bin/time -f '%e' -o "$d/time" \
        "$MPIEXEC" --bind-to none --oversubscribe -n "$np" \
        sh -c 'exec /usr/bin/time -f %M -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' "$d/rss" \
        "$PVOX" -q --threads "$nt" "${extra[@]}" -e "$expr; OUT='$d/out'" \
        "$HERE/frames_seq.gp" >"$d/log" 2>&1 ||
        fail "pvox failed ($np x $nt: $expr)" "$d/log"
    count_frames "$d/out" "$f" || fail "pvox wrote $(find "$d/out" -name '*.png' | wc -l) of $f frames ($expr)" "$d/log"
    echo "$(tail -1 "$d/time") $(cat "$d"/rss.* | sort -g | tail -1)"
}

# the totals of a --stats JSON file, as key=value
stats_totals() {
    python3 - "$1" <<'EOF' 2>/dev/null || echo "(unreadable: $1)"
import json, sys
t = json.load(open(sys.argv[1])).get("totals", {})
keys = ["scene_s", "raster_s", "composite_s", "annotate_s", "encode_s", "write_s"]
keys += sorted(k for k in t if k not in keys)
print(" ".join("%s=%s" % (k, t[k]) for k in keys if k in t) or "(no totals)")
EOF
}

# the pvbatch command as words (PVBATCH_CMD is split as the shell would), kept away from any
# mpirun environment (pvbatch is an MPI program itself)
eval "pvbatch_cmd=(${PVBATCH_CMD:-xvfb-run -a -s \"-screen 0 1920x1200x24\" pvbatch})"
pvbatch_cmd=(env -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_RANK -u PMIX_RANK "${pvbatch_cmd[@]}")

run_job() {
    local job=$1 expr f w h n s target s1 k1
    expr=$(job_expr "$job")
    f=$(var F "$expr"); w=$(var W "$expr"); h=$(var H "$expr"); n=$(var N "$expr"); s=$(var S "$expr")
    target=$(job_target "$job")
    echo "job $job: dipole ${n}^3, $f frames of ${s}x$s samples, ${w}x$h pngcairo (bench/frames_seq.gp -e \"$expr\")"

    # ---- gnuplot ----
    local gs="" gk="" gruns=() gnote="" gdate="" ghow="best of $GREPS" gfill=""
    if [ "$GNUPLOT" = 1 ]; then
        command -v gnuplot >/dev/null || fail "gnuplot not found (GNUPLOT=0 skips it)"
        local g d="$work/g"
        for ((g = 0; g < GREPS; g++)); do
            rm -rf "$d" && mkdir -p "$d/out"
            /usr/bin/time -f '%e %M' -o "$d/time" gnuplot -e "$expr; OUT='$d/out'" \
                "$HERE/frames_seq.gp" >"$d/log" 2>&1 || fail "gnuplot failed ($expr)" "$d/log"
            count_frames "$d/out" "$f" || fail "gnuplot did not write $f frames" "$d/log"
            read -r s1 k1 < <(tail -1 "$d/time")
            gruns+=("$s1")
            if better "$s1" "$gs"; then gs=$s1; gk=$k1; fi
        done
        # gnuplot's fill alone (F=0), for its per-frame time: its fill is a large share
        if [[ " $GFILL " == *" $job "* ]]; then
            rm -rf "$d" && mkdir -p "$d/out"
            /usr/bin/time -f '%e %M' -o "$d/time" gnuplot -e "${expr/F=$f/F=0}; OUT='$d/out'" \
                "$HERE/frames_seq.gp" >"$d/log" 2>&1 || fail "gnuplot failed (F=0)" "$d/log"
            read -r gfill k1 < <(tail -1 "$d/time")
        fi
    else
        read -r gs gk gdate <<<"${LAST_GNUPLOT[$job]}"
        [ "$gs" = 0 ] && gs="" gk=""
        gnote="*" ghow="not run"
    fi

    # ---- pvox, both layouts, full job and fill only, alternating ----
    local fexpr="${expr/F=$f/F=0}"
    local -A best=() kib=() fill=() runs=() fruns=() statf=()
    local r cfg np nt
    for ((r = 0; r < REPS; r++)); do
        for cfg in 1x2 2x1; do
            np=${cfg%x*}; nt=${cfg#*x}
            local sf=""
            [ "$has_stats" = yes ] && sf="$work/stats_${job}_${cfg}_$r.json"
            read -r s1 k1 <<<"$(run_pvox "$np" "$nt" "$expr" "$f" "$sf")"
            [ -n "$s1" ] || exit 1
            runs[$cfg]+="${runs[$cfg]:+,}$s1"
            if better "$s1" "${best[$cfg]:-}"; then
                best[$cfg]=$s1; kib[$cfg]=$k1; statf[$cfg]=$sf
            fi
            [ -f "$work/run/out/f000.png" ] && cp "$work/run/out/f000.png" "$work/frame_$job.png"
            read -r s1 k1 <<<"$(run_pvox "$np" "$nt" "$fexpr" 0)"
            [ -n "$s1" ] || exit 1
            fruns[$cfg]+="${fruns[$cfg]:+,}$s1"
            better "$s1" "${fill[$cfg]:-}" && fill[$cfg]=$s1
        done
    done

    # ---- pvbatch on the checkpoint of the same grid ----
    local ps="" pk="" pline="" pruns=()
    if [ "$PVBATCH" = 1 ]; then
        local d="$work/pv" grid="$work/grid_$job.h5"
        mkdir -p "$d"
        OMP_NUM_THREADS=2 "$PVOX" -q --threads 2 -e "${fexpr}; H5='$grid'" "$HERE/frames_seq.gp" \
            >"$d/grid.log" 2>&1 || fail "pvox could not write the checkpoint" "$d/grid.log"
        local p
        for ((p = 0; p < PVREPS; p++)); do
            rm -rf "$d/out"
            /usr/bin/time -f '%e %M' -o "$d/time" "${pvbatch_cmd[@]}" "$HERE/frames_pvbatch.py" "$grid" \
                "$d/out" --frames "$f" --size "$w,$h" >"$d/log" 2>&1 ||
                fail "pvbatch failed (PVBATCH=0 skips it)" "$d/log"
            count_frames "$d/out" "$f" || fail "pvbatch did not write $f frames" "$d/log"
            read -r s1 k1 < <(tail -1 "$d/time")
            pruns+=("$s1")
            if better "$s1" "$ps"; then ps=$s1; pk=$k1; pline=$(grep '^pv_frames ' "$d/log" | tail -1); fi
        done
        rm -f "$grid" "${grid%.h5}.xmf"
    fi

    # ---- table ----
    row() { printf '%-22s %9s %12s %13s %9s %14s %14s\n' "$@"; }
    row program "wall s" "fill-only s" "per-frame ms" "peak MiB" "gnuplot/this" "this/pvox1x2"
    row "gnuplot 5.4$gnote" "${gs:-n/a}" "$gfill" "$( [ -n "$gfill" ] && per_frame "$gs" "$gfill" "$f")" \
        "$(mib "$gk")" "" "$(ratio "$gs" "${best[1x2]}")"
    for cfg in 1x2 2x1; do
        local label="pvox 1 rank x 2 thr"
        [ "$cfg" = 2x1 ] && label="pvox 2 ranks x 1 thr"
        row "$label" "${best[$cfg]}" "${fill[$cfg]}" \
            "$(per_frame "${best[$cfg]}" "${fill[$cfg]}" "$f")" "$(mib "${kib[$cfg]}")" \
            "$(ratio "$gs" "${best[$cfg]}")" "$(ratio "${best[$cfg]}" "${best[1x2]}")"
    done
    local pv_frames_s="" pv_pf=""
    if [ -n "$ps" ]; then
        pv_frames_s=$(sed -n 's/.* frames_s=\([^ ]*\).*/\1/p' <<<"$pline")
        pv_pf=$(sed -n 's/.* per_frame_ms=\([^ ]*\).*/\1/p' <<<"$pline")
        local pv_pre
        pv_pre=$(awk -v t="$ps" -v fr="$pv_frames_s" 'BEGIN { printf "%.2f", t - fr }')
        row "pvbatch (xdmf)" "$ps" "$pv_pre" "$pv_pf" "$(mib "$pk")" \
            "$(ratio "$gs" "$ps")" "$(ratio "$ps" "${best[1x2]}")"
    fi
    local g12 g21 p12 pf12 r21 pfx
    g12=$(ratio "$gs" "${best[1x2]}"); g21=$(ratio "$gs" "${best[2x1]}")
    p12=$(ratio "$ps" "${best[1x2]}")
    pfx=$(per_frame "${best[1x2]}" "${fill[1x2]}" "$f")
    pf12=$(ratio "$pv_pf" "$pfx")
    r21=$(ratio "${best[2x1]}" "${best[1x2]}")
    echo "gnuplot / pvox 1x2 = $g12 (target >= ${target}x: $(verdict "$g12" ">=" "$target"))," \
        "gnuplot / pvox 2x1 = $g21"
    if [ -n "$gfill" ]; then
        echo "gnuplot / pvox 1x2 per frame = $(ratio "$(per_frame "$gs" "$gfill" "$f")" "$pfx")" \
            "(the fills left out)"
    fi
    echo "pvbatch / pvox 1x2 = $p12 whole process, $pf12 per frame"
    echo "pvox 2x1 / 1x2 = ${r21%x} (target <= 1, 2x1 no slower: $(verdict "$r21" "<=" 1))"
    [ -n "$gnote" ] && echo "* gnuplot not run (GNUPLOT=0): the figure last measured here ($gdate)"
    if [ "$has_stats" = yes ]; then
        for cfg in 1x2 2x1; do
            [ -n "${statf[$cfg]}" ] && echo "pvox $cfg --stats totals: $(stats_totals "${statf[$cfg]}")"
        done
    else
        echo "(pvox has no --stats: no per-phase totals)"
    fi
    echo "gnuplot: $ghow, pvox: best of $REPS" \
        "(mpiexec --bind-to none), pvbatch: best of $PVREPS (xvfb-run); peak MiB = peak resident" \
        "memory (/usr/bin/time %M; pvox: its largest rank; pvbatch: its process tree)"
    echo "frames=$job n=$n s=$s f=$f width=$w height=$h gnuplot_s=$gs gnuplot_kib=$gk gnuplot_fill_s=$gfill" \
        "gnuplot_runs=$(IFS=,; echo "${gruns[*]}") pvox_1x2_s=${best[1x2]} pvox_1x2_kib=${kib[1x2]}" \
        "pvox_1x2_runs=${runs[1x2]} pvox_1x2_fill_s=${fill[1x2]} pvox_1x2_fill_runs=${fruns[1x2]}" \
        "pvox_2x1_s=${best[2x1]} pvox_2x1_kib=${kib[2x1]} pvox_2x1_runs=${runs[2x1]}" \
        "pvox_2x1_fill_s=${fill[2x1]} pvox_2x1_fill_runs=${fruns[2x1]} pvbatch_s=$ps pvbatch_kib=$pk" \
        "pvbatch_runs=$(IFS=,; echo "${pruns[*]}") pvbatch_frames_s=$pv_frames_s"
    [ -n "$pline" ] && echo "$pline"
}

kernels() {
    local blend="$BUILD/bench/bench_blend" png="$BUILD/bench/bench_png" frame="-" j
    echo "kernels ($BUILD/bench):"
    # kinds of pixel drawn per pixel (worst case), then in runs of up to 32 as in frames
    if [ -x "$blend" ]; then
        "$blend" 1920 1080 "$BLEND_REPS" 1 || echo "bench_blend failed"
        "$blend" 1920 1080 "$BLEND_REPS" 32 || echo "bench_blend failed"
    else echo "bench_blend: not built (cmake -DPV_BUILD_BENCH=ON)"; fi
    for j in b a; do
        [ -f "$work/frame_$j.png" ] && { frame="$work/frame_$j.png"; break; }
    done
    if [ -x "$png" ]; then "$png" "$frame" "$PNG_REPS" || echo "bench_png failed"
    else echo "bench_png: not built (cmake -DPV_BUILD_BENCH=ON)"; fi
}

echo "bench_frames: $(nproc) cores, $PVOX ($(git -C "$HERE" log -1 --format=%h 2>/dev/null || echo '?')" \
    "$(date -r "$PVOX" '+%Y-%m-%d %H:%M')), jobs: $JOBS, --stats: $has_stats"
for job in $JOBS; do
    echo
    run_job "$job"
done
if [ "$KERNELS" = 1 ]; then
    echo
    kernels
fi
