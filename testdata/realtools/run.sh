#!/usr/bin/env bash
# run.sh [TOOL…] — run the real tools of perfpages' agreement suite and
# write their output here (see README.md). TOOL is go, criterion,
# googlebench, pytest-benchmark or hyperfine; all of them by default.
# Each tool runs its benchmarks twice, SIDE=base then SIDE=head, with its
# normal repetition; the tools' verdicts are then derived by expect.py.
# Takes about ten minutes. Needs go, benchstat, cargo (offline, against
# Debian's crate registry: criterion/src/.cargo/config.toml), g++ with
# libbenchmark-dev, /usr/bin/python3 with python3-pytest-benchmark, gcc and
# hyperfine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
benchstat=${BENCHSTAT:-$(go env GOPATH)/bin/benchstat}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(go criterion googlebench pytest-benchmark hyperfine)

# stat DIR [SRC]: benchstat's comparison of SRC/base.txt and SRC/head.txt
# (SRC is DIR by default) into DIR, as text (what a person reads) and CSV
# (what expect.py reads).
stat() {
	local d=$1 src=${2:-$1}
	(cd "$src" && "$benchstat" base.txt head.txt >"$d/benchstat.txt" &&
		"$benchstat" -format csv base.txt head.txt >"$d/benchstat.csv" 2>/dev/null)
}

# tobench TOOL SIDE: the samples of TOOL/SIDE.json in the Go benchmark
# format, in $tmp/TOOL/SIDE.txt (not kept: tobench.py makes them again).
tobench() {
	mkdir -p "$tmp/$1"
	"$here/tobench.py" "$1" "$here/$1/$2.json" >"$tmp/$1/$2.txt"
}

run_go() {
	local d=$here/go
	for side in base head; do
		(cd "$d/src" && SIDE=$side go test -run '^$' -bench . -count 10 -benchmem >"$d/$side.txt")
	done
	stat "$d"
}

run_criterion() {
	local d=$here/criterion
	export CARGO_TARGET_DIR=$tmp/cargo
	(cd "$d/src" && cargo bench --bench work --no-run -q)
	for side in base head; do
		# The head run compares itself with the base run's target/criterion/*/base
		# and prints Criterion's verdict.
		(cd "$d/src" && SIDE=$side cargo bench -q --bench work -- --noplot >"$d/$side.log")
		rm -rf "${d:?}/$side"
		# Keep what perfpages reads (new/) and Criterion's own comparison (change/).
		(cd "$CARGO_TARGET_DIR/criterion" && find . -path '*/new/*.json' -o -path '*/change/*.json' |
			grep -v tukey | while read -r f; do
				mkdir -p "$d/$side/$(dirname "$f")" && cp "$f" "$d/$side/$f"
			done)
	done
}

run_googlebench() {
	local d=$here/googlebench
	g++ -O2 -o "$tmp/gbwork" "$d/src/work.cc" -lbenchmark -lpthread
	for side in base head; do
		SIDE=$side "$tmp/gbwork" --benchmark_repetitions=10 \
			--benchmark_out="$d/$side.json" --benchmark_out_format=json >"$d/$side.log" 2>&1
		# The executable's path holds the temporary folder's name.
		sed -i "s|$tmp/||g" "$d/$side.json" "$d/$side.log"
		tobench googlebench $side
	done
	stat "$d" "$tmp/googlebench"
}

run_pytest() {
	local d=$here/pytest-benchmark
	for side in base head; do
		(cd "$d/src" && SIDE=$side /usr/bin/python3 -m pytest -q -p no:cacheprovider \
			--benchmark-json="$d/$side.json" test_work.py | tr '\r' '\n' | grep -v '^Computing stats' >"$d/$side.log")
		tobench pytest-benchmark $side
	done
	stat "$d" "$tmp/pytest-benchmark"
}

run_hyperfine() {
	local d=$here/hyperfine
	gcc -O2 -o "$tmp/work" "$d/src/work.c"
	# name base-steps head-steps: iterations of work.c's loop, the head's
	# 0, ±2 % or +30 %/−25 % off the base's.
	local cases=(
		same 30000000 30000000
		small 30000000 30600000
		small_faster 30000000 29400000
		large 30000000 39000000
		large_faster 30000000 22500000
	)
	for side in base head; do
		local args=()
		for ((i = 0; i < ${#cases[@]}; i += 3)); do
			local n=${cases[i + 1]}
			[ "$side" = head ] && n=${cases[i + 2]}
			args+=(-n "${cases[i]}" "$tmp/work $n")
		done
		hyperfine -N --runs 20 --warmup 3 --style basic --export-json "$d/$side.json" "${args[@]}" >"$d/$side.log" 2>&1
		# The commands hold the temporary folder's name; keep only the steps.
		sed -i "s|$tmp/||g" "$d/$side.json" "$d/$side.log"
		tobench hyperfine $side
	done
	stat "$d" "$tmp/hyperfine"
}

for t in "${tools[@]}"; do
	case $t in
	go) run_go ;;
	criterion) run_criterion ;;
	googlebench) run_googlebench ;;
	pytest-benchmark) run_pytest ;;
	hyperfine) run_hyperfine ;;
	*) echo "run.sh: unknown tool $t" >&2; exit 2 ;;
	esac
done
"$here/expect.py" >"$here/expectations.json"
