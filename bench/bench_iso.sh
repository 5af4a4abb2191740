#!/usr/bin/env bash
# Isosurface benchmark (bench/README.md, "Isosurfaces"): pvox against its anchors, side by
# side in the same invocation, as ratios.
#
#   bench/bench_iso.sh [PVOX] [N]          # defaults: build/pvox 256
#   PARTS="kernel whole frame" bench/bench_iso.sh build/pvox
#
# PARTS (default "kernel whole"):
#   kernel  the extraction alone. pvox writes the dipole of examples/dipole.gp at N^3 with
#           vsave (bench/iso_grid.gp); VTK's vtkFlyingEdges3D (bench/iso_vtk.py under
#           ParaView's Python) and pvox's kernel (bench_iso_h5, built from
#           bench/bench_iso_h5.c) read that same file and time only the extraction of 1
#           level (1), 5 levels (-3 -1 0 1 3) and 201 levels (-100..100 step 1), all levels
#           in one call each. VTK runs with its Sequential SMP backend and with STDThread at
#           1 and 2 threads; pvox at 1 and 2 OpenMP threads, triangles only. Prints M voxels/s
#           (N^3 / seconds, best of the runs) and the ratio pvox / VTK at the same thread
#           count: at 1 thread against the faster of Sequential and STDThread-1, at 2 threads
#           against the fastest VTK figure with at most 2 threads (target >= 2x). Triangle
#           counts of both (they differ where the two tables split ambiguous cells
#           differently). SIZES (default N) lists the grid sizes, e.g. SIZES="256 512".
#   whole   the whole process on the same script: bench/iso_5.gp (5 transparent levels) and
#           bench/iso_201.gp (the article's 201 nested levels), N^3, pngcairo 800x600, under
#           gnuplot 5.4 (once each by default: about 20 s and 105 s at 256^3; N <= 256) and
#           pvox at 2 ranks x 1 thread and 1 rank x 2 threads. Prints wall seconds and peak
#           resident memory (gnuplot's process; pvox's largest rank) and gnuplot / pvox
#           (target >= 50x).
#   frame   bench/iso_201.gp at FRAME_N^3 (default 1024: fill, 201 levels, PNG) at FRAME_NP
#           ranks (default 2) x 1 thread, once: per rank the phase times pvox logs (-vv), its
#           tracked peak memory and the rank's peak resident memory.
# Until the isosurface kernel and drawing are merged the pvox columns read "n/a" and the
# script says why; the VTK and gnuplot columns are measured all the same.
#
# GFILL=1 adds a row "iso_fill": iso_5.gp without its splot (start-up and the fill alone),
# for both programs, so the plot's share of each whole-process time can be read off.
# Environment: SIZES, LEVELS (the kernel's level sets, default "1 5 201"), REPS (pvox runs per kernel figure, 3), VREPS (VTK runs per figure, 3;
# VREPS_201 for 201 levels, 1: one FE run is many seconds), GREPS (gnuplot runs, 1), PREPS
# (pvox whole-process runs, 3), FRAME_N, FRAME_NP, KERNEL (the kernel timer, default
# build/bench/bench_iso_h5 beside PVOX), VTK_PYTHON (default pvpython; falls back to
# `xvfb-run -a pvbatch`), VTK_CONFIG (bare: normals and scalars off, the default; default:
# VTK's defaults), WORK (scratch directory, default a new one under /tmp; needs 8 N^3 bytes
# per size, and 4 GiB of memory per rank for the 1024^3 frame), KEEP=1 (keep WORK's files and
# pvox's logs), MPIEXEC (mpiexec).
# Best-of rather than median for the kernel (the machine is shared; slow runs are other
# load); the whole-process figures print the best and every run in the key=value lines.
set -uo pipefail
PVOX=$(realpath "${1:-build/pvox}")
N=${2:-256}
PARTS=${PARTS:-kernel whole}
SIZES=${SIZES:-$N}
LEVELS=${LEVELS:-1 5 201}
REPS=${REPS:-3}
VREPS=${VREPS:-3}
VREPS_201=${VREPS_201:-1}
GREPS=${GREPS:-1}
PREPS=${PREPS:-3}
FRAME_N=${FRAME_N:-1024}
FRAME_NP=${FRAME_NP:-2}
KERNEL=${KERNEL:-$(dirname "$PVOX")/bench/bench_iso_h5}
VTK_CONFIG=${VTK_CONFIG:-bare}
MPIEXEC=${MPIEXEC:-mpiexec}
HERE=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=1

