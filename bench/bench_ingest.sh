#!/usr/bin/env bash
# Ingest benchmark: the sources pvox reads in parallel, each against its anchor
# (bench/README.md, "Ingest"). Each kind of source is a part in its own file, defining a
# function this script calls:
#   text   bench_ingest_text.sh    vfill from a text file, every rank parsing its share,
#                                  against gnuplot 5.4
#   brick  bench_ingest_brick.sh   a 3D binary brick against dd
#   h5     bench_ingest_h5.sh      another program's HDF5 dataset against dd and pvbatch
#
#   bench/bench_ingest.sh [PVOX] [DIR]     # defaults: build/pvox, the current directory
#
# PARTS selects the parts (default "text brick h5"); DIR is where the brick and the HDF5
# file go (several GB at their default sizes); TEXT_SIZES the text grids (default
# "128 256"). Each part's own environment is in its file.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PVOX=${1:-build/pvox}
DIR=${2:-.}
for part in ${PARTS:-text brick h5}; do
    echo "== $part"
    case $part in
    text)  . "$here/bench_ingest_text.sh";  bench_ingest_text "$PVOX" "${TEXT_SIZES:-128 256}" ;;
    brick) . "$here/bench_ingest_brick.sh"; bench_ingest_brick "$PVOX" "$DIR" ;;
    h5)    . "$here/bench_ingest_h5.sh";    bench_ingest_h5 "$PVOX" "$DIR" ;;
    *)     echo "bench_ingest: unknown part '$part' (text, brick, h5)" >&2; exit 2 ;;
    esac
done
