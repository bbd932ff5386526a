#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# port replace changes mode and target in place: while gen sends a steady
# stream, the port flips between redirect and clone (a program swap) and
# between two targets (a table update) many times.  A window without a
# program would pass frames to the dut's stack: it must see none, and
# each datagram must reach the sink (or, on a loaded machine, be counted
# as dropped by a full veth queue on the way).
source "$(dirname "$0")/../lib.sh"
need_bpfwd

N=1500
for hook in $(tc_hooks); do
	topo
	# a second way to the sink: d2 -- s1, same sink stack
	veth "$dut" d2 "$sink" s1
	in_ns "$sink" sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.s1.rp_filter=0
	ip -n "$gen" neigh replace 192.0.2.2 lladdr ff:ff:ff:ff:ff:ff dev g0 nud permanent
	in_ns "$sink" ip addr add 192.0.2.2/24 dev s1 2>/dev/null
	# a frame that found no program in a gap would go up the dut's
	# stack: give it an address there so its IP counters see it
	in_ns "$dut" ip addr add 192.0.2.3/24 dev d0
	bpfwd_ns "$dut" port add dev d0 to d1 hook "$hook"
	in0=$(ip_inreceives "$dut")
	dr0=$(($(tx_dropped "$dut" d1) + $(tx_dropped "$dut" d2)))
	u0=$(udp_noports "$sink")
	replace_while_sending $N "to d1 mode clone" "to d2 mode clone" \
		"to d2 mode redirect" "to d1 mode redirect"
	sleep 0.2
	diag "$hook: $swaps replaces during the stream"
	ge "$swaps" 8 "$hook: the port was replaced while traffic flowed"
	is "$fails" 0 "$hook: every replace succeeded"
	is "$(($(ip_inreceives "$dut") - in0))" 0 \
		"$hook: no frame fell through to the dut's stack"
	got=$(($(udp_noports "$sink") - u0))
	drops=$(($(tx_dropped "$dut" d1) + $(tx_dropped "$dut" d2) - dr0))
	diag "$hook: $got at the sink, $drops dropped by full veth queues"
	is "$((got + drops))" $N "$hook: each of $N reached the sink or a full queue"
	like "$(bpfwd_ns "$dut" port show dev d0)" "d0 to d1 mode redirect hook $hook" \
		"$hook: show reports the last replace"
	topo_del
done
has_tcx || skip "tcx: this kernel has no tcx (needs 6.6)"

done_testing
