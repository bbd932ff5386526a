#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Helpers for the tests that run inside the vmtest guest (kernel/): tracefs
# events and pktgen. Source after ../lib.sh. They also work on a host, but
# the tests that need them skip there when the kernel lacks the feature.

TRACEFS=/sys/kernel/tracing
VMTEST_OBJ=${VMTEST_OBJ:-}

# has_event SYSTEM/EVENT: the running kernel has this trace event
has_event() {
	[ -d "$TRACEFS/events/$1" ]
}

# trace_start SYSTEM/EVENT...: clear the buffer, enable only these events
trace_start() {
	local e
	echo 0 >"$TRACEFS/tracing_on"
	echo >"$TRACEFS/set_event"
	for e in "$@"; do echo 1 >"$TRACEFS/events/$e/enable"; done
	echo 16384 >"$TRACEFS/buffer_size_kb" 2>/dev/null
	echo >"$TRACEFS/trace"
	echo 1 >"$TRACEFS/tracing_on"
	on_exit 'echo >'"$TRACEFS"'/set_event'
}

# trace_stop: stop recording, keep the buffer, disable the events
trace_stop() {
	echo 0 >"$TRACEFS/tracing_on"
	echo >"$TRACEFS/set_event"
}

# trace_count REGEX: lines of the buffer that match
trace_count() {
	grep -cE "$1" "$TRACEFS/trace"
}

# trace_show N: the first N tc redirect events and TC_* drops, as TAP
# diagnostics
trace_show() {
	grep -E 'tc_redirect|reason: TC_' "$TRACEFS/trace" | head -n "${1:-5}" |
		sed 's/^ */# /'
}

# ifindex_of NS DEV
ifindex_of() {
	ip -n "$1" -j link show "$2" | jq '.[0].ifindex'
}

# has_pktgen: pktgen is built in or loaded
has_pktgen() {
	[ -d /proc/net/pktgen ]
}

# pg NS FILE CMD: write one pktgen command in NS (its /proc/net is per netns)
pg() {
	in_ns "$1" sh -c "echo '$3' > /proc/net/pktgen/$2"
}

# pktgen_send NS DEV DST_IP DST_MAC COUNT: send COUNT UDP frames out of DEV
# and wait for the end. clone_skb 0: a veth's peer consumes each skb, so
# pktgen must not resend one.
pktgen_send() {
	local ns=$1 dev=$2 ip=$3 mac=$4 n=$5
	pg "$ns" kpktgend_0 rem_device_all
	pg "$ns" kpktgend_0 "add_device $dev"
	pg "$ns" "$dev" "count $n"
	pg "$ns" "$dev" "clone_skb 0"
	pg "$ns" "$dev" "pkt_size 60"
	pg "$ns" "$dev" "delay 0"
	pg "$ns" "$dev" "dst $ip"
	pg "$ns" "$dev" "dst_mac $mac"
	pg "$ns" pgctrl start
	pg "$ns" kpktgend_0 rem_device_all
}

# need_obj: the lane's fixed-target test object (kernel/ builds it)
need_obj() {
	[ -n "$VMTEST_OBJ" ] && [ -f "$VMTEST_OBJ" ] ||
		skip_all "vmtest_redir.o missing (built by kernel/scripts/mkinitramfs.sh)"
}
