#!/usr/bin/env bash
# The one output rule (README "When things go wrong", include/pvox/outfile.h), writer by
# writer: usage  output_test.sh CASE PVOX MPIEXEC
#   CASE = WRITER           the output is a FIFO, a character device (made here with
#                           mknod, /dev/null's numbers), a socket, a directory, a link to a
#                           regular file and a dangling link, at 1 and 3 ranks
#   CASE = ulimit_WRITER    the output would pass `ulimit -f`, at 1 and 2 ranks
# WRITER = png | print | table | vtp | pvtp | vsave | checkpoint | stats
# Stream formats (png, print, table) write a device or a FIFO in place; the others refuse
# anything but a regular file or a new name (exit 3, "not a regular file: pvox writes ...
# only to regular files"). Every case: the node keeps its type (and a device its inode),
# no "*.tmp.*" is left, a link stays a link and the file it reaches is replaced (or, when
# dangling, created). Under the limit: exit 3, "file too large (ulimit -f)" or the
# checkpoint's "file size limit" message, the old file byte for byte, no temporary.
set -u
CASE=$1 PVOX=$2 MPIEXEC=$3
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pvox-output.XXXXXX")
READER=
cleanup() {
    [ -n "$READER" ] && kill "$READER" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
fail() {
    echo "FAIL [$CASE] $*" >&2
    [ -f "$WORK/run/err.txt" ] && sed 's/^/  stderr: /' "$WORK/run/err.txt" | head -20 >&2
    exit 1
}
command -v python3 >/dev/null || { echo "python3 missing"; exit 77; }
command -v mknod >/dev/null || { echo "mknod missing"; exit 77; }

writer=${CASE#ulimit_}
case $writer in
png) ext=png stream=1 ;;
print | table) ext=txt stream=1 ;;
vtp) ext=vtp stream=0 ;;
pvtp) ext=pvtp stream=0 ;;
vsave | checkpoint) ext=h5 stream=0 ;;
stats) ext=json stream=0 ;;
*) echo "unknown case $CASE" >&2; exit 2 ;;
esac

# job.gp writing to $1 with this writer; ARGS: the command line's extra options
make_job() {
    local t=$1
    ARGS=()
    {
        cat "$HERE/grid.gp"
        case $writer in
        png) printf 'set term pngcairo size 640,480\nset output "%s"\nsplot x*y with pm3d\n' "$t" ;;
        print) printf 'set print "%s"\ndo for [i=1:20000] { print sprintf("%%d a line of text", i) }\nunset print\n' "$t" ;;
        table | vtp | pvtp) printf 'set table "%s"\nsplot $s with isosurface level 0.7\nunset table\n' "$t" ;;
        vsave) printf 'vsave "%s"\n' "$t" ;;
        checkpoint | stats)
            printf 'set term pngcairo size 32,24\n'
            printf 'do for [i=1:20] { set output "/dev/null"; splot $s with isosurface level 0.7 }\n' ;;
        esac
    } >job.gp
    case $writer in
    checkpoint) ARGS=(--checkpoint "$t") ;;
    stats) ARGS=(--stats "$t") ;;
    esac
}

# the type letter of a file (lstat): f d l p s c b
kind() { stat -c %F "$1" 2>/dev/null | awk '{print $1 $2}'; }

no_temps() {
    local left
    left=$(find "$WORK" -name '*.tmp.*' | head -3)
    [ -z "$left" ] || fail "$1: a temporary was left: $left"
}

run() { # np, then pvox's arguments; stdout/stderr in out.txt/err.txt, exit code in RC
    local np=$1
    shift
    timeout 120 "$MPIEXEC" -n "$np" "$PVOX" -q "$@" >out.txt 2>err.txt </dev/null
    RC=$?
}

