#!/bin/sh
# reports.sh DIR [LOG...]: the ctest "sanitizer.reports" test of a PV_SANITIZE build
# (cmake/PvoxTests.cmake), run after every other test. Every process of the sanitizer
# suite writes its AddressSanitizer and LeakSanitizer reports to DIR/asan.<pid>
# (log_path), so that a report fails the run even when the process was started by a
# harness that accepts any non-zero exit (a script gnuplot rejects too). UBSan reports
# stay on stderr: the LOGs (the corpus demos' log of every run's stderr) are searched for
# them. Passes when DIR holds no report and no LOG a UBSan one; otherwise prints them.
# Reports named *.contained.* come from the checkpoint metadata scan's child process
# (src/io/h5_meta.c) and are accepted when their fault lies in libhdf5.
dir=$1
shift
[ -d "$dir" ] || { echo "no report directory $dir"; exit 1; }
n=0
for log in "$@"; do
    [ -f "$log" ] || continue
    if grep -q 'runtime error:' "$log"; then
        n=$((n + 1))
        echo "==== UBSan in $log"
        grep -B3 -A8 'runtime error:' "$log" | head -c 20000
    fi
done
contained=0
for f in "$dir"/*; do
    [ -f "$f" ] || continue
    case $f in
    *.contained.*)
        # the child process that reads a checkpoint's metadata (src/io/h5_meta.c), where
        # libhdf5 meets damaged files on purpose (the bit-flip tests): accepted when
        # the fault lies in libhdf5 (the first frame of its stack past the sanitizer's
        # own and libc's copy routines), a failure when it lies in pvox's own code
        if awk '/^ *#[0-9]+ / && !/libsanitizer|__interceptor|__asan|sysdeps|libc\.so/ {
                    found = /libhdf5/; exit }
                END { exit !found }' "$f"; then
            contained=$((contained + 1))
            continue
        fi ;;
    esac
    n=$((n + 1))
    echo "==== $f"
    head -c 20000 "$f"
done
if [ "$n" -ne 0 ]; then
    echo "$n sanitizer report(s) in $dir (named by process id; the test that started the"
    echo "process failed too, unless its harness accepts any non-zero exit)"
    exit 1
fi
[ "$contained" -eq 0 ] ||
    echo "$contained report(s) of libhdf5 reading damaged checkpoints in the metadata scan's child process (accepted)"
echo "no sanitizer reports in $dir"
