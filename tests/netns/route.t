#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd route against the kernel's own forwarding, differentially: the
# same scripted frames (tests/netns/route_frames.py suite: UDP of
# several sizes, ICMP echo, TTL / hop limit 1 and 2, too big with DF and
# without, unreachable, prohibit and blackhole routes, no route, the
# router's own address, IPv4 options and an IPv6 destination options
# header, fragments, a bad IPv4 checksum, a padded frame, a frame to
# another MAC, a broadcast, a link-local IPv6 source) go from h1 through
# r, first with the kernel alone, then with the fast path on tc, tcx
# and XDP (native and generic).  What arrives at h2 and what comes back to h1 (the kernel's
# ICMP errors, h2's answers) must be the same frames, byte for byte but
# the IPv4 id and the IPv6 flow label, with valid checksums; r's
# counters must name the reason of every frame the fast path passed,
# and the kernel must have forwarded exactly the frames the fast path
# did not.  Then, per hook: ECMP spreads flows as the kernel does, a
# route replaced, a nexthop deleted and a neighbour's new MAC take
# effect at once under traffic, an unresolved neighbour still gets its
# frames, TCP (iperf3) goes through, and two routers in series work
# (with native XDP also when the egress is not a route device).
# VLAN sub-interfaces as egress: tests/netns/route_vlan.t.
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/route_lib.sh"
need_bpfwd
command -v python3 >/dev/null || skip_all "python3 missing"
command -v ethtool >/dev/null || skip_all "ethtool missing"

route_topo || { not_ok "topology"; done_testing; }
R0MAC=$(mac_of "$r" r0)
D=$TMPDIR_T
HOOKS="tc xdp xdp-generic"
if bpfwd_ns "$r" probe 2>/dev/null | grep -q '^tcx  *yes'; then
	HOOKS="tc tcx xdp xdp-generic"
fi
HOOKS=${ROUTE_HOOKS:-$HOOKS}

# hook_args HOOK: route add's words for tc, tcx, xdp or xdp-generic
hook_args() {
	case $1 in
	xdp-generic) echo hook xdp xdp-mode generic ;;
	*) echo hook "$1" ;;
	esac
}

# names of the suite's frames: "fwd" or the reason the fast path passes
NAMES=$( (frames "$h1" suite e0 "$R0MAC" 4 list; frames "$h1" suite e0 "$R0MAC" 6 list))
count_of() { grep -cx "$1" <<<"$NAMES"; }
ge "$(wc -l <<<"$NAMES")" 40 "the suite has its frames"

# run_suite MODE: the suite through r; captures in $D/MODE.h1, .h2.
# A second apart: the kernel's routing errors are limited to one a
# second per source.
run_suite() {
	local before

	sleep 1.1
	cap_start "$h1" "$D/$1.h1" && cap_start "$h2" "$D/$1.h2" ||
		{ not_ok "$1: captures start"; return 1; }
	before=$(fwd_count "$r")
	frames "$h1" suite e0 "$R0MAC" 4
	frames "$h1" suite e0 "$R0MAC" 6
	cap_stop
	echo $(($(fwd_count "$r") - before)) >"$D/$1.fwd"
	sort -o "$D/$1.h1" "$D/$1.h1"
	sort -o "$D/$1.h2" "$D/$1.h2"
}

# --- the kernel alone ---
# once unrecorded: the kernel's first routing error to a source that it
# has not seen yet is not sent (its rate limit starts empty)
frames "$h1" suite e0 "$R0MAC" 4
run_suite kernel
k1=$D/kernel.h1
k2=$D/kernel.h2
is "$(grep -c BAD- "$k1" "$k2" | awk -F: '{ s += $2 } END { print s }')" 0 \
	"kernel: every checksum valid"
ge "$(wc -l <"$k2")" 20 "kernel: frames arrive at h2"
for want in "icmp 11/0" "icmp 3/4" "icmp 3/1" "icmp 3/13" "icmp 3/3" \
	"icmp 3/0" "icmp 0/0" "icmp6 3/0" "icmp6 2/0" "icmp6 1/0" "icmp6 1/1" \
	"icmp6 1/4" "icmp6 129/0"; do
	grep -q "$want " "$k1"
	check "kernel: h1 gets $want" test $? = 0
done
grep -q "ttl 1 p17 40006>9" "$k2"
check "kernel: the TTL 2 datagram reaches h2 with TTL 1" test $? = 0

