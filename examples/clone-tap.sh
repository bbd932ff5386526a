#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# A monitoring tap: copy every frame a port receives and sends to a
# monitoring port with bpf_clone_redirect(), while the original goes on
# where it was going (here: routed by the box as before).
#
#   tc qdisc add dev eth1 clsact
#   tc filter add dev eth1 ingress prio 10 bpf da obj redirect.o sec mirror_xmit
#   tc filter add dev eth1 egress  prio 10 bpf da obj redirect.o sec mirror_xmit
#   bpfwd port add dev eth1 to mon0 mode mirror hook none
#
# The mirror_* sections clone the frame to the target and return
# TC_ACT_UNSPEC: the next filter (on tcx, the next program) and then the
# stack get the original as if the tap were not there.  (The
# clone_redirect_* sections drop the original, as the 2015 tcbpf1 sample
# did: a one-way pipe, not a tap.)  The port table has one entry per
# device, so a tapped port cannot also be a bpfwd forwarding port; with
# bpfwd alone the same tap is `bpfwd port add dev eth1 to mon0 mode
# mirror` (one direction per port).
#
# Run it:
#   examples/clone-tap.sh               builds gen - dut - sink namespaces
#                                       with the dut routing, taps the dut's
#                                       port d0 to a monitor namespace,
#                                       sends ping and counted UDP, shows
#                                       that the originals still arrive and
#                                       the copies reach the monitor, prints
#                                       bpfwd stats, removes everything
#   examples/clone-tap.sh eth1 mon0 [ingress|egress|both]
#                                       taps eth1 to mon0 on this host
#                                       (default both) and leaves it in place
#   examples/clone-tap.sh -d eth1       removes the tap
# Environment: BPFWD, OBJ (default: ../build/ next to this script, then
# the installed ones), PRIO (tc filter priority, default 10).
# Needs root, iproute2, jq, bpftool; bpfwd's example-lib.sh next to this script.
source "$(dirname "${BASH_SOURCE[0]}")/example-lib.sh"

PRIO=${PRIO:-10}
N=100		# UDP datagrams in the namespace run

# tap NS DEV MON DIRS: copies DEV's traffic in DIRS to MON; on a
# failure, removes what it added (only that) and fails
tap() {
	local n=$1 dev=$2 mon=$3 dir added=()

	for dir in $4; do
		if ! stock_tc "$n" "$dev" "$dir" "$PRIO" mirror_xmit da; then
			untap_filters "$n" "$dev" "${added[@]}"
			return 1
		fi
		added+=("$dir")
	done
	if ! bp "$n" port add dev "$dev" to "$mon" mode mirror hook none; then
		untap_filters "$n" "$dev" "${added[@]}"
		return 1
	fi
}

# untap_filters NS DEV DIR...: removes the tap's filters at DIRs, and the
# clsact qdisc when no filter is left on it
untap_filters() {
	local n=$1 dev=$2 dir

	shift 2
	for dir in "$@"; do
		in_ns "$n" tc filter del dev "$dev" "$dir" prio "$PRIO" 2>/dev/null
	done
	clsact_gc "$n" "$dev"
}

# untap NS DEV: removes the tap's table entry and filters
untap() {
	bp "$1" port del dev "$2" 2>/dev/null
	untap_filters "$1" "$2" ingress egress
}

real_devices() {
	local dirs

	if [ "$1" = -d ]; then
		[ $# = 2 ] || die "usage: $0 -d DEV"
		ip link show dev "$2" >/dev/null 2>&1 || die "$2: no such device"
		untap "" "$2"
		echo "removed the tap on $2"
		return 0
	fi
	[ $# -ge 2 ] && [ $# -le 3 ] || die "usage: $0 DEV MONITOR [ingress|egress|both]"
	case ${3:-both} in
	ingress|egress) dirs=$3 ;;
	both) dirs="ingress egress" ;;
	*) die "direction: ingress, egress or both, not \"$3\"" ;;
	esac
	[ "$1" != "$2" ] || die "the monitor port must be another port"
	ip link show dev "$1" >/dev/null 2>&1 || die "$1: no such device"
	ip link show dev "$2" >/dev/null 2>&1 || die "$2: no such device"
	tap "" "$1" "$2" "$dirs" || die "setting up failed; nothing was left in place"
	show "" port show dev "$1"
	echo "remove with: $0 -d $1"
}

# gen and sink talk through the dut, which routes; d0 is tapped to m0:
#   gen g0 192.0.2.1 -- d0 192.0.2.254 [dut] 198.51.100.254 d1 -- s0 198.51.100.1 sink
#                                       [dut] m0 -- m1 mon
namespaces() {
	local ok=0 got m_before copies

	ns gen dut sink mon
	veth "$dut" d0 "$gen" g0
	veth "$dut" d1 "$sink" s0
	veth "$dut" m0 "$mon" m1
	ip -n "$dut" addr add 192.0.2.254/24 dev d0
	ip -n "$dut" addr add 198.51.100.254/24 dev d1
	in_ns "$dut" sysctl -qw net.ipv4.ip_forward=1
	ip -n "$gen" addr add 192.0.2.1/24 dev g0
	ip -n "$gen" route add default via 192.0.2.254
	ip -n "$sink" addr add 198.51.100.1/24 dev s0
	ip -n "$sink" route add default via 198.51.100.254

	tap "$dut" d0 m0 "ingress egress" || die "tap failed"
	echo "# tc filter show dev d0 ingress    (in the dut)"
	in_ns "$dut" tc filter show dev d0 ingress
	show "$dut" port show

	m_before=$(rx_packets "$mon" m1)
	ping_from "$gen" 198.51.100.1 || ok=1
	got=$(udp_through "$gen" 198.51.100.1 $N "$sink")
	copies=$(($(rx_packets "$mon" m1) - m_before))
	echo "sink received $got of $N UDP datagrams (the originals, routed)"
	echo "monitor m1 received $copies frames (the copies: UDP, ping both ways, ARP)"
	[ "$got" = $N ] || ok=1
	[ "$copies" -ge $((N + 6)) ] || ok=1
	show "$dut" stats dev d0
	return $ok
}

stock_main "$@"
