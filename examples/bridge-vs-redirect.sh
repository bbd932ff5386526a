#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The 2015 comparison by hand, with stock ip and tc only: how many frames
# a second a box forwards from IN to OUT with
#
#   bridge     ip link add br0 type bridge; ip link set IN master br0; ...
#   mirred     tc filter add dev IN ingress u32 match u32 0 0 \
#                  action mirred egress redirect dev OUT
#   redirect   tc filter add dev IN ingress bpf da obj redirect.o sec redirect_xmit
#              bpfwd port add dev IN to OUT hook none
#
# Every method is counted the same way: stock tc runs redirect.o at OUT's
# egress, with no table entry for OUT, so each frame leaving OUT passes
# untouched and is counted in the "(passed,tc)" row of `bpfwd stats`.
# (`bpfwd bench` does all of this, interleaved over many rounds with
# medians and spreads; this script shows the commands.)
#
# Run it:
#   examples/bridge-vs-redirect.sh      builds gen - dut - sink namespaces,
#                                       offers 64-byte UDP from bpfwd gen
#                                       for SECONDS per method, prints the
#                                       rates and removes everything again
#   examples/bridge-vs-redirect.sh IN OUT
#                                       the same on this host's IN and OUT
#                                       while you offer traffic into IN from
#                                       elsewhere; IN and OUT are given back
#                                       as they were (no IP configuration
#                                       is touched, but a bridge takes them
#                                       for SECONDS)
# Environment: SECONDS_PER (default 3), BPFWD, OBJ (default: ../build/
# next to this script, then the installed ones).
# Needs root, iproute2, ethtool, jq; bpfwd's example-lib.sh next to this script.
source "$(dirname "${BASH_SOURCE[0]}")/example-lib.sh"

SECS=${SECONDS_PER:-3}
PRIO=100
METHODS="bridge mirred redirect"

# passed NS: frames counted leaving OUT (the stock table's passed row)
passed() {
	bp "$1" -j stats | jq '[.[] | select(.dev == null and .table == "stock")][0].packets // 0'
}

# run NS CMD...: prints a command, then runs it in NS
run() {
	local n=$1

	shift
	echo "    $*"
	in_ns "$n" "$@"
}

setup_bridge() {
	run "$1" ip link add name bvr-br0 type bridge &&
		run "$1" ip link set "$2" master bvr-br0 &&
		run "$1" ip link set "$3" master bvr-br0 &&
		run "$1" ip link set bvr-br0 up
}
teardown_bridge() {
	in_ns "$1" ip link del bvr-br0 2>/dev/null
}

setup_mirred() {
	run "$1" tc qdisc add dev "$2" clsact &&
		run "$1" tc filter add dev "$2" ingress prio "$PRIO" u32 \
			match u32 0 0 action mirred egress redirect dev "$3"
}
teardown_mirred() {
	in_ns "$1" tc qdisc del dev "$2" clsact 2>/dev/null
}

setup_redirect() {
	run "$1" tc qdisc add dev "$2" clsact &&
		run "$1" tc filter add dev "$2" ingress prio "$PRIO" bpf da \
			obj "$OBJ" sec redirect_xmit &&
		{ echo "    bpfwd port add dev $2 to $3 hook none"
		  bp "$1" port add dev "$2" to "$3" hook none; }
}
teardown_redirect() {
	bp "$1" port del dev "$2" 2>/dev/null
	in_ns "$1" tc qdisc del dev "$2" clsact 2>/dev/null
}

# counter NS OUT / uncounter NS OUT: the egress counter on OUT
counter() {
	in_ns "$1" tc qdisc add dev "$2" clsact 2>/dev/null
	in_ns "$1" tc filter add dev "$2" egress prio "$PRIO" bpf da \
		obj "$OBJ" sec redirect_xmit
}
uncounter() {
	in_ns "$1" tc qdisc del dev "$2" clsact 2>/dev/null
}

