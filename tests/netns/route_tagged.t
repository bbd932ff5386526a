#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# VLAN-tagged frames that the router has no VLAN for, against the
# kernel, without 8021q: h2 tags everything it sends with VLAN 5 in the
# skb (tests/netns/vlan_push.bpf.c on e0's egress), as a sender with
# tx-vlan-offload does, so the tag reaches r1 out of the frame.  r has
# no VLAN 5: the kernel drops h2's echo replies, and h1's pings go
# unanswered.  With tc and tcx the fast path forwards the requests and
# passes the tagged replies to the kernel (not_ip), which drops them as
# before.  XDP cannot see such a tag and forwards the replies as
# untagged (bpfwd-route.8): skipped with that reason until it can.
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/route_lib.sh"
need_bpfwd
OBJ=$BUILD/tests/bpf/vlan_push.o
[ -f "$OBJ" ] || skip_all "$OBJ missing (make check builds it)"

route_topo || die "topology"
in_ns "$h2" tc qdisc add dev e0 clsact &&
	in_ns "$h2" tc filter add dev e0 egress bpf da obj "$OBJ" sec tc ||
	die "h2: vlan_push on e0 egress"
N=3

# unanswered MODE FAMILY DST: N pings from h1 to DST get no reply; KFWD
# is what the kernel forwarded meanwhile
unanswered() {
	local f0 out

	f0=$(fwd_count "$r")
	out=$(in_ns "$h1" ping -"$2" -c $N -i 0.2 -W 1 "$3" 2>&1)
	like "$out" " 0 (packets )?received" "$1: h2's tagged replies to $3 do not reach h1"
	KFWD=$(($(fwd_count "$r") - f0))
}

unanswered kernel 4 10.2.0.2
is "$KFWD" $N "kernel: r forwarded the IPv4 requests, not the tagged replies"
unanswered kernel 6 fd02::2
is "$KFWD" $N "kernel: r forwarded the IPv6 requests, not the tagged replies"

HOOKS=tc
has_tcx && HOOKS="tc tcx"
for hook in $HOOKS; do
	bpfwd_ns "$r" route add dev r0 dev r1 hook "$hook"
	is "$?" 0 "$hook: route add dev r0 dev r1"
	unanswered "$hook" 4 10.2.0.2
	is "$KFWD" 0 "$hook: the kernel forwarded no IPv4"
	unanswered "$hook" 6 fd02::2
	is "$KFWD" 0 "$hook: the kernel forwarded no IPv6"
	is "$(route_stat "$r" r0 forwarded)" $((2 * N)) "$hook: r0 forwarded the requests"
	is "$(route_stat "$r" r1 passed.not_ip)" $((2 * N)) \
		"$hook: r1 passed the tagged replies to the kernel as not_ip"
	is "$(route_stat "$r" r1 forwarded)" 0 "$hook: r1 forwarded none of them"
	bpfwd_ns "$r" route del dev r0 dev r1
done
skip "xdp, xdp-generic: XDP does not see a VLAN tag kept out of the frame and forwards these replies (bpfwd-route.8)"

done_testing