# ECMP: one datagram from each of 64 source ports, per family; the
# kernel's choice of h2 or h3 per flow is the reference
run_flows() {
	sleep 0.2
	cap_start "$h2" "$D/$1.e2" && cap_start "$h3" "$D/$1.e3" ||
		{ not_ok "$1: captures start"; return 1; }
	frames "$h1" flows e0 "$R0MAC" 10.8.0.8 64
	frames "$h1" flows e0 "$R0MAC" fd08::8 64
	cap_stop
	sort -o "$D/$1.e2" "$D/$1.e2"
	sort -o "$D/$1.e3" "$D/$1.e3"
}
run_flows kernel
ge "$(grep -c '>10.8.0.8 ' "$D/kernel.e2")" 8 "kernel: ECMP sends IPv4 flows to h2"
ge "$(grep -c '>10.8.0.8 ' "$D/kernel.e3")" 8 "kernel: ECMP sends IPv4 flows to h3"
ge "$(grep -c '>fd08::8 ' "$D/kernel.e2")" 8 "kernel: ECMP sends IPv6 flows to h2"
ge "$(grep -c '>fd08::8 ' "$D/kernel.e3")" 8 "kernel: ECMP sends IPv6 flows to h3"
is "$(cat "$D/kernel.e2" "$D/kernel.e3" | grep -c ' 20[0-9]*>9 ')" 128 \
	"kernel: every flow arrives once"

# --- the fast path, per hook ---
REASONS="ttl frag_needed unreachable prohibit blackhole not_fwded options bad_header fragment not_host martian"

diff_hook() {
	local hook=$1 fwd0 fwd1 fwd2 n want got reason

	bpfwd_ns "$r" route add dev r0 dev r1 dev r2 $(hook_args "$hook")
	is "$?" 0 "$hook: route add dev r0 dev r1 dev r2"
	run_suite "$hook"
	same "$k2" "$D/$hook.h2" "$hook: h2 receives the frames the kernel delivers"
	same "$k1" "$D/$hook.h1" "$hook: h1 gets back what it gets from the kernel"
	fwd0=$(route_stat "$r" r0 forwarded)
	is "$fwd0" "$(count_of fwd)" "$hook: r0 forwarded every forwardable frame"
	for reason in $REASONS; do
		want=$(count_of "$reason")
		# a frame the suite expects to be frag_needed without DF too
		got=$(route_stat "$r" r0 "passed.$reason")
		is "$got" "$want" "$hook: r0 passed $want for $reason"
	done
	ge "$(route_stat "$r" r0 passed.multicast)" 1 "$hook: r0 passed the broadcast"
	fwd1=$(route_stat "$r" r1 forwarded)
	is "$fwd1" 6 "$hook: r1 forwarded h2's echo replies"
	ge "$(route_stat "$r" r1 passed.icmp_error)" 1 "$hook: r1 passed h2's ICMP errors"
	fwd2=$(route_stat "$r" r2 forwarded)
	n=$(($(cat "$D/kernel.fwd") - $(cat "$D/$hook.fwd")))
	is "$n" $((fwd0 + fwd1 + fwd2)) \
		"$hook: the kernel forwarded exactly what the fast path did not"
}

# stream_start DST: UDP from h1 to DST (port 9, closed), about 2000 a
# second, in the background until stream_stop
stream_start() {
	local tx

	tx=$(tx_packets "$h1" e0)
	(exec nsenter --net="/run/netns/$h1" python3 "$RF" stream e0 "$R0MAC" "$1" 30) &
	STREAM=$!
	on_exit "kill $STREAM"
	# flowing (python may start slowly on a busy machine)
	wait_for $((tx + 50)) tx_packets "$h1" e0
}

stream_stop() {
	kill "$STREAM" 2>/dev/null
	wait "$STREAM" 2>/dev/null
}

# after_change: the stream's datagrams that reach h2's and h3's stacks
# (closed port) in the second after a change, as "H2 H3"
after_change() {
	local a2 a3

	sleep 0.05
	a2=$(udp_noports "$h2")
	a3=$(udp_noports "$h3")
	sleep 1
	echo "$(($(udp_noports "$h2") - a2)) $(($(udp_noports "$h3") - a3))"
}

