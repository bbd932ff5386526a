#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd route on bad input: one clear line, exit 2 for usage and 1 for
# a failure, and nothing left behind (filters, XDP and tcx programs,
# pins, route devices, netfilter as it was).  Cases: unknown device,
# missing or repeated words, xdp-mode without hook xdp, a device that
# carries someone else's program (tc filter, tcx, XDP), hook xdp on a
# veth whose peer's namespace cannot be found (VLAN tags unknown; see
# tests/netns/route_tagged.t for the rest), a device already on the fast
# path with another hook, del of a device that is not on
# it, netfilter that the fast path would bypass (refused, or a warning
# with force); forwarding off is a warning, and the frames then go to
# the stack, counted as fwd_disabled.
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/route_lib.sh"
need_bpfwd

OUT=$TMPDIR_T/out
ERR=$TMPDIR_T/err
FOREIGN=$BUILD/tests/test_xdp

route_topo || { not_ok "topology"; done_testing; }

snapshot() {
	local dev dir

	for dev in r0 r1 r2; do
		in_ns "$r" tc qdisc show dev "$dev"
		for dir in ingress egress; do
			in_ns "$r" tc filter show dev "$dev" "$dir"
		done
		ip -n "$r" -d -j link show "$dev" | jq -c '.[0].xdp'
	done
	in_ns "$r" bpftool net show 2>/dev/null | grep -v '^$'
	find /sys/fs/bpf | sort
	bpfwd_ns "$r" -j route show
	command -v nft >/dev/null && in_ns "$r" nft list ruleset
} 2>&1

# bad RC REGEX DESC ARGS...: bpfwd -n r ARGS exits RC with one line on
# stderr matching REGEX, and changes nothing
bad() {
	local rc=$1 re=$2 desc=$3

	shift 3
	mark
	bpfwd_ns "$r" "$@" >"$OUT" 2>"$ERR"
	is "$?" "$rc" "$desc: exit $rc"
	is "$(wc -l <"$ERR")" 1 "$desc: one line"
	like "$(cat "$ERR")" "$re" "$desc: says why"
	unchanged "$desc"
}

bad 1 '^bpfwd: route add nosuch0: no such device$' "unknown device" \
	route add dev nosuch0
bad 1 'nosuch0: no such device' "a known and an unknown device" \
	route add dev r0 dev nosuch0
bad 2 'missing "dev DEV"' "no device" route add hook tc
bad 2 'unknown hook "frob"' "unknown hook" route add dev r0 hook frob
bad 2 'dev r0: given twice' "a device twice" route add dev r0 dev r0
bad 2 'xdp-mode applies to hook xdp only' "xdp-mode without hook xdp" \
	route add dev r0 xdp-mode generic
bad 2 'unknown argument "frob"' "unknown word" route add dev r0 frob
bad 1 'r0: not a route device' "del of a device not on the fast path" \
	route del dev r0
bad 2 'missing "dev DEV"' "del without a device" route del

# JSON mode: the error is a JSON object on stdout
mark
bpfwd_ns "$r" -j route add dev nosuch0 >"$OUT" 2>"$ERR"
is "$?" 1 "-j unknown device: exit 1"
like "$(jq -r .error <"$OUT" 2>/dev/null)" 'nosuch0: no such device' \
	"-j unknown device: a JSON error"
unchanged "-j unknown device"

# someone else's tc filter on r1: the whole command fails, r0 included
in_ns "$r" tc qdisc add dev r1 clsact
in_ns "$r" tc filter add dev r1 ingress prio 7 bpf da \
	obj "$BUILD/bpf/redirect.o" sec redirect_xmit 2>/dev/null
if in_ns "$r" tc filter show dev r1 ingress | grep -q 'pref 7 bpf'; then
	bad 1 'r1: ingress already has a tc filter \(bpf .* prio 7\)' \
		"someone else's tc filter" route add dev r0 dev r1 hook tc
else
	skip "stock tc could not load redirect.o: no foreign tc filter"
fi
in_ns "$r" tc qdisc del dev r1 clsact

# someone else's tcx program: a bpfwd port on r2
if bpfwd_ns "$r" port add dev r2 to r1 hook tcx 2>/dev/null; then
	bad 1 'r2: tcx ingress already runs 1 program' "someone else's tcx program" \
		route add dev r2 hook tcx
	bpfwd_ns "$r" port del dev r2
else
	skip "no tcx here: no foreign tcx program"
fi

# someone else's XDP program
if [ -x "$FOREIGN" ] && in_ns "$r" "$FOREIGN" foreign r1 2>/dev/null; then
	bad 1 'r1: already has an XDP program .*\(foreign, id [0-9]+, xdp\)' \
		"someone else's XDP program" route add dev r1 hook xdp
	ip -n "$r" link set dev r1 xdp off
else
	skip "$FOREIGN missing (make check builds it): no foreign XDP program"
fi

bad 1 'r0: not a route device' "show of a device not on the fast path" \
	route show dev r0

# a veth whose peer is in a namespace bpfwd cannot find (a bind mount
# outside /run/netns holds it): hook xdp cannot tell whether VLAN tags
# reach it outside the frame, and refuses
hid=bpfwd-hid-$SUFFIX
if ip netns add "$hid" && touch "$TMPDIR_T/hid" &&
	mount --bind "/run/netns/$hid" "$TMPDIR_T/hid"; then
	on_exit "umount $TMPDIR_T/hid"
	ip -n "$r" link add u0 type veth peer u1 netns "$hid"
	ip netns del "$hid"
	bad 1 '^bpfwd: route add u0: cannot tell whether VLAN tags reach it outside the frame, where XDP does not see them: its veth peer is in a namespace bpfwd cannot find .*; name it \(ip netns attach NAME PID\) or use hook tc$' \
		"a veth peer's namespace not found" route add dev u0 hook xdp
	ip -n "$r" link del u0
