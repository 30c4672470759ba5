#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The version header follows the source it is built from: cmake/version.cmake (run on every
# build) writes the commit of a scratch repository, a new commit after the next run, "-dirty"
# for an edited tree, and leaves the header untouched (same mtime) when nothing changed, so
# that a rebuild recompiles nothing. The version comes from the release tag: CMakeLists.txt's
# version with the commit count before any tag, the tag itself on it (v1.2.3 -> 1.2.3), the
# tag with the commits since after it; tags that are not versions are ignored.
# Usage: version_check.sh CMAKE SOURCE_DIR
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
commit() { git -C "$repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "$1"; }
commit one
gen() {
    "$cmake" -DSOURCE_DIR="$repo" -DTEMPLATE="$src/src/core/version.h.in" -DOUTPUT="$out" \
        -DPROJECT_VERSION=9.8.7 -DGIT="$(command -v git)" -P "$src/cmake/version.cmake"
}
expect() {
    want="#define MB_GIT_COMMIT \"$1\""
    grep -qx "$want" "$out" || { echo "FAIL: expected '$want' in:"; cat "$out"; exit 1; }
}
expect_version() {
    want="#define MB_VERSION    \"$1\""
    grep -qx "$want" "$out" || { echo "FAIL: expected '$want' in:"; cat "$out"; exit 1; }
}
short() { git -C "$repo" rev-parse --short HEAD; }
gen
expect "$(git -C "$repo" rev-parse --short=12 HEAD)"
expect_version "9.8.7-1-g$(short)"
before=$(stat -c %Y.%s "$out")
sleep 1.1
gen
[ "$(stat -c %Y.%s "$out")" = "$before" ] || { echo "FAIL: header rewritten without a change"; exit 1; }
commit two
git -C "$repo" tag not-a-version
gen
expect "$(git -C "$repo" rev-parse --short=12 HEAD)"
expect_version "9.8.7-2-g$(short)"
# On an annotated release tag: the tag's version; the commit stays a commit.
git -C "$repo" -c user.name=t -c user.email=t@t tag -a -m release v1.2.3
gen
expect "$(git -C "$repo" rev-parse --short=12 HEAD)"
expect_version "1.2.3"
commit three
gen
expect_version "1.2.3-1-g$(short)"
# A lightweight tag without the "v" counts too.
git -C "$repo" tag 1.2.4
gen
expect_version "1.2.4"
echo x >"$repo/f" && git -C "$repo" add f
gen
expect "$(git -C "$repo" rev-parse --short=12 HEAD)-dirty"
expect_version "1.2.4-dirty"
echo "ok: the header follows commits, release tags and edits, and is left alone otherwise"