changes() {
	local hook=$1 n rx mac

	# a route replaced under traffic: from h2 to h3 at once
	stream_start 10.9.0.9
	ip -n "$r" route replace 10.9.0.0/24 via 10.3.0.3
	n=$(after_change)
	stream_stop
	is "${n% *}" 0 "$hook: route replaced: nothing more to h2"
	ge "${n#* }" 10 "$hook: route replaced: the stream goes to h3"

	# its nexthop deleted: no route, the kernel answers
	ip -n "$r" nexthop add id 90 via 10.3.0.3 dev r2
	ip -n "$r" route replace 10.9.0.0/24 nhid 90
	stream_start 10.9.0.9
	ip -n "$r" nexthop del id 90
	n=$(route_stat "$r" r0 passed.not_fwded)
	is "$(after_change)" "0 0" "$hook: nexthop deleted: nothing more to h2 or h3"
	ge "$(($(route_stat "$r" r0 passed.not_fwded) - n))" 10 \
		"$hook: nexthop deleted: the stream goes to the kernel (no route)"
	stream_stop
	ip -n "$r" route replace 10.9.0.0/24 via 10.2.0.2

	# the neighbour's MAC changed under traffic: h2 gets the frames, for
	# another MAC, so its stack takes none
	mac=$(mac_of "$h2" e0)
	stream_start 10.9.0.9
	ip -n "$r" neigh replace 10.2.0.2 lladdr 02:00:00:00:00:22 dev r1 nud permanent
	rx=$(rx_packets "$h2" e0)
	n=$(after_change)
	rx=$(($(rx_packets "$h2" e0) - rx))
	stream_stop
	ip -n "$r" neigh replace 10.2.0.2 lladdr "$mac" dev r1 nud permanent
	is "${n% *}" 0 "$hook: neighbour's new MAC: h2's stack takes nothing more"
	ge "$rx" 10 "$hook: neighbour's new MAC: the frames still reach h2's device"
}

# an unresolved neighbour: the kernel (XDP) or bpf_redirect_neigh (tc)
# resolves it, and every datagram arrives
unresolved() {
	local hook=$1 before key=passed.no_neigh n0

	[[ $hook = xdp* ]] || key=neigh
	n0=$(route_stat "$r" r0 "$key")
	ip -n "$r" neigh del 10.2.0.2 dev r1
	before=$(udp_noports "$h2")
	frames "$h1" flows e0 "$R0MAC" 10.2.0.2 20
	sleep 0.3
	is "$(($(udp_noports "$h2") - before))" 20 "$hook: unresolved neighbour: all 20 arrive"
	ge "$(($(route_stat "$r" r0 "$key") - n0))" 1 \
		"$hook: unresolved neighbour: counted under $key"
	ip -n "$r" neigh replace 10.2.0.2 lladdr "$(mac_of "$h2" e0)" dev r1 nud permanent
}

# TCP through the router (iperf3): it works; throughput is the bench's
tcp() {
	local hook=$1 f0 out

	command -v iperf3 >/dev/null || { skip "$hook: iperf3 missing"; return; }
	(exec nsenter --net="/run/netns/$h3" iperf3 -s -1 -B 10.3.0.3 >/dev/null 2>&1) &
	on_exit "kill $!"
	sleep 0.5
	f0=$(route_stat "$r" r0 forwarded)
	out=$(in_ns "$h1" timeout 20 iperf3 -c 10.3.0.3 -t 2 -J)
	ge "$(jq '.end.sum_received.bytes // 0' <<<"$out" 2>/dev/null)" 1000000 \
		"$hook: iperf3 through the router moves data"
	ge "$(($(route_stat "$r" r0 forwarded) - f0))" 1000 \
		"$hook: iperf3's segments took the fast path"
	wait
}

# udp_delta NS CMD...: datagrams NS's stack got for closed ports while
# CMD ran
udp_delta() {
	local n=$1 before

	shift
	before=$(udp_noports "$n")
	"$@"
	sleep 0.2
	echo $(($(udp_noports "$n") - before))
}

