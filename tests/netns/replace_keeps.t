#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# port replace as iproute2's replace (issue 13): it adds a port that is
# not there, and keeps what the command does not name.  Kept: mode,
# target with its to-ingress (both go together: "to OUT" without
# to-ingress is OUT's egress), hook, at, prio.  What runs is read from
# the kernel (the program tc has on d0), not only from port show.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

topo
veth "$dut" d2 "$sink" s1

# prog_on: the name of the program of the filter on the dut's d0 ingress
prog_on() {
	in_ns "$dut" tc -j filter show dev d0 ingress |
		jq -r '[.[] | .options.bpf_name // empty] | join(",")'
}
show() { bpfwd_ns "$dut" port show dev d0; }

## replace of a port that is not there adds it
check "replace adds a missing port" \
	bpfwd_ns "$dut" port replace dev d0 to d1 hook tc
like "$(show)" "^d0 to d1 mode redirect hook tc at ingress prio 1$" "the port is there"
is "$(delivered "$sink" 20)" 20 "and forwards"
check "replace of a missing port takes add's defaults (the default hook)" \
	bpfwd_ns "$dut" port replace dev d1 to d0
is "$(bpfwd_ns "$dut" -j port show dev d1 | jq -r .[0].hook)" "$("$BPFWD" -j probe | jq -r .default_hook)" \
	"d1: the default hook"
bpfwd_ns "$dut" port del dev d1
out=$(bpfwd_ns "$dut" port replace dev d1 2>&1)
is "$?:$out" '2:bpfwd: port replace missing "to OUT"' \
	"replace of a missing port without to: add's usage error"

## the mode alone: the target and its to-ingress stay
bpfwd_ns "$dut" port del dev d0
bpfwd_ns "$dut" port add dev d0 to d1 mode mirror to-ingress hook tc prio 7 ||
	die "port add mirror to-ingress"
is "$(prog_on)" mir_recv "set up: mirror to-ingress runs mir_recv"
check "replace mode clone" bpfwd_ns "$dut" port replace dev d0 mode clone
is "$(show)" "d0 to d1 mode clone to-ingress hook tc at ingress prio 7" \
	"mode clone: to d1, to-ingress, hook and prio kept"
is "$(prog_on)" clone_recv "mode clone: the program is clone_recv (to-ingress kept)"

## a new target without to-ingress: its egress (the target is restated)
check "replace to d2" bpfwd_ns "$dut" port replace dev d0 to d2
is "$(show)" "d0 to d2 mode clone hook tc at ingress prio 7" \
	"to d2: mode kept, to-ingress goes with the old target"
is "$(prog_on)" clone_xmit "to d2: the program is clone_xmit"

## to-ingress alone: on the kept target
check "replace to-ingress" bpfwd_ns "$dut" port replace dev d0 to-ingress
is "$(show)" "d0 to d2 mode clone to-ingress hook tc at ingress prio 7" \
	"to-ingress alone: target and mode kept"

## a mode without to-ingress drops it, the rest stays
check "replace mode neigh" bpfwd_ns "$dut" port replace dev d0 mode neigh
is "$(show)" "d0 to d2 mode neigh hook tc at ingress prio 7" \
	"mode neigh: no to-ingress (it does not apply), target and prio kept"
is "$(prog_on)" rd_neigh "mode neigh: the program is rd_neigh"

## what replace cannot change is refused, and changes nothing
out=$(bpfwd_ns "$dut" port replace dev d0 prio 8 2>&1)
is "$?:$out" "1:bpfwd: port replace d0: replace keeps the prio (7); del and add the port" \
	"another prio: refused"
out=$(bpfwd_ns "$dut" port replace dev d0 hook tcx 2>&1)
is "$?" 1 "another hook: refused"
is "$(show)" "d0 to d2 mode neigh hook tc at ingress prio 7" "the refusals changed nothing"

## back to a plain redirect, and traffic follows the last replace
check "replace to d1 mode redirect" bpfwd_ns "$dut" port replace dev d0 to d1 mode redirect
is "$(delivered "$sink" 20)" 20 "traffic reaches the sink through d1"
is "$(stats_of "$dut" d0 packets)" 20 "d0 counted the datagrams since the add (20 after the last replaces)"

## hook none: replace without to keeps the target
bpfwd_ns "$dut" port add dev d1 to d0 hook none || die "port add d1 hook none"
check "hook none: replace without to" bpfwd_ns "$dut" port replace dev d1 mode redirect
is "$(bpfwd_ns "$dut" port show dev d1)" "d1 to d0 mode redirect hook none" \
	"hook none: the target stays"

done_testing
