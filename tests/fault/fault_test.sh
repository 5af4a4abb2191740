#!/usr/bin/env bash
# Fault cases, one ctest test per case (tests/fault/cases.cmake):
#   fault_test.sh CASE PVOX [MPIEXEC]
# Outputs that are devices or links, outputs that cannot be written mid-run: every rank
# ends with the same exit code and one message, files are never half written.
set -uo pipefail
case_name=$1
PVOX=$(realpath "$2")
MPIEXEC=${3:-mpiexec}
pngcheck_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) # tests/pngcheck.py
export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
export OMPI_MCA_rmaps_base_oversubscribe=${OMPI_MCA_rmaps_base_oversubscribe:-1}
export OMPI_MCA_odls_base_sigkill_timeout=${OMPI_MCA_odls_base_sigkill_timeout:-0}
work=$(mktemp -d "${TMPDIR:-/tmp}/pvox-fault.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fails=0
fail() { echo "FAIL [$case_name]: $*"; fails=$((fails + 1)); }
# pngs FILE: the sizes of the PNG pictures concatenated in FILE, "WxH WxH ...", each
# checked by a strict decoder (tests/pngcheck.py: CRCs, the zlib checksum, the exact image
# bytes); a picture that fails shows as "bad(FAULT)"
pngs() {
    python3 - "$1" "$pngcheck_dir" <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[2])
import pngcheck
d = open(sys.argv[1], "rb").read()
sizes, at = [], 0
while True:
    at = d.find(pngcheck.SIGNATURE, at)
    if at < 0: break
    end = at + 8  # the picture runs to its IEND chunk
    while end + 8 <= len(d):
        n, kind = struct.unpack(">I4s", d[end:end + 8])
        end += 12 + n
        if kind == b"IEND": break
    try:
        h = pngcheck.info_bytes(d[at:end])
        sizes.append("%dx%d" % (h["width"], h["height"]))
    except pngcheck.PngError as e:
        sizes.append("bad(%s)" % e)
    at = max(end, at + 8)
print(" ".join(sizes))
PY
}
grid='set vgrid $v size 12; set vxrange [0:1]; set vyrange [0:1]; set vzrange [0:1]
vfill sample [x=0:1:0.25][y=0:1:0.25] "++" using 1:2:(0.5):(0.3):(1)'

