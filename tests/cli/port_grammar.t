#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The port grammar comes from one keyword table per part of the command,
# so the help and the parser cannot disagree.  A keyword given twice is
# a usage error naming the second value (exit 2, one line, no port
# made).  Every keyword `bpfwd port help` shows is one the parser takes,
# and every word of the man pages and README that the parser takes is in
# the help.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

OUT=$TMPDIR_T/out
ERR=$TMPDIR_T/err

setup_ns dut || { not_ok "namespace"; done_testing; }
ip -n "$dut" link add a0 type veth peer a1
ip -n "$dut" link set a0 up
ip -n "$dut" link set a1 up

# refused DESC MSG ARGS...: bpfwd -n dut ARGS exits 2 with MSG alone on
# stderr, and no port is there afterwards
refused() {
	local desc=$1 msg=$2
	shift 2
	bpfwd_ns "$dut" "$@" >"$OUT" 2>"$ERR"
	is "$?" 2 "$desc: exit 2"
	is "$(<"$ERR")" "$msg" "$desc: one line"
	is "$(<"$OUT")$(bpfwd_ns "$dut" port show)" "" "$desc: no port"
}

## a keyword given twice
refused "del dev twice" 'bpfwd: port del duplicate "dev": "a1" is the second value' \
	port del dev a0 dev a1
refused "add to twice" 'bpfwd: port add duplicate "to": "lo" is the second value' \
	port add dev a0 to a1 to lo
refused "add dev twice" 'bpfwd: port add duplicate "dev": "a1" is the second value' \
	port add dev a0 to lo dev a1
refused "add prio twice" 'bpfwd: port add duplicate "prio": "3" is the second value' \
	port add dev a0 to a1 hook tc prio 2 prio 3
refused "add flag twice" 'bpfwd: port add duplicate "to-ingress"' \
	port add dev a0 to a1 to-ingress to-ingress
refused "add hook twice" 'bpfwd: port add duplicate "hook": "tc" is the second value' \
	port add dev a0 to a1 hook tc hook tc
refused "xdp cpus twice" 'bpfwd: port add duplicate "cpus": "1" is the second value' \
	port add dev a0 hook xdp cpus 0 cpus 1
refused "replace mode twice" 'bpfwd: port replace duplicate "mode": "redirect" is the second value' \
	port replace dev a0 to a1 mode clone mode redirect
refused "show dev twice" 'bpfwd: port show duplicate "dev": "a1" is the second value' \
	port show dev a0 dev a1

## help and parser
help=$("$BPFWD" port help)
is "$?" 0 "port help: exit 0"

# keywords: the lowercase words of a grammar line that follow neither
# another lowercase word (a keyword's fixed value, "then pass") nor a
# "{" or "|" (an enum's words)
keywords() {
	awk '{
		prev = ":=";
		for (i = 1; i <= NF; i++) {
			w = $i;
			if (w ~ /^[a-z][a-z-]*$/ && prev !~ /^[a-z{|]/)
				print w;
			prev = w;
		}
	}'
}
spec_kw=$(grep -E '^ *(PORT_SPEC|[A-Z_]+_ARGS) :=|^ +\[' <<<"$help" |
	  sed 's/^.*:= //' | keywords | sort -u)
del_kw=$(sed -n 's/.*bpfwd port del //p' <<<"$help" | keywords | sort -u)
[ -n "$spec_kw" ] && [ -n "$del_kw" ]
check "help has keywords (add: $(echo $spec_kw); del: $(echo $del_kw))" test $? = 0

# takes WORD ARGS...: whether the parser of ARGS WORD knows WORD
takes() {
	local w=$1
	shift
	bpfwd_ns "$dut" "$@" "$w" >"$OUT" 2>"$ERR"
	! grep -qF "unknown argument \"$w\"" "$ERR"
}

for w in $spec_kw; do
	check "port add takes \"$w\" (in the help)" takes "$w" port add dev a0
	check "port replace takes \"$w\" (in the help)" takes "$w" port replace dev a0
done
for w in $del_kw; do
	check "port del takes \"$w\" (in the help)" takes "$w" port del
done

# every bold or quoted word of the docs: if a parser takes it, the help
# shows it
words=$( (grep -oE '\*\*[a-z][a-z-]*\*\*' "$TOP"/man/bpfwd.8.rst \
		"$TOP"/man/bpfwd-xdp.8.rst | tr -d '*'
	  grep -oE '`[a-z][a-z-]*`' "$TOP/README.md" | tr -d '`') |
	sed 's/^.*://' | sort -u)
hidden=
for w in $words; do
	if takes "$w" port add dev a0 && ! grep -qx -- "$w" <<<"$spec_kw"; then
		hidden+=" add:$w"
	fi
	if takes "$w" port del && ! grep -qx -- "$w" <<<"$del_kw"; then
		hidden+=" del:$w"
	fi
done
is "$hidden" "" "no keyword the parser takes is missing from the help ($(wc -w <<<"$words") words tried)"

done_testing
