#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# README's layout map names every source file: each file under bpf/ and
# tc/ (and each folder of tests/) stands in the map of the Development
# section, by its name or in a "name.[ch]" pair, and nothing the map
# names under tc/ and bpf/ is gone from the tree.
source "$(dirname "$0")/../lib.sh"

map=$(sed -n '/^### Layout/,/^Style:/p' "$TOP/README.md")
[ -n "$map" ] || { not_ok "README has a Layout section"; done_testing; }

# named FILE: FILE's name is in the map (alone, or as NAME.[ch])
named() {
	local b=${1##*/} stem=${1##*/}

	stem=${stem%.[ch]}
	grep -qE "(^|[ ,])($b|$stem\.\[ch\])(,|[[:space:]]|$)" <<<"$map"
}

missing=
for f in $(cd "$TOP" && git ls-files bpf tc 2>/dev/null || find bpf tc -type f); do
	named "$f" || missing+=" $f"
done
is "${missing# }" "" "every file under bpf/ and tc/ is in README's layout map"

for d in "$TOP"/tests/*/; do
	d=$(basename "$d")
	grep -qE "^ +$d/" <<<"$map"
	check "tests/$d/ is in the layout map" test $? = 0
done

gone=
for f in $(grep -oE '^ {6,8}[a-z_]+\.(c|h|bpf\.c|bpf\.h)' <<<"$map"); do
	[ -n "$(cd "$TOP" && find bpf tc -name "$f")" ] || gone+=" $f"
done
is "${gone# }" "" "every file the map names exists"

done_testing
