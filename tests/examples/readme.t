#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# README.md is written for someone who installs and runs bpfwd: outside
# its Development and Kernel patches sections it names no make target
# that only a developer of bpfwd runs, its stock tc commands load the
# redirect.o that make install installs, it says how to undo
# everything and what physical NICs need, and it describes every
# example script.
source "$(dirname "$0")/../lib.sh"

README=$TOP/README.md
PREFIX_OBJ=/usr/local/lib/bpf/redirect.o

# user_text: README without the Development and Kernel patches sections
user_text() {
	awk '/^## / { dev = ($0 ~ /^## (Development|Kernel patches)$/) } !dev' "$README"
}

is "$(user_text | grep -oE 'make (check|test|demo|bench|vmtest|man|clean)\b' | sort -u | tr '\n' ' ')" "" \
	"user text names no developer make target"
is "$(grep -E '^ +(# )?tc filter add .* obj ' "$README" | grep -vc " obj $PREFIX_OBJ ")" 0 \
	"every stock tc command loads $PREFIX_OBJ"
grep -q "make install.*puts it in" "$README"
check "README says where make install puts redirect.o" test $? = 0
is "$(grep -c '^PREFIX[[:space:]]*?=[[:space:]]*/usr/local' "$TOP/Makefile")" 1 \
	"the Makefile's PREFIX is /usr/local, as README says"

# section TITLE: the text of README's section TITLE
section() {
	awk -v t="## $1" '/^## / { on = ($0 == t) } on' "$README"
}
undo=$(section "Undoing everything")
for w in "port flush" "tc/globals/bpfwd_ports" "tc qdisc del" "make uninstall" "e_bpfwd.so"; do
	like "$undo" "$w" "Undoing everything: $w"
done
nics=$(section "Physical NICs")
for w in "promisc on" "lro off" "XDP TX queue" "bridge" "physical-xconnect.sh"; do
	like "$nics" "$w" "Physical NICs: $w"
done
for ex in "$TOP"/examples/*.sh; do
	name=$(basename "$ex")
	[ "$name" = lib.sh ] && continue
	grep -q "$name" "$README"
	check "README describes examples/$name" test $? = 0
done

done_testing
