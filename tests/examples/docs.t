#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The documentation says what the code does: every line of the grammar
# bpfwd's help prints stands in the man page and in README.md, every
# object has its place in the man page, every section of redirect.o is
# documented, and the man page renders with rst2man without a warning.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

MAN_RST=$TOP/man/bpfwd.8.rst
README=$TOP/README.md

# norm: one grammar line a line, without "Usage:"/"where", blanks folded
norm() {
	sed -E 's/^[[:space:]]*(Usage:|where)?[[:space:]]*//; s/[[:space:]]+/ /g; s/ $//' |
		grep -v '^$'
}

# documents FILE TEXT DESC: every line of TEXT is a line of FILE
documents() {
	local missing

	missing=$(grep -vxF -f <(norm <"$1") <(norm <<<"$2"))
	if [ -z "$missing" ]; then
		ok "$3"
	else
		not_ok "$3"
		diag "not in $(basename "$1"): $missing"
	fi
}

for obj in "" port stats probe; do
	help=$("$BPFWD" $obj help)
	is "$?" 0 "bpfwd ${obj:+$obj }help exits 0"
	documents "$MAN_RST" "$help" "man page has the grammar of bpfwd ${obj:+$obj }help"
	documents "$README" "$help" "README has the grammar of bpfwd ${obj:+$obj }help"
done

# grammar: a usage as one line from the object's name on, without RST
# bold and italics ("monitor [ all ] ... [ prom FILE ]")
grammar() {
	tr -d '*' | tr -s ' \n' ' ' | sed -E "s/.*bpfwd (\[[^]]*\] )*$1 /$1 /; s/ $//"
}

# monitor: its help stands in README.md, its grammar in both man pages
help=$("$BPFWD" monitor help)
is "$?" 0 "bpfwd monitor help exits 0"
documents "$README" "$help" "README has the grammar of bpfwd monitor help"
want=$(grep -E '^(Usage:| +\[)' <<<"$help" | grammar monitor)
is "$(sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' "$TOP/man/bpfwd-monitor.8.rst" |
	grep -E 'bpfwd|^ +\[' | grammar monitor)" "$want" \
	"bpfwd-monitor.8 SYNOPSIS has the grammar of bpfwd monitor help"
is "$(grep '^\*\*bpfwd monitor\*\*' "$MAN_RST" | grammar monitor)" "$want" \
	"bpfwd.8 MONITOR has the grammar of bpfwd monitor help"

objects=$("$BPFWD" help | sed -n 's/.*OBJECT := {\(.*\)}.*/\1/p' | tr -d '|')
[ -n "$objects" ] || not_ok "bpfwd help lists objects"
for obj in $objects; do
	if grep -q "\*\*bpfwd $obj[* ]" "$MAN_RST"; then
		ok "man page describes bpfwd $obj"
	else
		not_ok "man page describes bpfwd $obj"
	fi
done

if [ -f "$BUILD/bpf/redirect.o" ] && command -v readelf >/dev/null; then
	secs=$(readelf -SW "$BUILD/bpf/redirect.o" |
	       sed -n 's/^ *\[ *[0-9]*\] \([a-z_][a-z_0-9]*\) .*/\1/p' |
	       grep -vx 'license')
	[ -n "$secs" ] || not_ok "redirect.o has sections"
	for sec in $secs; do
		grep -q "\*\*$sec\*\*" "$MAN_RST"
		check "man page documents section $sec" test $? = 0
		grep -q "\`$sec\`" "$README"
		check "README documents section $sec" test $? = 0
	done
else
	skip "redirect.o or readelf missing: sections not checked"
fi

if command -v rst2man >/dev/null; then
	out=$(rst2man --halt=warning "$MAN_RST" 2>&1 >"$TMPDIR_T/bpfwd.8")
	is "$?:$out" "0:" "rst2man renders the man page without a warning"
	if command -v man >/dev/null; then
		text=$(MANWIDTH=80 man -l "$TMPDIR_T/bpfwd.8" 2>&1)
		like "$text" "NAME.*bpfwd - forward frames.*SYNOPSIS.*EXIT STATUS" \
			"man -l shows the page"
	else
		skip "man missing"
	fi
else
	skip "rst2man missing (python3-docutils)"
fi

done_testing