# rp_filter on: a spoofed source, and one of r's own addresses, go to
# the kernel (which drops them); a good source is still forwarded
rpf() {
	local hook=$1 p0 f0

	in_ns "$r" sysctl -qw net.ipv4.conf.all.rp_filter=1
	bpfwd_ns "$r" route add dev r0 dev r1 dev r2 $(hook_args "$hook")
	is "$(bpfwd_ns "$r" -j route show dev r0 | jq -r '.[0].rp_filter')" strict \
		"$hook: route add again: rp_filter strict read from the kernel"
	p0=$(route_stat "$r" r0 passed.rp_filter)
	f0=$(route_stat "$r" r0 forwarded)
	is "$(udp_delta "$h2" frames "$h1" flows e0 "$R0MAC" 10.2.0.2 10 10.3.0.50)" 0 \
		"$hook: rp_filter: a source that belongs behind r2 is dropped"
	is "$(udp_delta "$h2" frames "$h1" flows e0 "$R0MAC" 10.2.0.2 10 10.2.0.254)" 0 \
		"$hook: rp_filter: r's own address as source is dropped"
	is "$(($(route_stat "$r" r0 passed.rp_filter) - p0))" 20 \
		"$hook: rp_filter: both passed to the kernel as rp_filter"
	is "$(udp_delta "$h2" frames "$h1" flows e0 "$R0MAC" 10.2.0.2 10)" 10 \
		"$hook: rp_filter: a good source still arrives"
	is "$(($(route_stat "$r" r0 forwarded) - f0))" 10 \
		"$hook: rp_filter: ... on the fast path"
	in_ns "$r" sysctl -qw net.ipv4.conf.all.rp_filter=0
	bpfwd_ns "$r" route add dev r0 dev r1 dev r2 $(hook_args "$hook")
}

# IPv6 forwarding off for the namespace but on for r0: the kernel does
# not forward (ip6_forward() reads all.forwarding), nor may bpfwd
v6_off() {
	local hook=$1 d0

	in_ns "$r" sysctl -qw net.ipv6.conf.all.forwarding=0
	in_ns "$r" sysctl -qw net.ipv6.conf.r0.forwarding=1
	bpfwd_ns "$r" route add dev r0 dev r1 dev r2 $(hook_args "$hook") 2>/dev/null
	is "$(bpfwd_ns "$r" -j route show dev r0 | jq '.[0].ipv6')" false \
		"$hook: all.forwarding 0: IPv6 to the stack"
	d0=$(route_stat "$r" r0 passed.fwd_disabled)
	is "$(udp_delta "$h2" frames "$h1" flows e0 "$R0MAC" fd02::2 10)" 0 \
		"$hook: all.forwarding 0, r0's 1: no IPv6 crosses, as with the kernel"
	is "$(($(route_stat "$r" r0 passed.fwd_disabled) - d0))" 10 \
		"$hook: ... passed as fwd_disabled"
	in_ns "$r" sysctl -qw net.ipv6.conf.all.forwarding=1
	bpfwd_ns "$r" route add dev r0 dev r1 dev r2 $(hook_args "$hook")
	is "$(bpfwd_ns "$r" -j route show dev r0 | jq '.[0].ipv6')" true \
		"$hook: all.forwarding 1 again: IPv6 on the fast path"
}

# XDP takes multi-buffer frames: 9000-byte MTUs, 8000-byte pings
jumbo() {
	local out f0 b0 n

	for n in "$r:r0" "$r:r2" "$h1:e0" "$h3:e0"; do
		ip -n "${n%:*}" link set "${n#*:}" mtu 9000
	done
	f0=$(route_stat "$r" r0 forwarded)
	b0=$(route_stat "$r" r0 bytes)
	out=$(in_ns "$h1" ping -c 3 -i 0.1 -W 1 -s 8000 -M do 10.3.0.3)
	like "$out" "3 received" "xdp: 8000-byte pings cross r (MTU 9000)"
	ge "$(($(route_stat "$r" r0 forwarded) - f0))" 3 "xdp: ... on the fast path"
	ge "$(($(route_stat "$r" r0 bytes) - b0))" 24000 "xdp: ... whole"
	for n in "$r:r0" "$r:r2" "$h1:e0" "$h3:e0"; do
		ip -n "${n%:*}" link set "${n#*:}" mtu 1500
	done
}

for hook in $HOOKS; do
	diff_hook "$hook"
	rpf "$hook"
	v6_off "$hook"
	[ "$hook" = xdp ] && jumbo
	run_flows "$hook"
	same "$D/kernel.e2" "$D/$hook.e2" "$hook: ECMP sends to h2 the flows the kernel sends there"
	same "$D/kernel.e3" "$D/$hook.e3" "$hook: ECMP sends to h3 the flows the kernel sends there"
	changes "$hook"
	unresolved "$hook"
	tcp "$hook"
	bpfwd_ns "$r" route del dev r0 dev r1 dev r2
	is "$?" 0 "$hook: route del"