[ -x "$PVOX" ] || { echo "bench_iso: $PVOX not built" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench_iso: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
if [ -n "${WORK:-}" ]; then
    mkdir -p "$WORK" && work=$(mktemp -d "$(realpath "$WORK")/pvox-bench-iso.XXXXXX")
else
    work=$(mktemp -d /tmp/pvox-bench-iso.XXXXXX)
fi
if [ "${KEEP:-0}" = 1 ]; then
    trap 'echo "bench_iso: logs and files kept in $work"' EXIT
else
    trap 'rm -rf "$work"' EXIT
fi

fail() { echo "bench_iso: $1" >&2; [ -n "${2:-}" ] && tail -20 "$2" >&2; exit 1; }
calc() { awk "BEGIN { printf \"%.6f\", $* }"; }
kv() { sed -n "s/.* $1=\\([^ ]*\\).*/\\1/p" <<<" $2" | head -1; } # KEY LINE
mvox() { [ -n "$1" ] && awk -v r="$1" 'BEGIN { printf "%.1f", r / 1e6 }' || echo n/a; }
ratio() { # A B: A / B with an x, or n/a
    if [ -n "$1" ] && [ -n "$2" ]; then awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'
    else echo n/a; fi
}
mib() { [ -n "$1" ] && awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }' || echo n/a; } # KiB
fmax() { printf '%s\n' "$@" | grep -v '^$' | sort -g | tail -1; }
fmin() { printf '%s\n' "$@" | grep -v '^$' | sort -g | head -1; }
NOT_MERGED="the isosurface kernel and drawing are not in this build yet (pvox warns that isosurfaces are not drawn)"

# level sets: name|spec for bench_iso_h5 and iso_vtk.py
level_sets=("1|1" "5|-3,-1,0,1,3" "201|-100:100:1")

# write the dipole at n^3 with pvox itself (2 threads, one rank); prints the path
make_grid() {
    local n=$1 f="$work/dipole_$1.h5"
    if [ ! -f "$f" ]; then
        OMP_NUM_THREADS=2 "$PVOX" -q --threads 2 -e "N=$n; h5=\"$f\"" "$HERE/iso_grid.gp" \
            >"$work/grid_$n.log" 2>&1 || fail "pvox could not write the ${n}^3 grid" "$work/grid_$n.log"
    fi
    echo "$f"
}

# ParaView's Python, kept away from any mpirun environment (it is an MPI program itself)
vtk_python() {
    local py=${VTK_PYTHON:-}
    if [ -z "$py" ]; then
        if command -v pvpython >/dev/null; then py=pvpython
        elif command -v pvbatch >/dev/null && command -v xvfb-run >/dev/null; then py="xvfb-run -a pvbatch"
        else return 127; fi
    fi
    # shellcheck disable=SC2086 # "xvfb-run -a pvbatch" is meant to split
    env -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_RANK -u PMIX_RANK $py "$@"
}

# ---- kernel: vtkFlyingEdges3D vs pv_iso_extract on the same file ----------------------------
part_kernel() {
    local have_kernel=yes
    vtk_python -c 'import vtkmodules' >/dev/null 2>&1 ||
        fail "ParaView's Python not found or without VTK (Debian: paraview python3-paraview; or set VTK_PYTHON)"
    if [ ! -x "$KERNEL" ]; then
        have_kernel=no
        echo "note: $KERNEL not built: the isosurface kernel (src/iso) is not in this tree yet" \
            "(CMake builds bench/bench_iso_h5.c once src/iso has sources); pvox columns: n/a"
    fi
    local row='%-6s %-6s %9s %9s %9s %9s %9s %8s %8s %10s %10s\n'
    printf "$row" grid levels "VTK seq" "VTK 1thr" "VTK 2thr" "pvox 1thr" "pvox 2thr" \
        "ratio 1" "ratio 2" "VTK tris" "pvox tris"
    printf "$row" "" "" "Mvox/s" "Mvox/s" "Mvox/s" "Mvox/s" "Mvox/s" ">=2x" ">=2x" "" ""
    local n f set name spec vr out info=""
    local -a lines=()
    for n in $SIZES; do
        f=$(make_grid "$n")
        for set in "${level_sets[@]}"; do
            IFS='|' read -r name spec <<<"$set"
            [[ " $LEVELS " == *" $name "* ]] || continue
            vr=$VREPS
            [ "$name" = 201 ] && vr=$VREPS_201
            out=$(vtk_python "$HERE/iso_vtk.py" "$f" "--levels=$spec" --threads "seq 1 2" \
                --reps "$vr" --config "$VTK_CONFIG" 2>"$work/vtk.err")
            [ $? = 0 ] || fail "VTK run failed (${n}^3, $name levels)" "$work/vtk.err"
            [ -z "$info" ] && info=$(grep '^vtk_info' <<<"$out")
            local vseq v1 v2 vtris p1="" p2="" ptris="n/a" pl1 pl2
            vseq=$(kv voxels_per_s "$(grep 'backend=Sequential' <<<"$out")")
            v1=$(kv voxels_per_s "$(grep 'backend=STDThread threads=1 ' <<<"$out")")
            v2=$(kv voxels_per_s "$(grep 'backend=STDThread threads=2 ' <<<"$out")")
            vtris=$(kv tris "$(grep 'backend=Sequential' <<<"$out")")
            if [ "$have_kernel" = yes ]; then
                pl1=$("$KERNEL" "$f" --levels "$spec" --threads 1 --reps "$REPS" 2>"$work/k.err") ||
                    fail "$KERNEL failed (${n}^3, $name levels)" "$work/k.err"
                pl2=$("$KERNEL" "$f" --levels "$spec" --threads 2 --reps "$REPS" 2>"$work/k.err") ||
                    fail "$KERNEL failed (${n}^3, $name levels, 2 threads)" "$work/k.err"
                p1=$(kv voxels_per_s "$pl1")
                p2=$(kv voxels_per_s "$pl2")
                ptris=$(kv tris "$pl1")
                [ "$ptris" = "$(kv tris "$pl2")" ] || ptris="$ptris/$(kv tris "$pl2")(DIFFER)"
                lines+=("$pl1" "$pl2")
            fi
            local a1 a2
            a1=$(fmax "$vseq" "$v1")
            a2=$(fmax "$vseq" "$v1" "$v2")
            printf "$row" "${n}^3" "$name" "$(mvox "$vseq")" "$(mvox "$v1")" "$(mvox "$v2")" \
                "$(mvox "$p1")" "$(mvox "$p2")" "$(ratio "$p1" "$a1")" "$(ratio "$p2" "$a2")" \
                "$vtris" "$ptris"
            while read -r l; do lines+=("$l"); done < <(grep '^vtk_iso' <<<"$out")
        done
    done
    echo "best of $VREPS VTK runs ($VREPS_201 at 201 levels) and $REPS pvox runs; extraction only;" \
        "VTK config $VTK_CONFIG; ${info#vtk_info }"
    printf '%s\n' "${lines[@]}"
}

# ---- whole process: gnuplot 5.4 vs pvox on bench/iso_5.gp and bench/iso_201.gp ------------
# gnuplot_run JOB NAME: prints "seconds KiB"
gnuplot_run() {
    local job=$1 name=$2
    mkdir -p "$work/g"
    (cd "$work/g" && /usr/bin/time -f '%e %M' -o "$work/g/time" \
        gnuplot -e "N=$N; out=\"$name.png\"" "$job" >"$work/g/$name.log" 2>&1) ||
        fail "gnuplot failed on $job" "$work/g/$name.log"
    [ "$name" = iso_fill ] || [ -s "$work/g/$name.png" ] || fail "gnuplot wrote no $name.png" "$work/g/$name.log"
    tail -1 "$work/g/time"
}
# pvox_run NP NT JOB NAME: prints "seconds max-rank-KiB", or "not_merged". Quiet (-q): at -v
# pvox also computes grid checksums, which are not part of the job
pvox_run() {
    local np=$1 nt=$2 job=$3 name=$4 d="$work/p"
    rm -rf "$d" && mkdir -p "$d"
    OMP_NUM_THREADS=$nt /usr/bin/time -f '%e' -o "$d/time" \
        "$MPIEXEC" --bind-to none --oversubscribe -n "$np" \
        sh -c 'exec /usr/bin/time -f %M -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' "$d/rss" \
        "$PVOX" -q --threads "$nt" -e "N=$N; out=\"$name.png\"" "$job" -o "$d" >"$d/log" 2>&1 ||
        fail "pvox failed on $job ($np x $nt)" "$d/log"
    cp "$d/log" "$work/last_pvox.log"
    if grep -q 'isosurfaces (with isosurface) are not drawn' "$d/log"; then
        echo not_merged
        return
    fi
    [ "$name" = iso_fill ] || [ -s "$d/$name.png" ] || fail "pvox wrote no $name.png ($np x $nt)" "$d/log"
    echo "$(tail -1 "$d/time") $(cat "$d"/rss.* | sort -g | tail -1)"
}

# empty_job NP NT: best wall seconds of PREPS launches of `pvox -e 'x = 1'`
empty_job() {
    local best="" s
    for _ in $(seq "$PREPS"); do
        OMP_NUM_THREADS=$2 /usr/bin/time -f '%e' -o "$work/empty.time" \
            "$MPIEXEC" --bind-to none --oversubscribe -n "$1" "$PVOX" -q --threads "$2" -e 'x = 1' \
            >"$work/empty.log" 2>&1 || fail "pvox failed on an empty job" "$work/empty.log"
        s=$(tail -1 "$work/empty.time")
        best=$(fmin "$best" "$s")
    done
    echo "$best"
}

part_whole() {
    local gn=yes
    command -v gnuplot >/dev/null || { gn=no; echo "note: gnuplot not found (apt-get install gnuplot-nox)"; }
    [ "$N" -le 256 ] || { gn=no; echo "note: gnuplot's grids stop at 256^3: no gnuplot figures at ${N}^3"; }
    local row='%-8s %9s %9s %11s %9s %11s %9s %8s %8s\n'
    printf "$row" job "gnuplot" "gnuplot" "pvox 2x1" "pvox" "pvox 1x2" "pvox" "ratio" "ratio"
    printf "$row" "${N}^3" "s" "MiB" "s" "MiB/rank" "s" "MiB" "2x1" "1x2"
    local -a lines=()
    local job name merged=yes names="iso_5 iso_201"
    if [ "${GFILL:-0}" = 1 ]; then
        # the same job without its plot: the fill and the start-up alone
        grep -v -e '^splot' -e '^ *\$v with isosurface' "$HERE/iso_5.gp" >"$work/iso_fill.gp"
        names="iso_fill $names"
    fi
    for name in $names; do
        job="$HERE/$name.gp"
        [ "$name" = iso_fill ] && job="$work/iso_fill.gp"
        local gs="" gk="" r s k
        local -a gruns=() runs21=() runs12=()
        if [ "$gn" = yes ]; then
            for _ in $(seq "$GREPS"); do
                read -r s k <<<"$(gnuplot_run "$job" "$name")"
                gruns+=("$s")
                gs=$(fmin "$gs" "$s"); gk=$(fmax "$gk" "$k")
            done
        fi
        local b21="" m21="" b12="" m12=""
        for layout in "2 1" "1 2"; do
            read -r np nt <<<"$layout"
            for _ in $(seq "$PREPS"); do
                r=$(pvox_run "$np" "$nt" "$job" "$name")
                if [ "$r" = not_merged ]; then merged=no; break; fi
                read -r s k <<<"$r"
                if [ "$layout" = "2 1" ]; then
                    runs21+=("$s")
                    if [ -z "$b21" ] || awk "BEGIN { exit !($s < $b21) }"; then b21=$s; m21=$k; fi
                else
                    runs12+=("$s")
                    if [ -z "$b12" ] || awk "BEGIN { exit !($s < $b12) }"; then b12=$s; m12=$k; fi
                fi
            done
            [ "$merged" = yes ] || break
        done
        printf "$row" "$name" "${gs:-n/a}" "$(mib "$gk")" "${b21:-n/a}" "$(mib "$m21")" \
            "${b12:-n/a}" "$(mib "$m12")" "$(ratio "$gs" "$b21")" "$(ratio "$gs" "$b12")"
        lines+=("whole=$name size=$N gnuplot_s=$gs gnuplot_kib=$gk gnuplot_runs=$(IFS=,; echo "${gruns[*]}")\
 pvox_2x1_s=$b21 pvox_2x1_rank_kib=$m21 pvox_2x1_runs=$(IFS=,; echo "${runs21[*]}")\
 pvox_1x2_s=$b12 pvox_1x2_kib=$m12 pvox_1x2_runs=$(IFS=,; echo "${runs12[*]}")\
 merged=$merged")
    done
    # pvox's floor: the same launch with an empty job (MPI start-up and shutdown, options)
    local floor21 floor12
    floor21=$(empty_job 2 1)
    floor12=$(empty_job 1 2)
    printf "$row" "(empty)" "" "" "$floor21" "" "$floor12" "" "" ""
    lines+=("whole=empty pvox_2x1_s=$floor21 pvox_1x2_s=$floor12")
    [ "$merged" = yes ] || echo "pvox: n/a: $NOT_MERGED"
    echo "gnuplot: best of $GREPS, pvox: best of $PREPS (mpiexec --bind-to none);" \
        "MiB = peak resident memory (/usr/bin/time %M; pvox: its largest rank); target >= 50x"
    printf '%s\n' "${lines[@]}"
}

# ---- frame: fill + 201 levels + PNG at FRAME_N^3 ----------------------------------------------
part_frame() {
    local d="$work/p" job="$HERE/iso_201.gp" np=$FRAME_NP
    rm -rf "$d" && mkdir -p "$d"
    echo "frame: bench/iso_201.gp at ${FRAME_N}^3, $np ranks x 1 thread"
    OMP_NUM_THREADS=1 /usr/bin/time -f '%e' -o "$d/time" \
        "$MPIEXEC" --bind-to none --oversubscribe -n "$np" \
        sh -c 'exec /usr/bin/time -f %M -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' "$d/rss" \
        "$PVOX" -vv --log-all-ranks --no-progress --threads 1 \
        -e "N=$FRAME_N; out=\"iso_201_$FRAME_N.png\"" "$job" -o "$d" >"$d/log" 2>&1 ||
        fail "pvox failed on the ${FRAME_N}^3 frame" "$d/log"
    cp "$d/log" "$work/frame.log"
    grep -q 'isosurfaces (with isosurface) are not drawn' "$d/log" &&
        echo "note: $NOT_MERGED; the figures below are the fill and an empty plot"
    local row='%-5s %8s %8s %9s %8s %10s %8s %11s %10s\n'
    printf "$row" rank "start s" "fill s" "checksum" "plot s" "composite" "job s" "tracked GiB" "RSS GiB"
    local r
    for ((r = 0; r < np; r++)); do
        awk -v r="r$r/" -v rssf="$d/rss.$r" '
            function ts(line) { return substr(line, 2, index(line, "]") - 2) + 0 }
            index($0, "] " r) == 0 { next }
            /grid: vfill: .* in [0-9.]+ s/ { te = ts($0); for (i = 1; i <= NF; i++) if ($i == "in") fs = $(i + 1) }
            /grid: .* checksum / { if (!tc) tc = ts($0) }
            /render: wrote / { tw = ts($0) }
            /render: composite: / { c = $NF; sub(/s$/, "", c); if (c == "") c = $(NF - 1); comp = c }
            /peak tracked memory/ { for (i = 1; i <= NF; i++) if ($i == "memory") tr = $(i + 1); tj = $NF; sub(/s$/, "", tj); if (tj == "") tj = $(NF - 1) }
            END {
                getline k < rssf
                tp = tc ? tc : te
                printf "%-5s %8.3f %8.3f %9.3f %8s %10s %8s %11.2f %10.2f\n", substr(r, 1, length(r) - 1),
                    te - fs, fs, tc ? tc - te : 0, tw ? sprintf("%.3f", tw - tp) : "n/a", comp ? comp : "n/a",
                    tj ? tj : "n/a", tr / 1073741824, k / 1048576
            }' "$d/log"
    done
    echo "start = up to the fill (start-up, parse, allocation and first touch of the grid);" \
        "checksum = the grid checksum -v logs after a fill; plot = from there to the PNG written" \
        "(scene, extraction, rasterising, compositing, encoding; composite is part of it)"
    echo "whole mpiexec run: $(tail -1 "$d/time") s. Every timed line pvox logged:"
    grep -E ' [0-9.]+ s\b' "$d/log" | grep -v 'peak tracked' | sed 's/^/  /'
}

echo "bench_iso: $(nproc) cores, N=$N, parts: $PARTS"
for part in $PARTS; do
    echo
    case $part in
        kernel) part_kernel ;;
        whole) part_whole ;;
        frame) part_frame ;;
        *) fail "unknown part '$part' (kernel, whole, frame)" ;;
    esac
done
