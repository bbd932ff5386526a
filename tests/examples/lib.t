#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# examples/example-lib.sh stays standalone (an example is copied out with it and
# run alone), so the topology functions it shares with tests/lib.sh are
# written twice.  This test keeps the two copies the same: every
# function both files define, and each pair in TWINS (one function under
# two names), must have the same body as bash prints it (declare -f:
# comments and layout do not count).  Functions that differ on purpose
# are in DIFFER, with the reason.
source "$(dirname "$0")/../lib.sh"

TESTS_LIB=$TESTS_DIR/lib.sh
EX_LIB=$TOP/examples/example-lib.sh

# tests/lib.sh name, examples/example-lib.sh name
TWINS="send_udp:udp_send ip_inreceives:ip_in"
# in_ns: an example also runs on real devices, where an empty NS means
#   the current namespace; a test refuses it, so that no typo sends
#   traffic outside the namespaces it made.
# die: an example prints its name and exits; a test fails a TAP line
#   and ends with the plan.
DIFFER="in_ns die"

# defined FILE: the names of the functions FILE defines
defined() {
	sed -n 's/^\([a-z_][a-z_0-9]*\)() *{.*/\1/p' "$1" | sort -u
}

# body FILE NAME: NAME's definition in FILE as bash prints it, named f
# (the file is not sourced: tests/lib.sh re-executes and mounts)
body() {
	local def
	def=$(awk -v n="$2" '
		$0 ~ "^" n "\\(\\) *\\{.*\\}$" { print; exit }
		$0 ~ "^" n "\\(\\) *\\{" { on = 1 }
		on { print }
		on && /^}/ { exit }' "$1")
	[ -n "$def" ] || return 1
	bash -c "$def"$'\n'"declare -f $2" | sed "1s/^$2 /f /"
}

# same NAME_T NAME_E: NAME_T of tests/lib.sh and NAME_E of examples/example-lib.sh
# have one body
same() {
	local t e desc="tests/lib.sh $1 is examples/example-lib.sh $2"
	[ "$1" = "$2" ] && desc="$1 is the same in tests/lib.sh and examples/example-lib.sh"
	if ! t=$(body "$TESTS_LIB" "$1"); then
		not_ok "$desc"
		diag "tests/lib.sh defines no $1"
	elif ! e=$(body "$EX_LIB" "$2"); then
		not_ok "$desc"
		diag "examples/example-lib.sh defines no $2"
	elif [ "$t" = "$e" ]; then
		ok "$desc"
	else
		not_ok "$desc"
		diff -u <(echo "$t") <(echo "$e") | sed 's/^/# /'
	fi
}

both=$(comm -12 <(defined "$TESTS_LIB") <(defined "$EX_LIB"))
n=0
for f in $both; do
	[[ " $DIFFER " == *" $f "* ]] && continue
	same "$f" "$f"
	n=$((n + 1))
done
ge "$n" 2 "tests/lib.sh and examples/example-lib.sh share functions (veth, rx_packets)"
for pair in $TWINS; do
	same "${pair%%:*}" "${pair#*:}"
done
for f in $DIFFER; do
	if grep -qx "$f" <(defined "$TESTS_LIB") && grep -qx "$f" <(defined "$EX_LIB"); then
		ok "$f: differs on purpose, and both still define it"
	else
		not_ok "$f: differs on purpose, and both still define it"
	fi
done

# the comparison itself: a changed body is caught
t=$(body "$TESTS_LIB" veth)
e=$(sed 's/numtxqueues 1 numrxqueues 1 type veth/numtxqueues 2 numrxqueues 1 type veth/' "$EX_LIB" >"$TMPDIR_T/lib.sh" &&
	body "$TMPDIR_T/lib.sh" veth)
check "a drifted veth would be caught" test -n "$t" -a -n "$e" -a "$t" != "$e"

done_testing
