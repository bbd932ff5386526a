#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Spread a port's receive work over CPUs with an XDP cpumap.  XDP on the
# port picks one of the listed CPUs per flow (a hash of addresses and
# ports, so a flow stays in order) and queues the raw frame there; that
# CPU's cpumap kthread builds the skbs, in bulk, and either hands them
# to the stack on that CPU (then pass) or sends them on out of OUT:
#
#   bpfwd port add dev eth0 hook xdp cpus 2-3 then pass
#   bpfwd port add dev eth0 hook xdp cpus 2-3 to eth1 [qsize 2048]
#   bpfwd stats dev eth0          per CPU: what the cpumap program did
#                                 and the kthread's processed/drops/sched
#
# This is what a NIC with one receive queue (or a veth) needs to use more
# than one CPU for the stack: without it one CPU does all the work.
#
# Run it:
#   examples/xdp-cpumap.sh              builds gen - dut - sink namespaces;
#                                       the dut's d0 spreads over every CPU,
#                                       first on to d1 (the sink counts the
#                                       datagrams), then to the dut's own
#                                       stack; prints bpfwd stats with the
#                                       per-CPU figures each time, removes
#                                       everything
#   examples/xdp-cpumap.sh IN CPUS [OUT]
#                                       adds the port on this host (then
#                                       pass without OUT) and leaves it
#   examples/xdp-cpumap.sh -d IN        removes it
# Environment: BPFWD (default: ../build/bpfwd next to this script, then
# $PATH), XDP_MODE=generic for a device without native XDP, QSIZE.
# Needs root, iproute2, ethtool, jq; bpfwd's example-lib.sh next to this script.
source "$(dirname "${BASH_SOURCE[0]}")/example-lib.sh"

N=200		# UDP datagrams per run, each from its own source port

# spread NS IN CPUS [OUT]: the port, with the options the environment asks
spread() {
	local n=$1 in=$2 cpus=$3 out=$4

	show "$n" port add dev "$in" hook xdp cpus "$cpus" \
		${QSIZE:+qsize "$QSIZE"} ${XDP_MODE:+xdp-mode "$XDP_MODE"} \
		$([ -n "$out" ] && echo to "$out" || echo then pass)
}

# per_cpu NS DEV: one line per CPU that did work for the port
per_cpu() {
	bp "$1" -j stats dev "$2" | jq -r '.[0].cpumap[] |
		"  cpu\(.cpu): \(.packets) frames, \(.passed) passed, \(.redirected) sent on; kthread processed \(.kthread.processed // "-") drops \(.kthread.drops // "-") sched \(.kthread.sched // "-")"'
}

namespace_mode() {
	local last=$(($(nproc) - 1)) got busy

	ns gen dut sink
	veth "$gen" g0 "$dut" d0
	veth "$dut" d1 "$sink" s0
	in_ns "$gen" ip addr add 192.0.2.1/24 dev g0
	in_ns "$sink" ip addr add 192.0.2.2/24 dev s0
	in_ns "$dut" ip addr add 192.0.2.3/24 dev d0
	# XDP frames into a veth need NAPI at the receiving end (GRO on);
	# partial checksums do not survive an XDP frame: checksum in full;
	# VLAN tags inside the frame (native XDP loses one outside)
	in_ns "$sink" ethtool -K s0 gro on >/dev/null
	in_ns "$gen" ethtool -K g0 tx off txvlan off tx-vlan-stag-hw-insert off >/dev/null
	in_ns "$gen" ip neigh replace 192.0.2.2 dev g0 nud permanent \
		lladdr "$(ip -n "$sink" -j link show s0 2>/dev/null | jq -r '.[0].address')"
	in_ns "$gen" ip neigh replace 192.0.2.3 dev g0 nud permanent \
		lladdr "$(ip -n "$dut" -j link show d0 2>/dev/null | jq -r '.[0].address')"
	in_ns "$sink" ip route add blackhole 192.0.2.1/32

	echo "== d0 spreads over CPUs 0-$last, then on to d1"
	spread "$dut" d0 "0-$last" d1 || return 1
	got=$(udp_through "$gen" 192.0.2.2 $N "$sink")
	echo "sink received $got of $N datagrams"
	show "$dut" port show dev d0
	show "$dut" stats dev d0
	echo "per CPU:"
	per_cpu "$dut" d0
	busy=$(bp "$dut" -j stats dev d0 | jq '[.[0].cpumap[] | select(.packets > 0)] | length')
	echo "$busy CPUs did work for d0"
	[ "$got" = "$N" ] || return 1
	bp "$dut" port del dev d0 || return 1

	echo "== d0 spreads over CPUs 0-$last, then to the dut's stack"
	spread "$dut" d0 "0-$last" || return 1
	got=$(udp_through "$gen" 192.0.2.3 $N "$dut")
	echo "the dut's stack received $got of $N datagrams"
	echo "per CPU:"
	per_cpu "$dut" d0
	[ "$got" -ge "$N" ] || return 1
	bp "$dut" port del dev d0
}

case "${1:-}" in
-h | --help)
	sed -n '4,/^# Needs/p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
-d)
	find_tools
	[ -n "${2:-}" ] || die "usage: $0 -d IN"
	bp "" port del dev "$2"
	exit
	;;
"")
	find_tools
	ex_traps
	namespace_mode
	exit
	;;
*)
	find_tools
	[ -n "${2:-}" ] || die "usage: $0 IN CPUS [OUT] (or no argument: namespace mode)"
	spread "" "$1" "$2" "${3:-}"
	exit
	;;
esac
