#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Shared by the route tests (tests/netns/route*.t,
# tests/cli/route_bad_input.t); source it after lib.sh.  It builds the
# router topology (addresses exist only in the test's namespaces):
#
#   h1 e0 -- r0 [r] r1 -- e0 h2      10.1.0.0/24 fd01::/64 (h1 .1, r .254)
#                   r2 -- e0 h3      10.2.0.0/24 fd02::/64 (h2 .2, r .254)
#                                    10.3.0.0/24 fd03::/64 (h3 .3, r .254)
#
# h2 and h3 both own 10.8.0.8 and fd08::8 (an ECMP route on r spreads
# over them) and 10.9.0.9, fd09::9 (r routes them to h2).  r also has
# unreachable, prohibit and blackhole routes (198.51.100-102.0/24,
# 2001:db8:1-3::/48) and r1 an MTU of 1400.  Every neighbour is static,
# so no ARP or ND runs unless a test removes one; ICMP errors are not
# rate limited; no veth offloads checksums (an XDP redirect would lose
# a partial one); the hosts' veths have GRO on, so that XDP can send to
# their peers.

RF="$TESTS_DIR/netns/route_frames.py"
CAP_PIDS=()

# v6_on NS: IPv6 back on (lib.sh's setup_ns turns it off)
v6_on() {
	in_ns "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=0 \
		net.ipv6.conf.default.disable_ipv6=0 \
		net.ipv6.conf.default.accept_dad=0 \
		net.ipv6.conf.default.router_solicitations=0
}

# no_rate_limit NS: every ICMP error is sent
no_rate_limit() {
	in_ns "$1" sysctl -qw net.ipv4.icmp_ratelimit=0 net.ipv6.icmp.ratelimit=0 \
		net.ipv4.icmp_msgs_per_sec=100000 net.ipv4.icmp_msgs_burst=100000
}

# rlink R RDEV H: a veth RDEV in R to e0 in H, up, no checksum offload,
# VLAN tags sent inside the frame (XDP does not see them outside), GRO on
# at H's end
rlink() {
	ip -n "$1" link add "$2" numtxqueues 1 numrxqueues 1 type veth \
		peer e0 numtxqueues 1 numrxqueues 1 netns "$3" || return 1
	ip -n "$1" link set "$2" up
	ip -n "$3" link set e0 up
	in_ns "$1" ethtool -K "$2" tx off txvlan off \
		tx-vlan-stag-hw-insert off >/dev/null
	in_ns "$3" ethtool -K e0 tx off txvlan off tx-vlan-stag-hw-insert off \
		gro on >/dev/null
}

# addr NS DEV V4 V6
addr() {
	ip -n "$1" addr add "$3" dev "$2"
	ip -n "$1" -6 addr add "$4" dev "$2" nodad
}

# static_neigh NS DEV V4 V6 MAC
static_neigh() {
	ip -n "$1" neigh replace "$3" lladdr "$5" dev "$2" nud permanent
	ip -n "$1" -6 neigh replace "$4" lladdr "$5" dev "$2" nud permanent
}

# host H N RDEV: host H on subnet N behind r's RDEV
host() {
	local h=$1 n=$2 rdev=$3 hmac rmac

	rlink "$r" "$rdev" "$h" || return 1
	addr "$r" "$rdev" "10.$n.0.254/24" "fd0$n::fe/64"
	addr "$h" e0 "10.$n.0.$n/24" "fd0$n::$n/64"
	ip -n "$h" route add default via "10.$n.0.254"
	ip -n "$h" -6 route add default via "fd0$n::fe"
	hmac=$(mac_of "$h" e0)
	rmac=$(mac_of "$r" "$rdev")
	static_neigh "$r" "$rdev" "10.$n.0.$n" "fd0$n::$n" "$hmac"
	static_neigh "$h" e0 "10.$n.0.254" "fd0$n::fe" "$rmac"
	no_rate_limit "$h"
}

