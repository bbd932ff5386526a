#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# examples/apply-at-boot.sh does what its opening comment says: its
# namespace run applies a file, forwards, loses the ports as a reboot
# does, gets them back from the same file and a second apply changes
# nothing, and with bpfwd daemon running the ports of a veth deleted and
# made again forward again; run on a file (in a namespace of this test, CONF in a temp
# dir) it applies and installs a good file, keeps the old one, and a
# file that fails is not installed and the ports go back to CONF.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

EX=$TOP/examples/apply-at-boot.sh
export BPFWD

run_example apply-at-boot
like "$OUT" $'apply [^\n]*\nd0: added\nd1: added\nsink received 100 of 100' "namespace run: added, all UDP crossed"
like "$OUT" $'port show\n# bpfwd [^\n]* apply [^\n]*\nd0: added\nd1: added\n' "after the reboot: added again"
like "$OUT" $'d0: unchanged\nd1: unchanged\nsink received 100 of 100 UDP datagrams after the reboot' \
	"the second apply: unchanged, and traffic crosses"
like "$OUT" 'd1 \(gone\) to d0 [^
]*\(detached\)' "the veth deleted: d1 (gone) ... (detached)"
like "$OUT" 'd0 to if[0-9]+ [^
]*\(target gone\)' "the veth deleted: d0 ... (target gone)"
like "$OUT" 'port d0: target d1 is back \(if[0-9]+\): the port sends there again' "the daemon repaired d0's target"
like "$OUT" 'port d1: d1 is back \(if[0-9]+\): the port is attached again' "the daemon re-attached d1's port"
after=${OUT##*"(the daemon's log)"}
like "$after" 'd1 to d0 mode redirect hook [a-z]+ at ingress
' "after the restart: d1's port as before"
like "$after" 'd0 to d1 mode redirect hook [a-z]+ at ingress
' "after the restart: d0's port as before"
like "$after" 'sink received 100 of 100 UDP datagrams after the restart' "after the restart: traffic crosses"

topo || die "topology"
export CONF=$TMPDIR_T/etc/bpfwd.conf
good=$TMPDIR_T/good.conf
bad=$TMPDIR_T/bad.conf
printf 'port add dev d0 to d1 hook tc\n' >"$good"
out=$(in_ns "$dut" "$EX" "$good" 2>&1)
is "$?" 0 "a good file: exit 0"
like "$out" "d0: added" "a good file: applied"
is "$(cat "$CONF")" "$(cat "$good")" "a good file: installed as CONF"
is "$(delivered "$sink" 20)" 20 "a good file: d0 forwards"

printf 'port add dev d0 to d1 hook tc mode clone\nport add dev nosuch0 to d0\n' >"$bad"
out=$(in_ns "$dut" "$EX" "$bad" 2>&1)
is "$?" 1 "a failing file: exit 1"
like "$out" "line 2: nosuch0: no such device" "a failing file: says which line"
like "$out" "not changed" "a failing file: says CONF stays"
is "$(cat "$CONF")" "$(cat "$good")" "a failing file: CONF is still the good one"
like "$out" "d0: replaced" "a failing file: its line 1 was applied, then CONF again"
is "$(bpfwd_ns "$dut" -j port show dev d0 | jq -r .[0].mode)" redirect \
	"a failing file: d0 is as CONF says again"

printf 'port add dev d1 to d0 hook tc\n' >"$good"
out=$(in_ns "$dut" "$EX" "$good" prune 2>&1)
is "$?" 0 "another file with prune: exit 0"
like "$out" "d0: deleted" "prune: d0 deleted"
is "$(bpfwd_ns "$dut" -j port show | jq -r 'map(.dev) | join(",")')" d1 "prune: only d1 is a port"
is "$(cat "$CONF.old")" "port add dev d0 to d1 hook tc" "the old file kept as CONF.old"

done_testing
