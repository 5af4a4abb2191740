#!/usr/bin/env bash
# Command-line checks for pvox, one case per ctest test (tests/app/tests.cmake):
#   cli_test.sh CASE PVOX [MPIEXEC]
# Each case runs pvox, then compares its exit code, stdout and stderr with what the README
# promises. Exit 0 pass, 1 fail. MPI cases run `MPIEXEC --quiet -n 3` (ctest sets the
# OMPI_* variables that allow root and oversubscription).
set -uo pipefail

case_name=$1
PVOX=$2
MPIEXEC=${3:-mpiexec}
# shellcheck source=tests/app/app_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/app_lib.sh"

# mpiexec's --quiet drops its own banner about non-zero exit codes
mpi=("$MPIEXEC" --quiet --oversubscribe -n 3)

usage_first="pvox: error:"
case $case_name in
version)
    run "$PVOX" --version
    expect_rc 0
    want="pvox ${PV_EXPECT_VERSION:?the project version, from CMake}"
    [ "$(head -1 <<<"$out")" = "$want" ] || fail "first line is not '$want'"
    expect_err ""
    ;;
help)
    run "$PVOX" --help
    expect_rc 0
    expect_out_has "usage: pvox [options]"
    for opt in -e -o --threads --max-memory --progress -q --log-all-ranks --version; do
        grep -qE -- "^  (-[a-zA-Z], )?$opt([ ,]|$)" <<<"$out" || fail "help lacks option $opt"
    done
    expect_out_has "exit status: 0 ok, 1 script error, 2 bad command line, 3 runtime"
    expect_err ""
    run "$PVOX" -h
    expect_rc 0
    ;;
bad_option)
    run "$PVOX" --bogus job.gp
    expect_rc 2
    expect_out ""
    expect_err "$usage_first unknown option '--bogus'
usage: pvox [options] [-e \"commands\"] job.gp [more.gp ...]
try 'pvox --help' for more information"
    ;;
bad_option_mpi)
    # every rank exits 2; only rank 0 speaks
    run "${mpi[@]}" "$PVOX" -e 'print 1' --frobnicate
    expect_rc 2
    [ "$(count_in "$err" "unknown option '--frobnicate'")" = 1 ] || fail "message not printed once"
    ;;
bad_values)
    for args in "--threads" "--threads 0" "--threads x" "--threads=-3" "--max-memory 12Q" \
        "--max-memory" "-e" "-o" "--max-memory=0" "--frame-encode" "--frame-encode all" \
        "--frame-writer x" "--resume-if-exists"; do
        # shellcheck disable=SC2086
        run "$PVOX" $args
        expect_rc 2
        expect_err_has "$usage_first"
    done
    run "$PVOX"
    expect_rc 2
    expect_err_has "no job script given"
    ;;
good_values)
    # accepted values: the run itself then succeeds
    for args in "--threads 2" "--threads=1" "--max-memory 512M" "--max-memory=1.5GiB" \
        "--max-memory 4096" "-q" "--progress" "--no-progress" "--log-all-ranks" "-v" \
        "--frame-encode pieces" "--frame-encode=writer" "--frame-writer rotate" \
        "--checkpoint ck.h5 --resume-if-exists"; do
        # shellcheck disable=SC2086
        run "$PVOX" $args -e 'x = 1'
        expect_rc 0
    done
    ;;
missing_file)
    run "$PVOX" nonexistent.gp
    expect_rc 3
    expect_out ""
    expect_err "pvox: error: cannot open 'nonexistent.gp': No such file or directory"
    ;;
missing_file_mpi)
    run "${mpi[@]}" "$PVOX" -e 'print "before"' nonexistent.gp -e 'print "after"'
    expect_rc 3
    expect_err "before
pvox: error: cannot open 'nonexistent.gp': No such file or directory"
    ;;
order)
    printf 'print "b"\n' >b.gp
    printf 'print "d"\n' >d.gp
    run "$PVOX" -e 'print "a"' b.gp -e 'print "c"' d.gp -e 'print "e"'
    expect_rc 0
    expect_err "a
