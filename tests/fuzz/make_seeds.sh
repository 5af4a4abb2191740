#!/bin/sh
# Build the seed corpora of the fuzz targets (tests/fuzz/README.md) from the repository's
# scripts and data:
#   OUT/script/    every *.gp of examples/, tests/, jobs/ and bench/, one file each
#   OUT/datafile/  every data file of examples/ and tests/ (and every datablock body of those
#                  scripts), each behind the two header bytes fuzz_datafile.c reads (clause,
#                  options), in a few header variants
# With --demos, gnuplot's demo scripts (*.dem) and their data files join them when the
# gnuplot-doc examples are installed (for long fuzz runs; the replay test leaves them out).
#
#   make_seeds.sh [--demos] SRCDIR OUT
set -eu
demos=0
if [ "${1:-}" = "--demos" ]; then
    demos=1
    shift
fi
[ $# -eq 2 ] || { echo "usage: $0 [--demos] SRCDIR OUT" >&2; exit 2; }
src=$1
out=$2
rm -rf "$out/script" "$out/datafile"
mkdir -p "$out/script" "$out/datafile"
demo_dir=
for d in /usr/share/doc/gnuplot/examples /usr/share/doc/gnuplot-doc/examples; do
    if [ "$demos" = 1 ] && [ -z "$demo_dir" ] && [ -d "$d" ]; then demo_dir=$d; fi
done

# A name unique per source path: the path with '/' turned into '_'.
flat() { printf '%s' "$1" | sed "s|^$src/||; s|/|_|g"; }

scripts() {
    find "$src/examples" "$src/tests" "$src/jobs" "$src/bench" -name '*.gp' -type f 2>/dev/null
    if [ -n "$demo_dir" ]; then find "$demo_dir" -name '*.dem' -type f; fi
}

data_files() {
    find "$src/examples" "$src/tests" -type f \
        \( -name '*.dat' -o -name '*.csv' -o -name '*.bin' -o -name '*.tsv' \) 2>/dev/null
    if [ -n "$demo_dir" ]; then
        find "$demo_dir" -type f \( -name '*.dat' -o -name '*.csv' -o -name '*.bin' \)
    fi
}

# seed NAME CLAUSE OPTIONS FILE: the two header bytes (octal), then the file's bytes.
seed() {
    { printf "\\$2\\$3"; cat "$4"; } > "$out/datafile/$1"
}

scripts | while read -r f; do
    cp "$f" "$out/script/$(flat "$f")"
done

# Clause numbers: see the table in fuzz_datafile.c (octal: 001 = `using 1:2`, 013 =
# `matrix`, 020 = `binary`, 026 = the general binary `format=` case ...); options 200 read
# the file in pieces.
data_files | while read -r f; do
    name=$(flat "$f")
    case "$f" in
    *.bin)
        for c in 020 021 022 026 027 030; do seed "$name.$c" "$c" 000 "$f"; done ;;
    *matrix*)
        for c in 013 014 015 016 017; do seed "$name.$c" "$c" 000 "$f"; done ;;
    *.csv)
        for c in 001 003 011; do seed "$name.$c" "$c" 001 "$f"; done
        seed "$name.pieces" 001 201 "$f" ;;
    *)
        seed "$name.000" 000 000 "$f"
        seed "$name.pieces" 002 200 "$f"
        seed "$name.003b" 003 010 "$f"
        for c in 004 006 010 012; do seed "$name.$c" "$c" 020 "$f"; done ;;
    esac
done

# Datablock bodies: the lines between `$name << EOD` and the line starting with EOD.
scripts | while read -r f; do
    awk -v dir="$out/datafile/block" -v base="$(flat "$f")" '
        !inblk && match($0, /^[ \t]*\$[A-Za-z_0-9]+[ \t]*<<[ \t]*[A-Za-z_0-9]+/) {
            end = $0; sub(/.*<<[ \t]*/, "", end); sub(/[^A-Za-z_0-9].*/, "", end)
            inblk = 1; k++; file = dir "." base "." k; printf "" > file; next
        }
        inblk && index($0, end) == 1 { inblk = 0; close(file); next }
        inblk { print >> file }' "$f"
done
n=0
for f in "$out"/datafile/block.*; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    # clause `using 1:2` on the whole block; `every`, `index` and matrix on every other one
    case $((n % 3)) in
    0) seed "$(basename "$f").u" 001 000 "$f" ;;
    1) seed "$(basename "$f").e" 005 010 "$f" ;;
    *) seed "$(basename "$f").m" 013 000 "$f" ;;
    esac
    rm -f "$f"
done
echo "seeds: $(ls "$out/script" | wc -l) scripts, $(ls "$out/datafile" | wc -l) data files" >&2
