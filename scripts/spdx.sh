#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Puts "SPDX-License-Identifier: BSD-3-Clause" (LICENSE) as the first comment line of every
# source file of the project that lacks it: C sources and headers, CMake files, Python and
# shell scripts (after a "#!" line). With --check it changes nothing and lists the files that
# lack it (exit status 1 if any). Needs a git checkout: the files are the tracked ones.
set -eu
cd "$(dirname "$0")/.."
check=0
[ "${1:-}" = "--check" ] && check=1
command -v git >/dev/null 2>&1 && git rev-parse --git-dir >/dev/null 2>&1 ||
    { echo "not a git checkout: nothing checked"; exit 77; }
tag="SPDX-License-Identifier: BSD-3-Clause"
missing=0
for f in $(git ls-files --cached --others --exclude-standard -- \
        '*.c' '*.h' '*.h.in' '*.py' '*.sh' '*.cmake' 'CMakeLists.txt' '*/CMakeLists.txt' \
        .ci/run); do
    [ -f "$f" ] || continue
    head -n 3 "$f" | grep -q "$tag" && continue
    missing=$((missing + 1))
    if [ $check = 1 ]; then
        echo "$f: no '$tag' line"
        continue
    fi
    case $f in
    *.c | *.h | *.h.in) line="/* $tag */" ;;
    *) line="# $tag" ;;
    esac
    if head -n 1 "$f" | grep -q '^#!'; then
        { head -n 1 "$f"; echo "$line"; tail -n +2 "$f"; } >"$f.spdx"
    else
        { echo "$line"; cat "$f"; } >"$f.spdx"
    fi
    cat "$f.spdx" >"$f" && rm -f "$f.spdx" # keeps the file's mode (executable scripts)
done
if [ $check = 1 ] && [ $missing -gt 0 ]; then
    echo "$missing files lack the licence line: run scripts/spdx.sh"
    exit 1
fi
echo "ok: $missing files changed or missing, none left without '$tag'"