b
c
d
e"
    expect_out ""
    ;;
order_mpi)
    printf 'print "b"\n' >b.gp
    run "${mpi[@]}" "$PVOX" -e 'print "a"' b.gp -e 'print "c"'
    expect_rc 0
    expect_err "a
b
c"
    ;;
stdin)
    run_in 'print "from stdin"
' "$PVOX" -e 'print 1' -
    expect_rc 0
    expect_err "1
from stdin"
    ;;
stdin_mpi)
    run_in 'print "from stdin"
' "${mpi[@]}" "$PVOX" -
    expect_rc 0
    expect_err "from stdin"
    ;;
script_error)
    # the first error stops the run: later -e commands do not run
    printf 'x = 1\nprint   potx\n' >e.gp
    run "$PVOX" e.gp -e 'print "not reached"'
    expect_rc 1
    expect_err "e.gp:2:9: error: undefined variable: potx
print   potx
        ^"
    ;;
exit_status)
    run "$PVOX" -e 'print "a"; exit status 4; print "b"' -e 'print "c"'
    expect_rc 4
    expect_err "a"
    run "${mpi[@]}" "$PVOX" -e 'exit status 5'
    expect_rc 5
    ;;
outdir)
    run "$PVOX" -o newdir -e 'x = 1'
    expect_rc 0
    [ -d newdir ] || fail "-o did not create newdir"
    : >plainfile
    run "$PVOX" -o plainfile -e 'x = 1'
    expect_rc 3
    expect_err "pvox: error: cannot use output directory 'plainfile': Not a directory"
    # a directory that takes no new file is refused before the script runs (not at the
    # first plot); /sys refuses files even to root, for whom permission bits do not count
    if [ -d /sys ] && ! : 2>/dev/null >/sys/pvox-probe; then
        run "$PVOX" -o /sys -e 'print "not reached"'
        expect_rc 3
        expect_err "pvox: error: cannot write in output directory '/sys': Permission denied"
        [ -f newdir/.pvox-probe-* ] 2>/dev/null && fail "the probe file was left behind"
        [ -z "$(ls -A newdir)" ] || fail "the probe file was left in newdir"
    fi
    ;;
fault_injection)
    # --fail-alloc-at N makes the N-th tracked allocation fail on every rank: the run stops
    # with exit code 3 and one message, and nothing hangs
    # shellcheck disable=SC2016 # $v is gnuplot's, not the shell's
    grid='set vgrid $v size 20; set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]'
    run "$PVOX" --fail-alloc-at 1 -e "$grid" -e 'print "not reached"'
    expect_rc 3
    expect_err_has "error: out of memory"
    expect_err_has "(injected failure)"
    run "${mpi[@]}" "$PVOX" --fail-alloc-at 1 -e 'print "first"' -e "$grid"
    expect_rc 3
    [ "$(count_in "$err" "out of memory")" = 1 ] || fail "message not printed once"
    [ "$(head -1 <<<"$err")" = first ] || fail "output before the failure is missing"
    run "$PVOX" --max-memory 1K -e "$grid"
    expect_rc 3
    ;;
stats_progress_mpi)
    # --stats FILE: one JSON file for the run, frames written by rotating ranks, the
    # writer's received bytes under two images; --progress prints one bar (one rank)
    # shellcheck disable=SC2016 # $v is gnuplot's, not the shell's
    job='set vgrid $v size 16; set vxrange [-1:1]; set vyrange [-1:1]; set vzrange [-1:1]
vfill sample [x=-1:1:0.5][y=-1:1:0.5] "++" using 1:2:(0):(0.3):(1)
set term pngcairo size 160,120
do for [i=0:3] { set output sprintf("f%d.png", i); set view 60, 30+10*i; splot $v with points pt 7 }'
    printf '%s\n' "$job" >seq.gp
    run "${mpi[@]}" "$PVOX" --stats st.json --progress seq.gp
    expect_rc 0
    [ "$(count_in "$err" "frames ")" = 1 ] || fail "expected one progress line of frames"
    expect_err_has "4/4"
    for i in 0 1 2 3; do [ -s "f$i.png" ] || fail "f$i.png not written"; done
    expect_err_has "number of voxels modified"
    # the writer alone encodes the frames (--frame-encode writer), or every rank its piece
    run "${mpi[@]}" "$PVOX" -q --frame-encode writer --stats stw.json seq.gp
    expect_rc 0
    for mode in pieces writer; do
        json=st.json
        [ $mode = writer ] && json=stw.json
        if ! python3 - $json $mode <<'PY'; then fail "--stats JSON checks failed ($mode)"; fi
