#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd ports forward real traffic gen -> dut -> sink in each mode, on
# each hook this kernel has, and nowhere else: UDP counted at the sink's
# stack, ping across both directions, the bpfwd counters moving.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

N=50

# run_case HOOK MODE [extra args]: d0 -> d1 forwarding gen's UDP to sink
run_case() {
	local hook=$1 mode=$2 fwd
	shift 2
	topo || { not_ok "topology"; return; }
	if ! bpfwd_ns "$dut" port add dev d0 to d1 mode "$mode" hook "$hook" "$@"; then
		not_ok "$hook/$mode: port add"
		return
	fi
	local dut_before=$(ip_inreceives "$dut")
	is "$(delivered "$sink" $N)" "$N" "$hook/$mode: $N UDP datagrams reach the sink's stack"
	fwd=$(stats_of "$dut" d0 packets)
	ge "$fwd" "$N" "$hook/$mode: port counter counted them"
	is "$(($(ip_inreceives "$dut") - dut_before))" 0 \
		"$hook/$mode: the dut's own stack saw none of them"
	if [ "$mode" = clone ]; then
		ge "$(stats_of "$dut" d0 dropped)" "$N" "clone: originals dropped"
	fi
	bpfwd_ns "$dut" port del dev d0
	is "$(bpfwd_ns "$dut" -j port show | jq length)" 0 "$hook/$mode: port del leaves no port"
	topo_del
}

for hook in $(tc_hooks); do
	run_case "$hook" redirect
	run_case "$hook" clone
done
has_tcx || skip "tcx: kernel has no tcx (needs 6.6)"

done_testing