# measure NS IN OUT OFFER: for each method, sets it up, runs OFFER (which
# offers traffic for SECS seconds and prints the seconds it took), counts
# and tears down; prints a table with the ratio to the bridge
measure() {
	local n=$1 in=$2 out=$3 offer=$4 m before after secs rate bridge=""

	for m in $METHODS; do
		echo "== $m"
		if ! "setup_$m" "$n" "$in" "$out"; then
			"teardown_$m" "$n" "$in"
			die "$m: setup failed"
		fi
		before=$(passed "$n")
		secs=$($offer)
		after=$(passed "$n")
		"teardown_$m" "$n" "$in"
		rate=$(awk -v c=$((after - before)) -v s="$secs" \
			'BEGIN { printf "%.3f", c / s / 1e6 }')
		[ -z "$bridge" ] && bridge=$rate
		printf '%-9s %s Mpps (%d frames left %s in %s s), %s x bridge\n' \
			"$m" "$rate" $((after - before)) "$out" "$secs" \
			"$(awk -v r="$rate" -v b="$bridge" \
				'BEGIN { if (b > 0) printf "%.2f", r / b; else print "-" }')"
	done
	echo "== bpfwd stats in the dut (the (passed,tc) row counted every method)"
	bp "$n" stats
}

# --- namespace mode ---

offer_gen() {
	bp "$gen" -j gen dev g0 duration "$SECS" cpu 0 | jq .seconds
}

namespaces() {
	local mac

	ns gen dut sink
	veth "$dut" d0 "$gen" g0
	veth "$dut" d1 "$sink" s0
	ip -n "$sink" addr add 192.0.2.2/24 dev s0
	mac=$(ip -n "$sink" -j link show s0 | jq -r '.[0].address')
	ip -n "$gen" addr add 192.0.2.1/24 dev g0
	ip -n "$gen" neigh replace 192.0.2.2 lladdr "$mac" dev g0 nud permanent
	# bpfwd gen sends XDP frames: the receiving veth needs NAPI (GRO);
	# threaded, the dut's work runs apart from the generator's CPU
	in_ns "$dut" ethtool -K d0 gro on >/dev/null
	in_ns "$dut" unshare -m sh -c \
		'mount -t sysfs none /sys && echo 1 > /sys/class/net/d0/threaded' ||
		echo "(no threaded NAPI: the dut shares the generator's CPU)"
	# br_netfilter (built in, or loaded by Docker) sends every bridged
	# frame through netfilter while bridge-nf-call-* are 1, their value
	# in a new namespace: the bridge at its own speed has them off
	[ -d /proc/sys/net/bridge ] &&
		run "$dut" sysctl -qw net.bridge.bridge-nf-call-iptables=0 \
			net.bridge.bridge-nf-call-ip6tables=0 \
			net.bridge.bridge-nf-call-arptables=0
	counter "$dut" d1 || die "stock tc could not load $OBJ at d1 egress"
	echo "gen g0 -> d0 [dut] d1 -> s0 sink; 64-byte UDP for $SECS s per method"
	measure "$dut" d0 d1 offer_gen
	uncounter "$dut" d1
}

# --- device mode ---

offer_wait() {
	sleep "$SECS"
	echo "$SECS"
}

real_devices() {
	[ $# = 2 ] || die "usage: $0 [IN OUT]"
	[ "$1" != "$2" ] || die "IN and OUT must differ"
	local d

	for d in "$1" "$2"; do
		ip link show dev "$d" >/dev/null 2>&1 || die "$d: no such device"
		! tc qdisc show dev "$d" | grep -q clsact ||
			die "$d already has a clsact qdisc: not touching it"
	done
	on_dev_exit() {
		teardown_redirect "" "$1"
		teardown_mirred "" "$1"
		teardown_bridge ""
		uncounter "" "$2"
	}
	trap "on_dev_exit $1 $2; ex_cleanup" EXIT
	[ "$(cat /proc/sys/net/bridge/bridge-nf-call-iptables 2>/dev/null)" = 1 ] &&
		echo "(net.bridge.bridge-nf-call-iptables is 1 here: the bridge row passes every frame through netfilter; left as it is)"
	counter "" "$2" || die "stock tc could not load $OBJ at $2 egress"
	echo "$1 -> $2: offer traffic into $1 now; $SECS s per method"
	measure "" "$1" "$2" offer_wait
}

stock_main "$@"
