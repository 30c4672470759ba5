#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Fuzzes the command-line parsers with libFuzzer for a fixed time (MB_FUZZ_SECONDS, default
# 60): tests/fuzz/fuzz_cli.c built with clang, AddressSanitizer + UndefinedBehaviorSanitizer
# and MPICH, seeded with the rows of tests/cli/bad_input.tsv. Installs clang and its fuzzer
# runtime when run as root; without them it says so and exits 0 (ctest's fuzz.cli_driver
# still runs the same target on seeded random inputs). A crash, sanitizer report or leak
# fails, and the input is kept in the build directory (crash-*) for replay:
#   build-fuzz/tests/fuzz_cli crash-<hash>
set -eu
cd "$(dirname "$0")/.."

build=${MB_BUILD_DIR:-build-fuzz}
seconds=${MB_FUZZ_SECONDS:-60}
have_fuzzer() {
    command -v clang >/dev/null 2>&1 &&
        ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1
}

scripts/deps.sh
if ! have_fuzzer; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "Installing: clang libclang-rt-14-dev"
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev >/dev/null 2>&1 ||
            { apt-get update -qq &&
                  apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev \
                      >/dev/null; } ||
            { echo "fuzzing skipped: clang and libFuzzer cannot be installed here"; exit 0; }
    else
        echo "fuzzing skipped: needs clang and libFuzzer (apt-get install clang libclang-rt-14-dev)"
        exit 0
    fi
fi

CC=clang cmake -S . -B "$build" -DMPI_C_COMPILER=mpicc.mpich \
    -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich -DMB_SANITIZE=ON -DMB_LIBFUZZER=ON >/dev/null
cmake --build "$build" -j "$(nproc)" --target fuzz_cli fuzz_driver >/dev/null
work="$build/fuzz-run"
rm -rf "$work"
mkdir -p "$work/corpus"
"$build/tests/fuzz_driver" tests/cli/bad_input.tsv --corpus "$work/corpus"
cd "$work"
rc=0
ASAN_OPTIONS=abort_on_error=1 ../tests/fuzz_cli -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 corpus >fuzz.log 2>&1 || rc=$?
if [ "$rc" -ne 0 ]; then
    cat fuzz.log
    echo "fuzzing FAILED (status $rc); the input is in $work (crash-*, leak-*, timeout-*)"
    exit "$rc"
fi
grep -E "^Done|^stat::(number_of_executed_units|new_units_added)" fuzz.log
echo "fuzzing: no crash, sanitizer report or leak in ${seconds} s"