case $case_name in
output_stdout)
    # set output "/dev/stdout": the pictures reach standard output, in order, at 1 and 3
    # ranks (rank 0 writes them: frames of other outputs take turns on the ranks); the
    # same through set output "| command"
    printf '%s\n' "$grid" 'set term pngcairo size 120,90' 'set output "/dev/stdout"' \
        'splot $v with points' 'set term pngcairo size 100,80' 'set output "/dev/stdout"' \
        'splot x*y' 'set term pngcairo size 90,70' 'set output "/dev/stdout"' \
        'plot sin(x)' >job.gp
    for np in 1 3; do
        timeout 120 "$MPIEXEC" -n $np "$PVOX" -q job.gp >out.bin 2>err.txt </dev/null
        rc=$?
        [ $rc = 0 ] || fail "np $np: exit code $rc: $(cat err.txt)"
        got=$(pngs out.bin)
        [ "$got" = "120x90 100x80 90x70" ] || fail "np $np: pictures on stdout: '$got'"
        # through a pipe as well
        timeout 120 "$MPIEXEC" -n $np "$PVOX" -q job.gp </dev/null 2>err.txt | cat >pipe.bin
        got=$(pngs pipe.bin)
        [ "$got" = "120x90 100x80 90x70" ] || fail "np $np: pictures through a pipe: '$got'"
        ls ./*.tmp.* >/dev/null 2>&1 && fail "np $np: a temporary file was left"
        # "| command": rank 0 pipes each picture into the command, in order
        sed 's#set output "/dev/stdout"#set output "| cat >> piped.bin"#' job.gp >pipe.gp
        rm -f piped.bin
        timeout 120 "$MPIEXEC" -n $np "$PVOX" -q pipe.gp >out.txt 2>err.txt </dev/null
        rc=$?
        [ $rc = 0 ] || fail "np $np: pipe output: exit code $rc: $(cat err.txt)"
        got=$(pngs piped.bin)
        [ "$got" = "120x90 100x80 90x70" ] || fail "np $np: pictures piped: '$got'"
        # ... and --no-shell refuses it, located at the plot that would open the pipe
        timeout 120 "$MPIEXEC" -n $np "$PVOX" -q --no-shell pipe.gp >out.txt 2>err.txt </dev/null
        rc=$?
        [ $rc = 1 ] || fail "np $np: --no-shell: exit code $rc, expected 1"
        grep -q '^pipe.gp:5:1: error: set output "| command": shell commands are disabled' \
            err.txt || fail "np $np: --no-shell message: $(cat err.txt)"
    done
    ;;
output_link)
    # a symbolic link as the output: the file it names is replaced, the link stays; a
    # dangling link creates its target; a FIFO is written in place
    mkdir -p real
    echo old >real/a.png
    ln -s real/a.png a.png
    ln -s real/b.png b.png
    mkfifo pipe.png
    (cat pipe.png >fifo.bin) &
    reader=$!
    printf '%s\n' "$grid" 'set term pngcairo size 64,48' 'set output "a.png"' \
        'splot $v with points' 'set output "b.png"' 'splot x' 'set output "pipe.png"' \
        'plot x' >job.gp
    for np in 1 3; do
        [ $np = 3 ] && { (cat pipe.png >fifo.bin) & reader=$!; }
        timeout 120 "$MPIEXEC" -n $np "$PVOX" -q job.gp >out.txt 2>err.txt </dev/null
        rc=$?
        wait $reader
        [ $rc = 0 ] || fail "np $np: exit code $rc: $(cat err.txt)"
        [ -L a.png ] && [ -L b.png ] || fail "np $np: a link was replaced by a file"
        [ "$(pngs real/a.png)" = 64x48 ] ||
            fail "np $np: the link's target is not the picture: '$(pngs real/a.png)'"
        [ "$(pngs real/b.png)" = 64x48 ] ||
            fail "np $np: the dangling link's target was not made: '$(pngs real/b.png)'"
        [ "$(pngs fifo.bin)" = 64x48 ] ||
            fail "np $np: the FIFO did not carry the picture: '$(pngs fifo.bin)'"
        [ -p pipe.png ] || fail "np $np: the FIFO was replaced"
        ls ./*.tmp.* real/*.tmp.* >/dev/null 2>&1 && fail "np $np: a temporary file was left"
    done
    ;;
output_unwritable)
    # an output that cannot be written, met mid-run: exit code 3 on every rank, one
    # message naming the file, the earlier pictures kept, nothing after it run
    [ -d /sys ] && ! : 2>/dev/null >/sys/pvox-probe || { echo "no unwritable /sys"; exit 77; }
    # (frames are written while the script goes on: the failure stops the run at the
    # next frame at the latest, so "after.png" is never drawn)
    printf '%s\n' "$grid" 'set term pngcairo size 64,48' 'set output "ok.png"' \
        'splot $v with points' 'set output "/sys/pvox.png"' 'splot $v with points' \
        'set output "after.png"' 'splot $v with points' >job.gp
    for np in 1 3; do
        rm -f ok.png after.png
        timeout 120 "$MPIEXEC" -n $np "$PVOX" -q job.gp >out.txt 2>err.txt </dev/null
        rc=$?
        [ $rc = 3 ] || fail "np $np: exit code $rc, expected 3: $(cat err.txt)"
        [ "$(grep -c "cannot write '/sys/pvox.png'" err.txt)" = 1 ] ||
            fail "np $np: expected one message naming the file: $(cat err.txt)"
        [ -e after.png ] && fail "np $np: the script went on drawing"
        [ "$(pngs ok.png)" = 64x48 ] ||
            fail "np $np: the earlier picture is missing: '$(pngs ok.png)'"
    done
    ;;
*)
    echo "unknown case $case_name"
    exit 2
    ;;
esac
[ $fails = 0 ] || exit 1
echo "PASS [$case_name]"