else
	not_ok "a namespace held by a bind mount only"
fi

# a device already on the fast path with another hook; del and show of
# one device on it and one not: nothing removed
bpfwd_ns "$r" route add dev r0 hook tc
bad 1 'r0: already on the route fast path with hook tc; route del dev r0 first' \
	"another hook" route add dev r0 hook xdp
bad 1 '^bpfwd: route del r1: not a route device$' "del of r0 (on) and r1 (not)" \
	route del dev r0 dev r1
bad 1 'r1: not a route device' "show of r0 (on) and r1 (not)" \
	route show dev r0 dev r1
bpfwd_ns "$r" route del dev r0

# netfilter that the fast path would bypass
if command -v nft >/dev/null; then
	in_ns "$r" nft add table inet t
	in_ns "$r" nft add chain inet t f1 '{ type filter hook forward priority 0; }'
	bad 1 'netfilter in use here \(nftables chain inet t f1 \(hook forward\)\).*add force' \
		"nftables forward chain" route add dev r0 hook tc
	in_ns "$r" nft add table ip n
	in_ns "$r" nft add chain ip n p1 '{ type nat hook postrouting priority 100; }'
	bad 1 'nftables chain ip n p1 \(type nat\)' "nftables nat chain" \
		route add dev r0 hook tc
	bpfwd_ns "$r" route add dev r0 hook tc force >"$OUT" 2>"$ERR"
	is "$?" 0 "netfilter with force: exit 0"
	like "$(cat "$ERR")" 'warning.*netfilter in use here .*bypasses the FORWARD hooks, conntrack and NAT|netfilter in use here .*bypasses' \
		"netfilter with force: a warning"
	is "$(bpfwd_ns "$r" -j route show | jq -r '.[].dev')" r0 "netfilter with force: r0 added"
	bpfwd_ns "$r" route del dev r0
	in_ns "$r" nft flush ruleset
else
	skip "nft missing (nftables): netfilter detection not checked"
fi

# forwarding off: a warning; the frames go to the stack
in_ns "$r" sysctl -qw net.ipv4.conf.r0.forwarding=0
bpfwd_ns "$r" route add dev r0 hook tc >"$OUT" 2>"$ERR"
is "$?" 0 "forwarding off: exit 0"
like "$(grep -c 'IPv4 forwarding is off' "$ERR")" '^1$' "forwarding off: one warning"
frames "$h1" flows e0 "$(mac_of "$r" r0)" 10.2.0.2 5
ge "$(route_stat "$r" r0 passed.fwd_disabled)" 5 "forwarding off: passed as fwd_disabled"
is "$(route_stat "$r" r0 forwarded)" 0 "forwarding off: nothing forwarded"
bpfwd_ns "$r" route del dev r0
in_ns "$r" sysctl -qw net.ipv4.conf.r0.forwarding=1

# a route device that disappears: show says so, the next command
# removes its entry and its pins (a tcx link outlives its device)
ip -n "$r" link add gone0 type veth peer gone1
ip -n "$r" link set gone0 up
mark
bpfwd_ns "$r" route add dev gone0 2>/dev/null
ip -n "$r" link del gone0
like "$(bpfwd_ns "$r" route show)" "^if[0-9]+ hook .* \(gone\)" "a device gone: show says so"
is "$(bpfwd_ns "$r" -j route show | jq -c '[.[] | [.dev, .attached]]')" "[[null,false]]" \
	"a device gone: -j has a null dev, not attached"
bpfwd_ns "$r" route del dev r0 >/dev/null 2>&1
is "$(bpfwd_ns "$r" -j route show | jq length)" 0 "a device gone: the next command drops its entry"
unchanged "a device gone, then a command"

# the same commands through tc (the plugin), with tc's exit status
if [ -r "$BUILD/e_bpfwd.so" ] && command -v tc >/dev/null; then
	mark
	TC_LIB_DIR=$BUILD in_ns "$r" tc exec bpfwd route add dev nosuch0 2>"$ERR"
	is "$?" 1 "tc exec bpfwd route add dev nosuch0: exit 1"
	like "$(cat "$ERR")" 'nosuch0: no such device' "tc exec: the same message"
	unchanged "tc exec bpfwd route add dev nosuch0"
	TC_LIB_DIR=$BUILD in_ns "$r" tc exec bpfwd route add dev r0 hook tc
	is "$(TC_LIB_DIR=$BUILD in_ns "$r" tc -j exec bpfwd route show | jq -r '.[].dev')" r0 \
		"tc exec bpfwd route add, then tc -j exec bpfwd route show"
	TC_LIB_DIR=$BUILD in_ns "$r" tc exec bpfwd route del dev r0
	is "$?" 0 "tc exec bpfwd route del"
	unchanged "tc exec bpfwd route add and del"
else
	skip "build/e_bpfwd.so or tc missing: tc exec not checked"
fi

is "$(find /sys/fs/bpf/bpfwd -mindepth 1 2>/dev/null)" "" "no route pin left"

done_testing
