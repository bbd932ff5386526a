#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# A cross-connect between two physical ports, as an operator sets it up
# on a real box: every frame that arrives on one port leaves by the
# other, both ways, with bpfwd attaching the programs itself.  Before it
# adds the ports it checks what a NIC needs and a veth does not:
#
#  - the two devices exist, differ, and are no bridge or bond port (a
#    bpfwd port takes every frame before the bridge would see it, STP
#    BPDUs included; bpfwd itself neither refuses nor warns);
#  - promiscuous mode on both: a cross-connect forwards frames for MACs
#    that are not the NIC's, which a NIC otherwise filters out;
#  - LRO off (merged TCP frames cannot leave by another port, and XDP
#    refuses it), and for hook xdp hardware GRO and rx VLAN offload off
#    and an MTU native XDP takes;
#  - for hook xdp: as many XDP TX queues (channels) as CPUs on both, or
#    a native redirect target drops the frames of the CPUs without one;
#  - the same MTU on both, and a carrier (warnings only).
# Then `bpfwd port add` both ways, and `bpfwd port show` and `stats`.
#
# Run it:
#   examples/physical-xconnect.sh eth1 eth2      checks, sets up, leaves it in place
#   examples/physical-xconnect.sh -d eth1 eth2   removes it, promiscuous mode off
#   examples/physical-xconnect.sh                builds gen - dut - sink namespaces,
#                                                runs the above in the dut on two
#                                                veths standing in for the NICs,
#                                                sends counted UDP through and
#                                                removes everything again
# Environment: BPFWD (default: ../build/bpfwd next to this script, then
# the installed one), HOOK (tc, tcx or xdp; default: bpfwd's default),
# N (datagrams of the namespace run, default 100).
# Needs root, iproute2, ethtool, jq; bpfwd's example-lib.sh next to this script.
source "$(dirname "${BASH_SOURCE[0]}")/example-lib.sh"

HOOK=${HOOK:-}
N=${N:-100}

warn() {
	echo "$EX_NAME: warning: $*" >&2
}

# feature DEV NAME: DEV's ethtool feature NAME, "on" or "off" (plus
# " [fixed]" when the driver cannot change it); empty when unknown
feature() {
	ethtool -k "$1" 2>/dev/null | sed -n "s/^$2: //p"
}

# check_dev DEV: refuses a device bpfwd should not take, warns about
# what may cost frames
check_dev() {
	local d=$1 j master lro

	j=$(ip -j -d link show dev "$d" 2>/dev/null) || die "$d: no such device"
	master=$(jq -r '.[0].master // empty' <<<"$j")
	[ -z "$master" ] ||
		die "$d is a port of $master: a bpfwd port would take its frames before $master sees them; detach it first (ip link set $d nomaster)"
	lro=$(feature "$d" large-receive-offload)
	case $lro in
	on*" [fixed]")
		die "$d: LRO is on and cannot be turned off: merged frames cannot be forwarded" ;;
	on*)
		ethtool -K "$d" lro off || die "$d: cannot turn LRO off"
		echo "$d: LRO turned off" ;;
	esac
	[ "$(jq -r '.[0].operstate' <<<"$j")" != DOWN ] ||
		warn "$d has no carrier (or is down): nothing crosses until it has"
	[ "$HOOK" = xdp ] && check_xdp "$d" "$j"
	return 0
}

# check_xdp DEV JSON: what native XDP needs on DEV
check_xdp() {
	local d=$1 j=$2 mtu ch cpus

	case $(feature "$d" rx-gro-hw) in
	on*" [fixed]") die "$d: hardware GRO is on and cannot be turned off: native XDP refuses it" ;;
	on*) ethtool -K "$d" rx-gro-hw off || die "$d: cannot turn hardware GRO off" ;;
	esac
	# a tag the NIC takes out of the frame is lost in a native redirect
	# (bpfwd refuses that); a veth's tags come from its peer's side
	case $(feature "$d" rx-vlan-offload) in
	on*" [fixed]") die "$d: rx VLAN offload is on and cannot be turned off: native XDP would lose the tags" ;;
	on*) [ "$(jq -r '.[0].linkinfo.info_kind // empty' <<<"$j")" = veth ] ||
		ethtool -K "$d" rxvlan off || die "$d: cannot turn rx VLAN offload off" ;;
	esac
	mtu=$(jq -r '.[0].mtu' <<<"$j")
	[ "$mtu" -le 3498 ] ||
		warn "$d: MTU $mtu: native XDP takes at most about 3500 without multi-buffer support"
	# the queues a native XDP target sends on: one per CPU (veth has
	# none of its own: it queues on its peer)
	[ "$(jq -r '.[0].linkinfo.info_kind // empty' <<<"$j")" = veth ] && return 0
	cpus=$(nproc)
	ch=$(ethtool -l "$d" 2>/dev/null |
	     awk '/^Current hardware settings/ { cur = 1 }
		  cur && /^(Combined|TX):/ { n += $2 } END { print n + 0 }')
	[ "$ch" -ge "$cpus" ] ||
		warn "$d: $ch TX/combined channels for $cpus CPUs: as a native XDP redirect target it may drop what CPUs without an XDP TX queue send (ethtool -L $d combined $cpus)"
}

