#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The table layout that operators read (bpfwd.8 TABLE LAYOUT, README.md
# "Table layout for bpftool users") lists exactly the modes, hooks and
# flags bpf/bpfwd.h defines: every value of enum bpfwd_mode and enum
# bpfwd_hook as "N word" (word: the enum name in lower case, what the CLI
# takes), every BPFWD_F_* as "bit N" with its name, and no value, bit or
# name the header does not have.
source "$(dirname "$0")/../lib.sh"

HDR=$TOP/bpf/bpfwd.h
MAN_RST=$TOP/man/bpfwd.8.rst
README=$TOP/README.md

# enum_pairs PREFIX: "N word" for each PREFIX_WORD = N in bpfwd.h
enum_pairs() {
	sed -n "s/^[[:space:]]*$1_\([A-Z0-9_]*\)[[:space:]]*=[[:space:]]*\([0-9]*\),.*/\2 \1/p" "$HDR" |
		tr 'A-Z_' 'a-z-' | sort -n
}

# flag_bits: "N NAME" for each #define BPFWD_F_NAME (1U << N)
flag_bits() {
	sed -n 's/^#define[[:space:]]*\(BPFWD_F_[A-Z0-9_]*\)[[:space:]]*(1U\{0,1\} << \([0-9]*\)).*/\2 \1/p' "$HDR" |
		sort -n
}

# man_field FIELD: the man page's description of bpfwd_port's FIELD, on
# one line: from "*FIELD* (" to the next field
man_field() {
	sed -n '/^TABLE LAYOUT/,/^EXIT STATUS/p' "$MAN_RST" | tr '\n' ' ' |
		sed -n "s/.*\*$1\* (\(.*\)/\1/p" | sed 's/), \*\*__u[0-9]*\*\* \*.*//'
}

# readme_field FIELD: the meaning cell of FIELD's row in README.md's table
readme_field() {
	sed -n '/^## Table layout for bpftool users/,/^## /p' "$README" |
		grep "^| [0-9]* | \`$1\` |" | awk -F'|' '{ print $5 }'
}

# pairs TEXT: the "N word" pairs TEXT lists
pairs() {
	grep -oE '\b[0-9]+ [a-z][a-z0-9-]*' <<<"$1" | sort -un
}

# same_set WANT GOT DESC: the two lists have the same lines
same_set() {
	local missing extra
	missing=$(comm -23 <(sort -u <<<"$1") <(sort -u <<<"$2"))
	extra=$(comm -13 <(sort -u <<<"$1") <(sort -u <<<"$2"))
	if [ -z "$missing$extra" ]; then
		ok "$3"
	else
		not_ok "$3"
		[ -n "$missing" ] && diag "missing: $(tr '\n' ',' <<<"$missing")"
		[ -n "$extra" ] && diag "not in bpfwd.h: $(tr '\n' ',' <<<"$extra")"
	fi
}

modes=$(enum_pairs BPFWD_MODE)
hooks=$(enum_pairs BPFWD_HOOK)
flags=$(flag_bits)
ge "$(wc -l <<<"$modes")" 8 "bpfwd.h: enum bpfwd_mode read ($(wc -l <<<"$modes") values)"
ge "$(wc -l <<<"$hooks")" 5 "bpfwd.h: enum bpfwd_hook read ($(wc -l <<<"$hooks") values)"
ge "$(wc -l <<<"$flags")" 6 "bpfwd.h: BPFWD_F_* read ($(wc -l <<<"$flags") bits)"

for doc in man readme; do
	name=$([ $doc = man ] && echo "bpfwd.8 TABLE LAYOUT" || echo "README table layout")
	text=$(${doc}_field mode)
	[ -n "$text" ] || not_ok "$name: has a mode field"
	same_set "$modes" "$(pairs "$text")" "$name: modes are those of enum bpfwd_mode"
	text=$(${doc}_field hook)
	[ -n "$text" ] || not_ok "$name: has a hook field"
	same_set "$hooks" "$(pairs "$text")" "$name: hooks are those of enum bpfwd_hook"
	text=$(${doc}_field flags)
	[ -n "$text" ] || not_ok "$name: has a flags field"
	same_set "$(cut -d' ' -f1 <<<"$flags")" \
		"$(grep -oE 'bit [0-9]+' <<<"$text" | cut -d' ' -f2)" \
		"$name: flag bits are those of bpfwd.h"
	same_set "$(cut -d' ' -f2 <<<"$flags")" \
		"$(grep -oE 'BPFWD_F_[A-Z0-9_]+' <<<"$text")" \
		"$name: flag names are those of bpfwd.h"
	# each name beside its own bit
	bad=
	while read -r bit fname; do
		grep -qE "bit ${bit}[^0-9][^,]*${fname}" <<<"$text" || bad+=" $fname"
	done <<<"$flags"
	is "$bad" "" "$name: each flag name stands beside its bit"
done

done_testing
