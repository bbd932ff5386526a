#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# VLAN-tagged frames that the router has no VLAN for, against the
# kernel, without 8021q: h2 tags everything it sends with VLAN 5 in the
# skb (tests/netns/vlan_push.bpf.c on e0's egress).  With e0's txvlan
# on (the veth default) the tag reaches r1 out of the frame, as from a
# sender with tx-vlan-offload; with txvlan off e0 writes it into the
# frame.  r has no VLAN 5: the kernel drops h2's echo replies and port
# unreachable errors, and h1 gets no answer.  In both cases, tc and tcx
# forward the requests and pass the tagged answers to the kernel
# (not_ip), which drops them as before.  XDP cannot see a tag out of the
# frame: with txvlan on, route add hook xdp refuses r1, saying why and
# the fix, and attaches nothing (nor to r0, which it checked first), and
# adding r1 again after its peer turned txvlan on is refused too (the
# programs stay until route del).  With txvlan off, XDP sees the tag
# and passes the answers as not_ip.  In each row, UDP datagrams and echo
# requests of fixed bytes, and h2's answers, must reach h2 and h1
# exactly as with the kernel alone.
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/route_lib.sh"
need_bpfwd
command -v python3 >/dev/null || skip_all "python3 missing"
command -v ethtool >/dev/null || skip_all "ethtool missing"
OBJ=$BUILD/tests/bpf/vlan_push.o
[ -f "$OBJ" ] || skip_all "$OBJ missing (make check builds it)"

route_topo || die "topology"
in_ns "$h2" tc qdisc add dev e0 clsact &&
	in_ns "$h2" tc filter add dev e0 egress bpf da obj "$OBJ" sec tc ||
	die "h2: vlan_push on e0 egress"
R0MAC=$(mac_of "$r" r0)
D=$TMPDIR_T
N=3
REFUSED="bpfwd: route add r1: VLAN tags reach it outside the frame (its veth peer e0 inserts them on transmit), where XDP does not see them: tagged frames would be routed as untagged; turn that off (ethtool -K e0 txvlan off tx-vlan-stag-hw-insert off in its namespace) or use hook tc"

# txvlan on|off: whether h2's e0 inserts its VLAN tags on transmit
# (out of the frame) or writes them into the frame
txvlan() {
	in_ns "$h2" ethtool -K e0 txvlan "$1" tx-vlan-stag-hw-insert "$1" \
		>/dev/null || die "h2: txvlan $1"
}

# unanswered MODE FAMILY DST: N pings from h1 to DST get no reply; KFWD
# is what the kernel forwarded meanwhile
unanswered() {
	local f0 out

	f0=$(fwd_count "$r")
	out=$(in_ns "$h1" ping -"$2" -c $N -i 0.2 -W 1 "$3" 2>&1)
	like "$out" " 0 (packets )?received" "$1: h2's tagged replies to $3 do not reach h1"
	KFWD=$(($(fwd_count "$r") - f0))
}

# fixed_run MODE: per family, N UDP datagrams to h2's port 9 and N echo
# requests to h2, from h1 with fixed bytes (route_frames.py flows, echo);
# what arrives at h1 and h2 in $D/MODE.h1, .h2
fixed_run() {
	local dst

	cap_start "$h1" "$D/$1.h1" && cap_start "$h2" "$D/$1.h2" ||
		{ not_ok "$1: captures start"; return 1; }
	for dst in 10.2.0.2 fd02::2; do
		frames "$h1" flows e0 "$R0MAC" "$dst" $N
		frames "$h1" echo e0 "$R0MAC" "$dst" $N
	done
	cap_stop
	sort -o "$D/$1.h1" "$D/$1.h1"
	sort -o "$D/$1.h2" "$D/$1.h2"
}

# args HOOK: route add's words for tc, tcx, xdp, xdp-generic
args() {
	case $1 in
	xdp-generic) echo hook xdp xdp-mode generic ;;
	*) echo hook "$1" ;;
	esac
}