import json, sys
d = json.load(open(sys.argv[1]))
pieces = sys.argv[2] == "pieces"
assert d["pvox_stats"] == 1 and d["nranks"] == 3, d
fr = d["frames"]
assert [f["index"] for f in fr] == [0, 1, 2, 3], fr
assert [f["writer"] for f in fr] == [0, 1, 2, 0], [f["writer"] for f in fr]
keys = {"rank", "scene_s", "raster_s", "composite_s", "annotate_s", "encode_s", "write_s",
        "bytes_sent", "bytes_recv", "active_pixels", "triangles", "points"}
for f in fr:
    assert f["output"] == "f%d.png" % f["index"] and f["width"] == 160, f
    assert len(f["ranks"]) == 3 and all(set(r) == keys for r in f["ranks"]), f
    w = f["ranks"][f["writer"]]
    assert 0 < w["bytes_recv"] <= 2 * f["image_bytes"], f
    if pieces:  # every rank holding a piece of the picture encodes it
        assert sum(r["encode_s"] > 0 for r in f["ranks"]) >= 2, f
    else:
        assert w["encode_s"] > 0 and all(r["encode_s"] == 0 for r in f["ranks"] if r is not w)
    assert sum(r["bytes_sent"] for r in f["ranks"]) == sum(r["bytes_recv"] for r in f["ranks"])
assert d["totals"]["frames"] == 4
assert all(r["peak_memory_bytes"] > 0 for r in d["ranks"]), d["ranks"]
# the grid commands before the frames, with the line they stand on
cm = d["commands"]
assert [(c["command"], c["at"]) for c in cm] == [("set vgrid", "seq.gp:1"), ("vfill", "seq.gp:2")], cm
for c in cm:
    assert len(c["ranks"]) == 3 and c["max_s"] == max(r["s"] for r in c["ranks"]), c
# the slab of 16^3 floats over 3 ranks: 6, 5 and 5 planes of 16^2
assert [r["peak_memory_bytes"] for r in cm[0]["ranks"]] == [6144, 5120, 5120], cm[0]
assert d["totals"]["commands"]["vfill"]["count"] == 1, d["totals"]
PY
    done
    # every grid command, a checkpoint and its reload; `stat` abbreviates stats
    # shellcheck disable=SC2016 # $v is gnuplot's, not the shell's
    printf '%s\n' 'set vgrid $v size 12; set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]' \
        'vgfill "++" using 1:2:(0.5):(0.2):(1)' 'vsave "c.h5"' 'vclear $v' 'vload "c.h5"' \
        'stat [0:1] "++" using 1:2 nooutput' 'vfill "++" using 1:2:(0.5):(0.2):(1)' >cmds.gp
    run "${mpi[@]}" "$PVOX" -q --stats stc.json cmds.gp
    expect_rc 0
    if ! python3 - <<'PY'; then fail "--stats commands checks failed"; fi
import json
d = json.load(open("stc.json"))
names = [c["command"] for c in d["commands"]]
assert names == ["set vgrid", "vgfill", "vsave", "vclear", "vload", "stats", "vfill"], names
assert [c["at"] for c in d["commands"]] == ["cmds.gp:%d" % i for i in (1, 2, 3, 4, 5, 6, 7)]
t = d["totals"]["commands"]
assert sorted(t) == sorted(set(names)) and all(v["count"] == 1 for v in t.values()), t
PY
    # --checkpoint-every 0: a save after each grid change but set vgrid; --resume's load
    run "${mpi[@]}" "$PVOX" -q --checkpoint ck.h5 --checkpoint-every 0 --stats stk.json cmds.gp
    expect_rc 0
    run "${mpi[@]}" "$PVOX" -q --resume ck.h5 --stats str.json cmds.gp
    expect_rc 0
    if ! python3 - <<'PY'; then fail "--stats checkpoint/resume checks failed"; fi