# xconnect A B: both directions, or none
xconnect() {
	local a=$1 b=$2

	"$BPFWD" port add dev "$a" to "$b" ${HOOK:+hook "$HOOK"} || return 1
	if ! "$BPFWD" port add dev "$b" to "$a" ${HOOK:+hook "$HOOK"}; then
		"$BPFWD" port del dev "$a"
		return 1
	fi
}

real_devices() {
	local undo= a b d

	[ "${1:-}" = -d ] && { undo=1; shift; }
	[ $# = 2 ] || die "two devices, e.g. eth1 eth2 (got: $*)"
	a=$1
	b=$2
	[ "$a" != "$b" ] || die "$a: the same device twice"
	if [ -n "$undo" ]; then
		for d in "$a" "$b"; do
			"$BPFWD" port del dev "$d"
			ip link set dev "$d" promisc off
		done
		echo "removed the cross-connect $a <-> $b; promiscuous mode off"
		return 0
	fi
	for d in "$a" "$b"; do
		ip link show dev "$d" >/dev/null 2>&1 || die "$d: no such device"
	done
	check_dev "$a"
	check_dev "$b"
	[ "$(ip -j link show dev "$a" | jq .[0].mtu)" = \
	  "$(ip -j link show dev "$b" | jq .[0].mtu)" ] ||
		warn "$a and $b have different MTUs: frames too big for the other side are dropped"
	for d in "$a" "$b"; do
		ip link set dev "$d" up promisc on ||
			die "$d: cannot turn promiscuous mode on"
	done
	if ! xconnect "$a" "$b"; then
		ip link set dev "$a" promisc off
		ip link set dev "$b" promisc off
		die "setting up failed; nothing was left in place"
	fi
	show "" port show
	show "" stats
	echo "remove with: $0 -d $a $b"
}

# gen -- d0 [dut] d1 -- sink: d0 and d1 stand in for the NICs
namespaces() {
	local got rc=0 h

	ns gen dut sink
	veth "$dut" d0 "$gen" g0
	veth "$dut" d1 "$sink" s0
	ip -n "$gen" addr add 192.0.2.1/24 dev g0
	ip -n "$sink" addr add 192.0.2.2/24 dev s0
	# XDP frames into a veth need NAPI at its peer; gen and sink send
	# full checksums (a partial one does not survive an XDP redirect,
	# and bpfwd refuses an XDP port whose veth peer would send one) and
	# VLAN tags inside the frame (native XDP loses one outside)
	for h in "$gen g0" "$sink s0"; do
		in_ns ${h% *} ethtool -K ${h#* } gro on tx off txvlan off \
			tx-vlan-stag-hw-insert off >/dev/null
	done
	echo "# $EX_NAME d0 d1    (in the dut)"
	in_ns "$dut" env BPFWD="$BPFWD" HOOK="$HOOK" "$0" d0 d1 ||
		die "setting up the cross-connect failed"
	ping_from "$gen" 192.0.2.2 || rc=1
	got=$(udp_through "$gen" 192.0.2.2 "$N" "$sink")
	echo "sink received $got of $N UDP datagrams sent to 192.0.2.2"
	[ "$got" = "$N" ] || rc=1
	show "$dut" stats
	echo "# $EX_NAME -d d0 d1    (in the dut)"
	in_ns "$dut" env BPFWD="$BPFWD" "$0" -d d0 d1 || rc=1
	return $rc
}

find_tools
ex_traps
if [ $# -gt 0 ]; then
	real_devices "$@"
else
	namespaces
fi
