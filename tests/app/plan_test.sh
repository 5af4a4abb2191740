#!/usr/bin/env bash
# shellcheck disable=SC2016 # `$v` in single quotes is a gnuplot grid name
# `pvox --plan` checks, one case per ctest test (tests/app/tests.cmake):
#   plan_test.sh CASE PVOX [MPIEXEC]
# The planner's figures are checked against pvox itself: the grid check's bytes against
# `set vgrid` under --max-memory, its fewest ranks against the refusal message, the
# checkpoint size against vsave's file. Exit 0 pass, 1 fail.
set -uo pipefail

case_name=$1
PVOX=$2
MPIEXEC=${3:-mpiexec}
# shellcheck source=tests/app/app_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/app_lib.sh"
# field KEY: a number of the last --json output ("memory_per_rank.total" for nested keys)
field() {
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    d = d[k]
print(int(d) if isinstance(d, (int, float)) and not isinstance(d, bool) else d)' "$work/out" "$1"
}
command -v python3 >/dev/null || { echo "SKIP: python3 needed to read --json"; exit 77; }

case $case_name in
table)
    # the human table: every part the README promises, and the budget it used
    run "$PVOX" --plan 4096 --ranks 512 --mem 256G --ranks-per-node 128
    expect_rc 0
    for s in "a 4096^3 float grid (256.0 GiB) on 512 ranks, 128 per node (4 nodes)" \
        "rank 0: 8 planes of 4096^2" "grid slab" "512.0 MiB" "ghost plane" "64.0 MiB" \
        "isosurface batch" "frame buffers" "pvox base" "budget 2.0 GiB (--mem 256.0 GiB / 128 ranks): fits" \
        "fewest ranks that fit:" "checkpoint: 256.0 GiB, 274878955520 bytes" \
        "fill" "checkpoint write" "isosurfaces" "slice frame" "compositing" "assumptions:"; do
        expect_out_has "$s"
    done
    [ -z "$err" ] || fail "stderr not empty"
    ;;
mpi)
    # under mpiexec: rank 0 prints the plan once, every rank exits 0; and the same for a
    # bad argument (exit 2 everywhere, one message)
    run "${mpi_n[@]}" 3 "$PVOX" --plan 256 --mem 4G --ranks-per-node 2
    expect_rc 0
    [ "$(grep -c '^pvox --plan:' <<<"$out")" = 1 ] || fail "the plan is not printed exactly once"
    run "${mpi_n[@]}" 3 "$PVOX" --plan 0
    expect_rc 2
    [ "$(grep -c 'pvox: error:' <<<"$err")" = 1 ] || fail "the usage error is not printed once"
    ;;
bad_args)
    for a in "0" "-3" "1" "12x" "abc" "4096 --size 800" "4096 --size 0x600" "4096 --size 800x" \
        "4096 --mem 0" "4096 --mem 12Q" "4096 --ranks 0" "4096 --ranks-per-node -1" \
        "4096 --levels -1" "4096 --frames x" "4096 --bandwidth nope" "4096 --rate fill=0" \
        "4096 --rate speed=1" "4096 --threads 0" "4096 job.gp" "4096 --unknown" "4096 --ranks"; do
        # shellcheck disable=SC2086 # the arguments are meant to split
        run "$PVOX" --plan $a
        expect_rc 2
        expect_err_has "pvox: error:"
        [ -z "$out" ] || fail "stdout not empty for --plan $a"
    done
    run "$PVOX" --plan
    expect_rc 2
    expect_err_has "option '--plan' needs a value"
    run "$PVOX" --plan 0
    expect_err_has "invalid grid size '0' for --plan"
    run "$PVOX" --plan 64 --size 640
    expect_err_has "invalid canvas size '640' (expected WxH"
    ;;