import json
k = [c["command"] for c in json.load(open("stk.json"))["commands"]]
assert k == ["set vgrid", "vgfill", "checkpoint", "vsave", "vclear", "checkpoint", "vload",
             "checkpoint", "stats", "vfill", "checkpoint"], k
r = json.load(open("str.json"))["commands"]
assert r[0]["command"] == "resume" and r[0]["at"] == "" and len(r[0]["ranks"]) == 3, r[0]
PY
    # -q drops the informational lines, and the bars unless --progress asks for them
    run "${mpi[@]}" "$PVOX" -q seq.gp
    expect_rc 0
    expect_err ""
    run "${mpi[@]}" "$PVOX" -q --progress seq.gp
    expect_rc 0
    [ "$(count_in "$err" "frames ")" = 1 ] || fail "-q --progress printed no progress bar"
    [ "$(count_in "$err" "number of voxels")" = 0 ] || fail "-q printed vfill's lines"
    # fills of 256^3 voxels and more draw a bar of the planes filled
    # shellcheck disable=SC2016 # $w is gnuplot's, not the shell's
    run "${mpi[@]}" "$PVOX" -q --progress -e 'set vgrid $w size 256; set vxrange [-1:1]; set vyrange [-1:1]; set vzrange [-1:1]; vfill sample [x=-1:1:1][y=-1:1:1] "++" using 1:2:(0):(0.1):(1)'
    expect_rc 0
    expect_err_has "86/86"
    [ "$(count_in "$err" "vfill ")" = 1 ] || fail "expected one progress line of vfill"
    ;;
png_options)
    # `set term pngcairo compression N filter F` reaches the encoder: the same picture,
    # stored (level 0) is far larger than at level 9, and the pixels are equal
    # shellcheck disable=SC2016 # $v is gnuplot's, not the shell's
    grid='set vgrid $v size 16; set vxrange [-1:1]; set vyrange [-1:1]; set vzrange [-1:1]; vfill sample [x=-1:1:0.5][y=-1:1:0.5] "++" using 1:2:(0):(0.3):(1)'
    run "$PVOX" -q -e "$grid" -e 'set term pngcairo size 160,120 compression 0 filter none; set output "c0.png"; splot $v with points' \
        -e 'set term pngcairo compression 9 filter paeth; set output "c9.png"; splot $v with points' \
        -e 'set term pngcairo compression 9 filter adaptive; set output "ca.png"; splot $v with points'
    expect_rc 0
    if ! python3 - <<'PY'; then fail "PNG options checks failed"; fi
import os, struct, zlib
def pixels(path):
    data = open(path, "rb").read()
    pos, idat, w, h = 8, b"", 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR": w, h = struct.unpack(">II", body[:8])
        if kind == b"IDAT": idat += body
        pos += 12 + n
    raw, bpp, rows, prev = zlib.decompress(idat), 3, [], bytearray(w * 3)
    filters = set()
    for y in range(h):
        f, line = raw[y * (w * 3 + 1)], bytearray(raw[y * (w * 3 + 1) + 1:(y + 1) * (w * 3 + 1)])
        filters.add(f)
        for i in range(len(line)):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line)); prev = line
    return b"".join(rows), filters
p0, f0 = pixels("c0.png"); p9, f9 = pixels("c9.png"); pa, fa = pixels("ca.png")
assert p0 == p9 == pa, "pixels differ"
assert f0 == {0} and f9 <= {0, 4} and 4 in f9, (f0, f9)
assert os.path.getsize("c0.png") > 160 * 120 * 3, os.path.getsize("c0.png")
assert os.path.getsize("c9.png") < os.path.getsize("c0.png") / 4
PY
    run "$PVOX" -e 'set term pngcairo compression 10'
    expect_rc 1
    expect_err_has "compression level must be between 0 and 9"
    ;;
