#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd ports on the act hook (u32 + act_bpf), which this project's CI
# host lacks: redirect and clone modes forward real traffic between veths
# in namespaces, and bpfwd's counters agree with what the sink got.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/vmlib.sh"
need_bpfwd

"$BPFWD" -j probe | jq -e .act_bpf >/dev/null ||
	skip_all "kernel $(uname -r) has no act_bpf"

N=50
for mode in redirect clone; do
	topo
	check "$mode: port add hook act" \
		bpfwd_ns "$dut" port add dev d0 to d1 mode "$mode" hook act
	like "$(in_ns "$dut" tc filter show dev d0 ingress)" "u32" \
		"$mode: a u32 filter sits on d0 ingress"
	u0=$(udp_noports "$sink")
	send_udp "$gen" 192.0.2.2 $N
	is "$(($(udp_noports "$sink") - u0))" $N "$mode: sink's stack got $N"
	is "$(stats_of "$dut" d0 packets)" $N "$mode: bpfwd stats count $N"
	if [ "$mode" = clone ]; then
		# the original goes on into the dut's stack, which has no
		# address for it: it must not come back out of d1
		is "$(tx_packets "$dut" d1)" $N "clone: d1 sent only the clones"
	fi
	check "$mode: port del" bpfwd_ns "$dut" port del dev d0
	topo_del
done
done_testing