grid_check_mpi)
    # the bytes --plan says `set vgrid` checks are just enough at P ranks; one byte less
    # is refused (N=100 at 3 ranks: rank 0 holds 34 planes of 100^2 floats)
    run "$PVOX" --plan 100 --ranks 3 --json
    expect_rc 0
    need=$(field grid_check_bytes)
    [ "$need" = 1360000 ] || fail "grid check bytes $need, expected 34 x 100^2 x 4 = 1360000"
    run "${mpi_n[@]}" 3 "$PVOX" -q --max-memory "$need" -e 'set vgrid $v size 100'
    expect_rc 0
    run "${mpi_n[@]}" 3 "$PVOX" -q --max-memory $((need - 1)) -e 'set vgrid $v size 100'
    expect_rc 3
    expect_err_has "grid \$v of 100^3 voxels needs"
    # the table says the same
    run "$PVOX" --plan 100 --ranks 3
    expect_out_has "--max-memory $need is just enough"
    ;;
fewest_mpi)
    # fewest ranks, the grid check alone: one rank a node, 1360000 bytes each holds 34
    # planes of 100^2, so 3 ranks; pvox's own refusal names the same count, and the
    # grid is made at 3 ranks and refused at 2
    mem=1360000
    run "$PVOX" --plan 100 --mem $mem --ranks-per-node 1 --levels 0 --json
    expect_rc 0
    k=$(field fewest_ranks_grid_check)
    [ "$k" = 3 ] || fail "fewest ranks for the grid check $k, expected 3"
    run "$PVOX" -q --max-memory $mem -e 'set vgrid $v size 100'
    expect_rc 3
    expect_err_has "run on at least $k ranks"
    run "${mpi_n[@]}" "$k" "$PVOX" -q --max-memory $mem -e 'set vgrid $v size 100'
    expect_rc 0
    run "${mpi_n[@]}" $((k - 1)) "$PVOX" -q --max-memory $mem -e 'set vgrid $v size 100'
    expect_rc 3
    # everything counted (no isosurfaces: frame buffers and base beside the slab): the
    # total fits the budget at the fewest ranks, not one rank fewer, on the same nodes of
    # 4 ranks (512 MiB a node: 128 MiB a rank from 4 ranks on, 43 planes of 512^2 beside
    # the frame's buffers: 12 ranks)
    run "$PVOX" --plan 512 --mem 512M --ranks-per-node 4 --levels 0 --json
    expect_rc 0
    p=$(field fewest_ranks)
    total=$(field memory_per_rank.total)
    budget=$(field budget_per_rank_bytes)
    [ "$(field fits)" = True ] || fail "fewest ranks $p do not fit"
    [ "$total" -le "$budget" ] || fail "total $total above budget $budget at $p ranks"
    [ "$p" = 12 ] || fail "fewest ranks $p, expected 12"
    [ "$(field fewest_nodes)" = 3 ] || fail "fewest nodes $(field fewest_nodes), expected 3"
    run "$PVOX" --plan 512 --mem 512M --ranks-per-node 4 --levels 0 --ranks $((p - 1)) --json
    [ "$(field fits)" = False ] || fail "$((p - 1)) ranks fit too"
    [ "$(field nodes)" = "$(((p - 1 + 3) / 4))" ] || fail "node count at $((p - 1)) ranks"
    # no memory source given: the budget's own sources decide (this node's), named
    run "$PVOX" --plan 64 --json
    src=$(field node_memory_source)
    case $src in cgroup | SLURM | MemAvailable) ;; *) fail "node memory source '$src'" ;; esac
    run env SLURM_MEM_PER_NODE=1024 "$PVOX" --plan 64 --json
    [ "$(field node_memory_bytes)" -le 1073741824 ] || fail "SLURM_MEM_PER_NODE is ignored"
    ;;
checkpoint_size)
    # the checkpoint size is vsave's file, within its 64 KiB metadata block, below and
    # above the 16 MiB where the voxels move to a 1 MiB boundary
    for n in 64 200; do
        run "$PVOX" --plan $n --json
        plan=$(field checkpoint_bytes)
        run "$PVOX" -q -e "set vgrid \$v size $n; vsave \"$work/g$n.h5\""
        expect_rc 0
        real=$(stat -c %s "$work/g$n.h5")
        d=$((plan - real))
        [ "${d#-}" -le 65536 ] || fail "N=$n: --plan says $plan bytes, vsave wrote $real"
    done
    ;;
*)
    echo "unknown case $case_name"
    exit 1
    ;;
esac
check_pngs
[ "$fails" = 0 ] && exit 0
exit 1