mpi_start_mpi)
    # Open MPI start-up settings chosen from the launch (README "Start-up time"): a
    # singleton skips Open MPI's daemon and loads only the loopback transport, ranks all
    # on this node use the shared-memory transport; neither overrides a setting the user
    # made, neither reaches commands the script runs, PVOX_MPI_TUNE=0 turns both off
    run "$PVOX" -vv -e 'print 1'
    expect_rc 0
    expect_err_has "MPI start-up settings: singleton"
    # a singleton still does MPI-IO: a checkpoint written and read back
    run "$PVOX" -e 'set vgrid $g size 24; set vxrange [0:23]; set vyrange [0:23]; set vzrange [0:23]' \
        -e 'voxel(3,4,5) = 6; vsave "s.h5"; vclear; vload "s.h5"; set print "-"; print voxel(3,4,5)'
    expect_rc 0
    expect_out "6.0"
    [ -s s.h5 ] || fail "the singleton wrote no checkpoint"
    # the settings are gone once MPI has started: a command the script runs sees none,
    # and a setting of the user's is kept as it was
    OMPI_MCA_btl=self,vader run "$PVOX" -e 'set print "-"; print system("env | grep -E \"^OMPI_MCA_(ess_singleton_isolated|orte_tmpdir_base|pml|btl)=\" | sort")'
    expect_rc 0
    expect_out "OMPI_MCA_btl=self,vader"
    # nor what Open MPI's singleton start adds (ess=singleton): an mpiexec the script
    # runs starts its ranks
    printf '%s\n' 'set print "-"' \
        "print system(\"$MPIEXEC --oversubscribe -n 2 $PVOX -e 'set print \\\"-\\\"; print 7'\")" \
        >nested.gp
    run "$PVOX" nested.gp
    expect_rc 0
    expect_out "7"
    PVOX_MPI_TUNE=0 run "$PVOX" -vv -e 'print 1'
    expect_rc 0
    expect_err_has "MPI start-up settings: off (PVOX_MPI_TUNE=0)"
    run "${mpi[@]}" "$PVOX" -vv -e 'print 1'
    expect_rc 0
    expect_err_has "MPI start-up settings: one node"
    ;;
no_shell_mpi)
    # --no-shell refuses every shell feature with a located error, exit 1 on 3 ranks, and
    # the command never runs (it would create ran.txt); without it they run (README
    # "Running")
    i=0
    for stmt in 'x = system("touch ran.txt")' 'system "touch ran.txt"' '!touch ran.txt' \
        'print `touch ran.txt`' 'stats "< touch ran.txt" nooutput' \
        'plot "< touch ran.txt" using 1:2' 'load "< touch ran.txt"' \
        'set print "| touch ran.txt"'; do
        i=$((i + 1))
        printf 'print "start"\n%s\n' "$stmt" >"ns$i.gp"
        run "${mpi[@]}" "$PVOX" -q --no-shell "ns$i.gp"
        expect_rc 1
        expect_err_has "ns$i.gp:2:"
        expect_err_has "shell commands are disabled by --no-shell"
        [ "$(count_in "$err" "error:")" = 1 ] || fail "one error expected for: $stmt"
        [ ! -e ran.txt ] || fail "the command ran despite --no-shell: $stmt"
        rm -f ran.txt
    done
    printf '!touch ran.txt\nx = system("echo hi")\nprint x\n' >ok.gp
    run "${mpi[@]}" "$PVOX" -q ok.gp
    expect_rc 0
    expect_err "hi"
    [ -e ran.txt ] || fail "!touch did not run without --no-shell"
    run "$PVOX" --help
    expect_out_has "--no-shell"
    ;;

dashdash)
    printf 'print "dash"\n' >-odd.gp
    run "$PVOX" -- -odd.gp
    expect_rc 0
    expect_err "dash"
    ;;
*)
    echo "unknown case '$case_name'"
    exit 1
    ;;
esac

check_pngs
if [ "$fails" -gt 0 ]; then
    echo "$case_name: $fails check(s) failed"
    exit 1
fi
echo "$case_name: ok"
exit 0
