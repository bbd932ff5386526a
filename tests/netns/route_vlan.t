#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd route with a VLAN sub-interface as egress: r1.5 (VLAN 5 on r1)
# in r, e0.5 in h2 (tests/route_lib.sh's topology, static neighbours
# on the VLAN too).  h1 pings h2's 10.5.0.2 and fd05::2, first with the
# kernel alone, then through the fast path on every hook: the requests
# leave r tagged, with h2's MAC (h2's stack takes them on e0.5 and
# answers), r0 counts them as forwarded (tc, tcx, generic XDP) or, for
# native XDP, which cannot send to a VLAN device, as passed no_devmap,
# and the kernel forwards exactly what the fast path did not.  h2
# answers through the VLAN too: the tagged replies pass on r1 as not_ip
# and the kernel forwards them, on every hook (XDP sees the tag because the topology's veths send it inside the frame
# (route_lib.sh turns their tx VLAN insertion off; with it on, route
# add hook xdp refuses r1: route_tagged.t).  Needs 8021q, which this
# host's kernel may lack (skipped then); the VM lane's Debian kernels
# have it (tests/vm/55-route-vlan.sh runs this file there).
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/route_lib.sh"
need_bpfwd

route_topo || die "topology"
ip -n "$r" link add link r1 name r1.5 type vlan id 5 2>/dev/null ||
	skip_all "VLAN sub-interfaces as egress: this kernel has no 8021q (the VM lane's Debian kernels have it)"
ip -n "$h2" link add link e0 name e0.5 type vlan id 5 || die "h2: e0.5"
addr "$r" r1.5 10.5.0.254/24 fd05::fe/64
addr "$h2" e0.5 10.5.0.2/24 fd05::2/64
ip -n "$r" link set r1.5 up
ip -n "$h2" link set e0.5 up
static_neigh "$r" r1.5 10.5.0.2 fd05::2 "$(mac_of "$h2" e0.5)"
static_neigh "$h2" e0.5 10.5.0.254 fd05::fe "$(mac_of "$r" r1.5)"

HOOKS="tc xdp xdp-generic"
has_tcx && HOOKS="tc tcx xdp xdp-generic"
HOOKS=${ROUTE_HOOKS:-$HOOKS}
N=3

# h2 answers h1 through the VLAN: tagged replies
ip -n "$h2" route replace 10.1.0.0/24 via 10.5.0.254 dev e0.5 || die "h2: route"
ip -n "$h2" -6 route replace fd01::/64 via fd05::fe dev e0.5 || die "h2: route"

# pings FAMILY DST DESC: N echo requests from h1 to DST, all answered
# (iputils says "3 received", busybox "3 packets received")
pings() {
	local out

	out=$(in_ns "$h1" ping -"$1" -c $N -i 0.2 -W 2 "$2" 2>&1)
	like "$out" "$N (packets )?received" "$3"
}

# both DESC: h1 pings h2 over IPv4 and IPv6 through r1.5; KFWD is what
# the kernel forwarded meanwhile
both() {
	local f0

	f0=$(fwd_count "$r")
	pings 4 10.5.0.2 "$1: h1 reaches 10.5.0.2 behind r1.5"
	pings 6 fd05::2 "$1: h1 reaches fd05::2 behind r1.5"
	KFWD=$(($(fwd_count "$r") - f0))
}

# rstat DEV KEY: route_stat in r, 0 before the first frame
rstat() {
	local v

	v=$(route_stat "$r" "$1" "$2")
	echo "${v:-0}"
}

both kernel
is "$KFWD" $((4 * N)) "kernel: r forwarded the requests and the tagged replies"

for hook in $HOOKS; do
	case $hook in
	xdp-generic) args="hook xdp xdp-mode generic" ;;
	*) args="hook $hook" ;;
	esac
	bpfwd_ns "$r" route add dev r0 dev r1 $args
	is "$?" 0 "$hook: route add dev r0 dev r1"
	both "$hook"
	case $hook in
	xdp)
		is "$(rstat r0 passed.no_devmap)" $((2 * N)) \
			"xdp: r1.5 is not in the devmap: every request passed as no_devmap"
		is "$(rstat r1 passed.not_ip)" $((2 * N)) \
			"xdp: the tagged replies on r1 passed as not_ip"
		is "$(rstat r1 forwarded)" 0 "xdp: r1 forwarded none of them"
		is "$KFWD" $((4 * N)) "xdp: the kernel forwarded the requests and the tagged replies" ;;
	*)
		is "$(rstat r0 forwarded)" $((2 * N)) \
			"$hook: r0 forwarded every request to r1.5"
		is "$(rstat r1 passed.not_ip)" $((2 * N)) \
			"$hook: the tagged replies on r1 passed as not_ip"
		is "$(rstat r1 forwarded)" 0 "$hook: r1 forwarded none of them"
		is "$KFWD" $((2 * N)) "$hook: the kernel forwarded the tagged replies" ;;
	esac
	bpfwd_ns "$r" route del dev r0 dev r1
	is "$?" 0 "$hook: route del"
done

done_testing
