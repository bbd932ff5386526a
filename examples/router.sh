#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# A routing fast path on a Linux router.  The kernel keeps its routes,
# neighbours and ICMP; bpfwd forwards, by bpf_fib_lookup(), what the
# kernel would forward unchanged apart from the hop, and passes the rest
# to the kernel, counted by reason:
#
#   bpfwd route add dev eth0 dev eth1 [hook tc|tcx|xdp]
#   bpfwd route show              forwarded, and passed by reason
#   bpfwd route del dev eth0 dev eth1
#
# Run it:
#   examples/router.sh               builds h1 -- r -- h2 namespaces
#                                    (10.1.0.0/24 and 10.2.0.0/24), puts
#                                    the fast path on r, pings and sends
#                                    UDP through it, lets a TTL expire
#                                    (the kernel answers), prints the
#                                    counters, removes everything
#   examples/router.sh DEV DEV...    puts the fast path on these devices
#                                    of this host and leaves it
#   examples/router.sh -d DEV...     removes it
# Environment: BPFWD (default: ../build/bpfwd next to this script, then
# $PATH), HOOK=tc|tcx|xdp (default: bpfwd's), XDP_MODE=generic, FORCE=1
# to go on past netfilter rules that the fast path would bypass.
# Needs root, iproute2, ethtool, jq; bpfwd's example-lib.sh next to this script.
source "$(dirname "${BASH_SOURCE[0]}")/example-lib.sh"

N=100		# UDP datagrams through the router

# route_args DEV...: "dev DEV ..." and the options the environment asks
route_args() {
	local d

	for d in "$@"; do printf 'dev %s ' "$d"; done
	printf '%s' "${HOOK:+hook $HOOK }${XDP_MODE:+xdp-mode $XDP_MODE }${FORCE:+force}"
}

real_devices() {
	if [ "$1" = -d ]; then
		shift
		[ $# -gt 0 ] || die "usage: $0 -d DEV..."
		show "" route del $(route_args "$@" | sed 's/hook.*//')
		return
	fi
	show "" route add $(route_args "$@") || exit 1
	show "" route show
}

namespaces() {
	ns h1 r h2
	# bpfwd's state goes before the namespaces do
	trap 'rc=$?; bp "$r" route del dev r0 dev r1 2>/dev/null; ex_cleanup $rc' EXIT
	veth "$r" r0 "$h1" e0
	veth "$r" r1 "$h2" e0
	# XDP: frames sent to a veth need GRO (or XDP) on its peer, a
	# checksum left to offload would be lost on the way, and a VLAN tag
	# the peer inserts on transmit would be out of XDP's sight (route
	# add hook xdp refuses that)
	for n in "$h1" "$h2"; do
		in_ns "$n" ethtool -K e0 gro on tx off txvlan off \
			tx-vlan-stag-hw-insert off >/dev/null
	done
	for d in r0 r1; do in_ns "$r" ethtool -K "$d" tx off >/dev/null; done
	ip -n "$h1" addr add 10.1.0.1/24 dev e0
	ip -n "$h2" addr add 10.2.0.2/24 dev e0
	ip -n "$r" addr add 10.1.0.254/24 dev r0
	ip -n "$r" addr add 10.2.0.254/24 dev r1
	ip -n "$h1" route add default via 10.1.0.254
	ip -n "$h2" route add default via 10.2.0.254
	in_ns "$r" sysctl -qw net.ipv4.ip_forward=1

	show "$r" route add $(route_args r0 r1) || exit 1
	ping_from "$h1" 10.2.0.2 || exit 1
	echo "h2 received $(udp_through "$h1" 10.2.0.2 $N "$h2") of $N UDP datagrams sent to 10.2.0.2"
	echo "# ping -c 1 -t 1 10.2.0.2    (TTL 1: the kernel answers, not bpfwd)"
	in_ns "$h1" ping -c 1 -t 1 -W 1 10.2.0.2 | grep 'Time to live exceeded'
	show "$r" route show
	show "$r" route del dev r0 dev r1
}

find_tools
ex_traps
if [ $# -gt 0 ]; then
	real_devices "$@"
else
	namespaces
fi
