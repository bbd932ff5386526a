#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# pktgen-driven traffic through a bpfwd port, counted at the sink: pktgen
# sends COUNT frames out of gen's veth, the dut's port redirects them, the
# sink's veth must receive every one. On each hook the kernel has. Under
# TCG this proves function only, not speed.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/vmlib.sh"
need_bpfwd
has_pktgen || skip_all "kernel $(uname -r) has no pktgen"

COUNT=2000
hooks=tc
"$BPFWD" -j probe | jq -e .tcx >/dev/null && hooks="$hooks tcx"
"$BPFWD" -j probe | jq -e .act_bpf >/dev/null && hooks="$hooks act"

for hook in $hooks; do
	topo
	bpfwd_ns "$dut" port add dev d0 to d1 hook "$hook"
	r0=$(rx_packets "$sink" s0)
	pktgen_send "$gen" g0 192.0.2.2 "$(mac_of "$sink" s0)" $COUNT
	is "$(tx_packets "$gen" g0)" $COUNT "$hook: pktgen sent $COUNT"
	is "$(($(rx_packets "$sink" s0) - r0))" $COUNT "$hook: sink received $COUNT"
	is "$(stats_of "$dut" d0 packets)" $COUNT "$hook: bpfwd counted $COUNT"
	topo_del
done
done_testing
