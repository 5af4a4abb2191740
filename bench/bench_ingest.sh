#!/usr/bin/env bash
# Ingest benchmark: vfill from the sources pvox reads in parallel, side by side with
# gnuplot 5.4 (bench/README.md, "Ingest"). Each kind of source is a part in its own file,
# defining a function this script calls:
#   text   bench_ingest_text.sh   (a text file, every rank parsing its share)
#
#   bench/bench_ingest.sh [PVOX] [SIZES]          # defaults: build/pvox "128 256"
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench_ingest_text.sh
. "$here/bench_ingest_text.sh"
PVOX=${1:-build/pvox}
SIZES=${2:-128 256}
echo "== text files"
bench_ingest_text "$PVOX" "$SIZES"
