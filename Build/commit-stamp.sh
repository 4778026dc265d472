#!/bin/sh
# Writes BuildCommit.swift for `tincan --version`: the commit the package directory ($1) is at,
# with "-dirty" when tracked files have changed, or nil outside a git checkout (a source archive).
# The file in $2 is replaced only when its text would change, so an unchanged checkout rebuilds nothing.
set -eu
package=$1
folder=$2
mkdir -p "$folder"
commit=$(git -C "$package" rev-parse --short=12 HEAD 2>/dev/null || true)
if [ -n "$commit" ] && [ -n "$(git -C "$package" --no-optional-locks status --porcelain --untracked-files=no 2>/dev/null || true)" ]; then
    commit="$commit-dirty"
fi
if [ -n "$commit" ]; then value="\"$commit\""; else value="nil"; fi
text="/// The commit this build comes from (Build/commit-stamp.sh), or nil outside a git checkout.
enum BuildCommit {
    static let identifier: String? = $value
}"
target="$folder/BuildCommit.swift"
if [ -f "$target" ] && [ "$(cat "$target")" = "$text" ]; then exit 0; fi
printf '%s\n' "$text" > "$target.tmp"
mv "$target.tmp" "$target"