# kernel TX: the kernel alone, h2's txvlan TX; the reference of the rows
kernel() {
	unanswered "kernel, txvlan $1" 4 10.2.0.2
	is "$KFWD" $N "kernel, txvlan $1: r forwarded the IPv4 requests, not the tagged replies"
	unanswered "kernel, txvlan $1" 6 fd02::2
	is "$KFWD" $N "kernel, txvlan $1: r forwarded the IPv6 requests, not the tagged replies"
	fixed_run "kernel-$1"
	is "$(wc -l <"$D/kernel-$1.h2")" $((4 * N)) \
		"kernel, txvlan $1: h2 receives the datagrams and echo requests"
	is "$(wc -l <"$D/kernel-$1.h1")" 0 \
		"kernel, txvlan $1: h2's tagged answers (port unreachable, echo replies) do not reach h1"
}

# row HOOK TX: the fast path on r0 and r1 with HOOK, h2's txvlan TX
row() {
	local hook=$1 n="$1, txvlan $2"

	bpfwd_ns "$r" route add dev r0 dev r1 $(args "$hook")
	is "$?" 0 "$n: route add dev r0 dev r1"
	unanswered "$n" 4 10.2.0.2
	is "$KFWD" 0 "$n: the kernel forwarded no IPv4"
	unanswered "$n" 6 fd02::2
	is "$KFWD" 0 "$n: the kernel forwarded no IPv6"
	fixed_run "$hook-$2"
	same "$D/kernel-$2.h2" "$D/$hook-$2.h2" "$n: h2 receives what the kernel delivers"
	same "$D/kernel-$2.h1" "$D/$hook-$2.h1" "$n: h1 receives what the kernel delivers"
	is "$(route_stat "$r" r0 forwarded)" $((6 * N)) \
		"$n: r0 forwarded the pings, datagrams and echo requests"
	is "$(route_stat "$r" r1 passed.not_ip)" $((6 * N)) \
		"$n: r1 passed the tagged replies and errors to the kernel as not_ip"
	is "$(route_stat "$r" r1 forwarded)" 0 "$n: r1 forwarded none of them"
	bpfwd_ns "$r" route del dev r0 dev r1
}

# refused HOOK: route add dev r0 dev r1 with HOOK (XDP) while h2's e0
# inserts tags: refused for r1, nothing attached
refused() {
	local out

	out=$(bpfwd_ns "$r" route add dev r0 dev r1 $(args "$1") 2>&1)
	is "$?" 1 "$1, txvlan on: route add dev r0 dev r1 exits 1"
	is "$out" "$REFUSED" "$1, txvlan on: says that r1's peer inserts the tags, and the fix"
	is "$(ip -n "$r" link show | grep -c xdp)" 0 \
		"$1, txvlan on: no XDP program on r's devices, r0's neither"
	is "$(bpfwd_ns "$r" -j route show | jq length)" 0 \
		"$1, txvlan on: no route device"
}

HOOKS=tc
has_tcx && HOOKS="tc tcx"

txvlan on
kernel on
for hook in $HOOKS; do row "$hook" on; done
refused xdp
refused xdp-generic

txvlan off
kernel off
for hook in $HOOKS xdp xdp-generic; do row "$hook" off; done

# added while its peer wrote the tags into the frame, then the peer
# turned txvlan on: adding it again is refused the same way
bpfwd_ns "$r" route add dev r0 dev r1 hook xdp
is "$?" 0 "xdp, txvlan off: route add dev r0 dev r1"
txvlan on
out=$(bpfwd_ns "$r" route add dev r0 dev r1 hook xdp 2>&1)
is "$?" 1 "xdp, txvlan turned on: route add again exits 1"
is "$out" "$REFUSED" "xdp, txvlan turned on: route add again says why"
is "$(xdp_prog_on "$r" r0),$(xdp_prog_on "$r" r1)" route_xdp,route_xdp \
	"xdp, txvlan turned on: refused, nothing changed: the programs stay until route del"
txvlan off
bpfwd_ns "$r" route del dev r0 dev r1

done_testing