targets() {
    local np node name kinds=(fifo chardev socket dir link dangling)
    for np in 1 3; do
        for node in "${kinds[@]}"; do
            rm -rf "$WORK/run" && mkdir -p "$WORK/run/real" && cd "$WORK/run" || exit 1
            name=n.$ext
            case $node in
            fifo) mkfifo "$name" ;;
            chardev) mknod "$name" c 1 3 || { echo "mknod not allowed"; exit 77; } ;;
            socket) python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$name" ;;
            dir) mkdir "$name" ;;
            link) echo old >real/f && ln -s real/f "$name" ;;
            dangling) ln -s real/new "$name" ;;
            esac
            local before ino
            before=$(kind "$name")
            ino=$(stat -c '%i %t:%T' "$name")
            make_job "$name"
            local what="np $np, $writer to a $node"
            if [ $node = fifo ] && [ $stream = 1 ]; then
                (cat "$name" >fifo.out) &
                READER=$!
            fi
            run $np "${ARGS[@]}" job.gp
            if [ -n "$READER" ]; then
                # the reader ends when pvox closes the FIFO; if pvox never opened it, open it
                # once for writing so the reader ends (then the test fails on fifo.out)
                [ $RC = 0 ] || : >"$name"
                wait "$READER"
                READER=
            fi
            [ "$(kind "$name")" = "$before" ] || fail "$what: became a $(kind "$name")"
            case $node in
            fifo | chardev)
                [ "$(stat -c '%i %t:%T' "$name")" = "$ino" ] || fail "$what: not the same node"
                if [ $stream = 1 ]; then
                    [ $RC = 0 ] || fail "$what: exit $RC, expected 0 (written as a stream)"
                    [ $node = chardev ] || [ -s fifo.out ] || fail "$what: nothing came out"
                else
                    [ $RC = 3 ] || fail "$what: exit $RC, expected 3"
                    grep -q "$name: not a regular file: pvox writes .* only to regular files" \
                        err.txt || fail "$what: no 'not a regular file' message"
                fi
                ;;
            socket)
                [ $RC = 3 ] || fail "$what: exit $RC, expected 3"
                grep -q "not a regular file" err.txt || fail "$what: no 'not a regular file'"
                ;;
            dir)
                [ $RC = 3 ] || fail "$what: exit $RC, expected 3"
                grep -q "is a directory" err.txt || fail "$what: no 'is a directory' message"
                ;;
            link)
                [ $RC = 0 ] || fail "$what: exit $RC, expected 0"
                [ "$(kind real/f)" = regularfile ] || fail "$what: the target is a $(kind real/f)"
                ! cmp -s real/f <(echo old) || fail "$what: the target was not replaced"
                [ "$(readlink "$name")" = real/f ] || fail "$what: the link changed"
                # a .pvtp's pieces go beside the index the link reaches (its relative names)
                [ $writer != pvtp ] || [ -s real/f_0.vtp ] || fail "$what: no real/f_0.vtp"
                ;;
            dangling)
                [ $RC = 0 ] || fail "$what: exit $RC, expected 0"
                [ "$(kind real/new)" = regularfile ] || fail "$what: the target was not created"
                [ -s real/new ] || fail "$what: the created target is empty"
                ;;
            esac
            # a located error when the script wrote it (not --checkpoint / --stats options)
            if [ $RC = 3 ] && [ $writer != stats ]; then
                grep -q "error:" err.txt || fail "$what: no error line"
            fi
            if [ $RC = 3 ] && [ $writer != stats ] && [ $writer != checkpoint ]; then
                grep -q "^job.gp:[0-9]*:[0-9]*: error:" err.txt || fail "$what: not located"
            fi
            no_temps "$what"
            cd "$WORK" || exit 1
        done
    done
}

limit() {
    local np mode
    for mode in np1 np2 np2_writer; do
        rm -rf "$WORK/run" && mkdir -p "$WORK/run" && cd "$WORK/run" || exit 1
        np=${mode:2:1}
        [ $mode = np2_writer ] && [ $writer != png ] && continue
        local name=n.$ext what="$mode, $writer past ulimit -f"
        printf 'old content\n' >"$name"
        cp "$name" old.copy
        make_job "$name"
        [ $mode = np2_writer ] && ARGS+=(--frame-encode writer)
        # the limit on the ranks only (mpiexec's own shared memory files are larger); the
        # ranks keep to TCP between them for the same reason
        OMPI_MCA_btl=self,tcp timeout 120 "$MPIEXEC" -n "$np" bash -c \
            'ulimit -f 8 && exec "$@"' limit "$PVOX" -q "${ARGS[@]}" job.gp \
            >out.txt 2>err.txt </dev/null
        RC=$?
        [ $RC = 3 ] || fail "$what: exit $RC, expected 3"
        grep -q "file too large (ulimit -f)\|more than the file size limit" err.txt ||
            fail "$what: no message about the file size limit"
        cmp -s "$name" old.copy || fail "$what: the old file changed"
        no_temps "$what"
        cd "$WORK" || exit 1
    done
}

cd "$WORK" || exit 1
case $CASE in
ulimit_*) limit ;;
*) targets ;;
esac
echo "ok [$CASE]"