# route_topo: the namespaces h1 r h2 h3 ($h1 $r $h2 $h3) as above
route_topo() {
	local h

	setup_ns h1 r h2 h3 || return 1
	for h in "$h1" "$r" "$h2" "$h3"; do v6_on "$h"; done
	host "$h1" 1 r0 && host "$h2" 2 r1 && host "$h3" 3 r2 || return 1
	in_ns "$r" sysctl -qw net.ipv4.ip_forward=1 \
		net.ipv6.conf.all.forwarding=1 \
		net.ipv4.fib_multipath_hash_policy=1 \
		net.ipv6.fib_multipath_hash_policy=1
	no_rate_limit "$r"
	ip -n "$r" link set r1 mtu 1400
	for h in "$h2" "$h3"; do
		ip -n "$h" addr add 10.8.0.8/32 dev lo
		ip -n "$h" addr add 10.9.0.9/32 dev lo
		ip -n "$h" -6 addr add fd08::8/128 dev lo
		ip -n "$h" -6 addr add fd09::9/128 dev lo
	done
	ip -n "$r" route add 10.8.0.0/24 nexthop via 10.2.0.2 nexthop via 10.3.0.3
	ip -n "$r" -6 route add fd08::/64 nexthop via fd02::2 nexthop via fd03::3
	# sources of the suite's routing errors (route_frames.py suite4)
	for h in 11 12 13; do
		ip -n "$r" neigh replace "10.1.0.$h" dev r0 nud permanent \
			lladdr "$(mac_of "$h1" e0)"
	done
	ip -n "$r" route add 10.9.0.0/24 via 10.2.0.2
	ip -n "$r" -6 route add fd09::/64 via fd02::2
	ip -n "$r" route add unreachable 198.51.100.0/24
	ip -n "$r" route add prohibit 198.51.101.0/24
	ip -n "$r" route add blackhole 198.51.102.0/24
	ip -n "$r" -6 route add unreachable 2001:db8:1::/48
	ip -n "$r" -6 route add prohibit 2001:db8:2::/48
	ip -n "$r" -6 route add blackhole 2001:db8:3::/48
}

# cap_start NS FILE: records what arrives at NS's e0 (route_frames.py
# capture) until cap_stop
cap_start() {
	local i

	rm -f "$2" "$2.ready"
	# exec: $! is the capture itself, which cap_stop signals
	(exec nsenter --net="/run/netns/$1" python3 "$RF" capture e0 "$2") &
	CAP_PIDS+=($!)
	on_exit "kill $!"
	for ((i = 0; i < 50; i++)); do
		[ -e "$2.ready" ] && return 0
		sleep 0.1
	done
	return 1
}

cap_stop() {
	local p

	sleep 0.3
	for p in "${CAP_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for p in "${CAP_PIDS[@]}"; do wait "$p" 2>/dev/null; done
	CAP_PIDS=()
}

# same FILE_A FILE_B DESC: the two captures hold the same frames
same() {
	local d

	d=$(diff "$1" "$2")
	if [ -z "$d" ]; then
		ok "$3"
	else
		not_ok "$3"
		diag "$(head -c 3000 <<<"$d" | cut -c1-200)"
	fi
}

# frames NS ARGS...: route_frames.py ARGS in NS
frames() {
	local n=$1

	shift
	in_ns "$n" python3 "$RF" "$@"
}

# fwd_count NS: packets the kernel forwarded, IPv4 + IPv6
fwd_count() {
	in_ns "$1" awk '
		/^Ip: [A-Z]/ { for (i = 2; i <= NF; i++) if ($i == "ForwDatagrams") c = i }
		/^Ip: [0-9]/ { v4 = $c }
		$1 == "Ip6OutForwDatagrams" { v6 = $2 }
		END { print v4 + v6 }' /proc/net/snmp /proc/net/snmp6
}

# route_stat NS DEV KEY: a counter of bpfwd -j route show (KEY: forwarded,
# neigh, passed.ttl, ...)
route_stat() {
	bpfwd_ns "$1" -j route show dev "$2" | jq ".[0].$3"
}
