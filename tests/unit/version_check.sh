#!/bin/sh
# The version header follows the source it is built from: cmake/version.cmake (run on every
# build) writes the commit of a scratch repository, a new commit after the next run, "-dirty"
# for an edited tree, and leaves the header untouched (same mtime) when nothing changed, so
# that a rebuild recompiles nothing. Usage: version_check.sh CMAKE SOURCE_DIR
set -eu
cmake=$1
src=$2
command -v git >/dev/null 2>&1 || { echo "no git: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$work/repo
out=$work/mb_version.h
mkdir "$repo"
git -C "$repo" init -q
git -C "$repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m one
gen() {
    "$cmake" -DSOURCE_DIR="$repo" -DTEMPLATE="$src/src/core/version.h.in" -DOUTPUT="$out" \
        -DPROJECT_VERSION=9.8.7 -DGIT="$(command -v git)" -P "$src/cmake/version.cmake"
}
expect() {
    want="#define MB_GIT_COMMIT \"$1\""
    grep -qx "$want" "$out" || { echo "FAIL: expected '$want' in:"; cat "$out"; exit 1; }
}
gen
expect "$(git -C "$repo" rev-parse --short=12 HEAD)"
grep -qx '#define MB_VERSION    "9.8.7"' "$out" || { echo "FAIL: version"; cat "$out"; exit 1; }
before=$(stat -c %Y.%s "$out")
sleep 1.1
gen
[ "$(stat -c %Y.%s "$out")" = "$before" ] || { echo "FAIL: header rewritten without a change"; exit 1; }
git -C "$repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m two
gen
expect "$(git -C "$repo" rev-parse --short=12 HEAD)"
echo x >"$repo/f" && git -C "$repo" add f
gen
expect "$(git -C "$repo" rev-parse --short=12 HEAD)-dirty"
echo "ok: the header follows commits and edits, and is left alone otherwise"