done

# --- two routers in series: a - ra - rb - b, neighbours resolved by
# ARP as they come ---
series_topo() {
	local n

	setup_ns a ra rb b || return 1
	ip -n "$ra" link add x0 type veth peer e0 netns "$a" &&
		ip -n "$ra" link add x1 type veth peer y0 netns "$rb" &&
		ip -n "$rb" link add y1 type veth peer e0 netns "$b" || return 1
	for n in "$a:e0" "$ra:x0" "$ra:x1" "$rb:y0" "$rb:y1" "$b:e0"; do
		ip -n "${n%:*}" link set "${n#*:}" up
		# VLAN tags in the frame: XDP does not see them outside
		in_ns "${n%:*}" ethtool -K "${n#*:}" tx off gro on txvlan off \
			tx-vlan-stag-hw-insert off >/dev/null
	done
	ip -n "$a" addr add 10.11.0.1/24 dev e0
	ip -n "$ra" addr add 10.11.0.254/24 dev x0
	ip -n "$ra" addr add 10.12.0.1/24 dev x1
	ip -n "$rb" addr add 10.12.0.2/24 dev y0
	ip -n "$rb" addr add 10.13.0.254/24 dev y1
	ip -n "$b" addr add 10.13.0.2/24 dev e0
	ip -n "$a" route add default via 10.11.0.254
	ip -n "$b" route add default via 10.13.0.254
	ip -n "$ra" route add 10.13.0.0/24 via 10.12.0.2
	ip -n "$rb" route add 10.11.0.0/24 via 10.12.0.1
	for n in "$ra" "$rb"; do
		in_ns "$n" sysctl -qw net.ipv4.ip_forward=1
		no_rate_limit "$n"
	done
}

if series_topo; then
	for hook in $HOOKS; do
		bpfwd_ns "$ra" route add dev x0 dev x1 $(hook_args "$hook") &&
			bpfwd_ns "$rb" route add dev y0 dev y1 $(hook_args "$hook")
		is "$?" 0 "series, $hook: route add on both routers"
		out=$(in_ns "$a" ping -c 5 -i 0.1 -W 1 10.13.0.2)
		like "$out" "5 received" "series, $hook: a pings b through ra and rb"
		like "$out" "ttl=62" "series, $hook: the replies lost one TTL at each router"
		ge "$(route_stat "$ra" x0 forwarded)" 3 "series, $hook: ra forwarded the requests"
		ge "$(route_stat "$rb" y1 forwarded)" 3 "series, $hook: rb forwarded the replies"
		out=$(in_ns "$a" ping -c 1 -t 2 -W 1 10.13.0.2)
		like "$out" "From 10.12.0.2 .*Time to live exceeded" \
			"series, $hook: TTL 2 expires at rb, which says so"
		bpfwd_ns "$ra" route del dev x0 dev x1
		bpfwd_ns "$rb" route del dev y0 dev y1
	done
	# native XDP sends only to route devices: with x0 alone on the fast
	# path, a's frames to b leave by x1, which is not in the devmap;
	# they must reach the kernel untouched (one rewritten there would
	# carry rb's MAC and be dropped as not for ra)
	if bpfwd_ns "$ra" route add dev x0 hook xdp; then
		p0=$(route_stat "$ra" x0 passed.no_devmap)
		out=$(in_ns "$a" ping -c 3 -i 0.1 -W 1 10.13.0.2)
		like "$out" "3 received" "series, xdp, x0 alone: a pings b, through ra's kernel"
		like "$out" "ttl=62" "series, xdp, x0 alone: one TTL lost at each router"
		ge "$(($(route_stat "$ra" x0 passed.no_devmap) - p0))" 3 \
			"series, xdp, x0 alone: the requests passed as no_devmap"
		is "$(route_stat "$ra" x0 forwarded)" 0 "series, xdp, x0 alone: none forwarded by XDP"
		bpfwd_ns "$ra" route del dev x0
	else
		not_ok "series, xdp: route add dev x0"
	fi
else
	not_ok "series topology"
fi

done_testing
