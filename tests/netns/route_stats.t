#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd stats route: the routing fast path's counters per device, the
# same figures route show gives, in text and JSON; dev DEV picks one
# device, and a device that is not on the fast path is an error.  A
# device with a large ifindex (5000) is counted too.
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/route_lib.sh"
need_bpfwd

route_topo || { not_ok "topology"; done_testing; }
hook=tc
has_tcx && hook=tcx
bpfwd_ns "$r" route add dev r0 dev r1 hook "$hook" ||
	{ not_ok "route add dev r0 dev r1 hook $hook"; done_testing; }

# a few pings h1 -> h2 go through r0 (forwarded) and one with TTL 1
# comes back as the kernel's time exceeded (passed, ttl)
in_ns "$h1" ping -q -c 5 -i 0.05 -W 1 10.2.0.2 >/dev/null
in_ns "$h1" ping -q -c 1 -t 1 -W 1 10.2.0.2 >/dev/null

json=$(bpfwd_ns "$r" -j stats route)
is "$?" 0 "stats route -j exits 0"
is "$(jq -r '[.[].dev] | sort | join(" ")' <<<"$json")" "r0 r1" \
	"stats route lists the route devices"
fwd=$(jq '.[] | select(.dev == "r0") | .forwarded' <<<"$json")
ge "$fwd" 5 "r0 counted the pings it forwarded"
ttl=$(jq '.[] | select(.dev == "r0") | .passed.ttl' <<<"$json")
ge "$ttl" 1 "r0 counted the TTL 1 ping as passed for ttl"
is "$(jq '.[] | select(.dev == "r0") | .forwarded' \
	<<<"$(bpfwd_ns "$r" -j route show dev r0)")" "$fwd" \
	"route show gives the same figure"

one=$(bpfwd_ns "$r" -j stats route dev r1)
is "$(jq -r '[.[].dev] | join(" ")' <<<"$one")" "r1" "dev r1 picks r1 only"
text=$(bpfwd_ns "$r" stats route dev r0)
like "$text" "r0 .*forwarded $fwd" "text shows r0's forwarded count"

out=$(bpfwd_ns "$r" stats route dev r2 2>&1)
is "$?" 1 "a device not on the fast path: exit 1"
is "$out" "bpfwd: stats route r2: not on the routing fast path" \
	"a device not on the fast path: says so"
out=$(bpfwd_ns "$r" stats route dev r0 dev r1 2>&1)
is "$?" 2 "dev twice: usage error"
is "$out" 'bpfwd: stats route duplicate "dev": "r1" is the second value' \
	"dev twice: says so"
# a device whose ifindex is above the programs' array (bpfwd_rt_idx,
# ifindex < 4096): its entry is found in the hash, and it forwards
setup_ns h4 || { not_ok "namespace h4"; done_testing; }
ip -n "$r" link add r4 index 5000 numtxqueues 1 numrxqueues 1 type veth \
	peer e0 numtxqueues 1 numrxqueues 1 netns "$h4" &&
	ip -n "$r" link set r4 up && ip -n "$h4" link set e0 up &&
	in_ns "$r" ethtool -K r4 tx off >/dev/null &&
	in_ns "$h4" ethtool -K e0 tx off >/dev/null &&
	ip -n "$r" addr add 10.4.0.254/24 dev r4 &&
	ip -n "$h4" addr add 10.4.0.4/24 dev e0 &&
	ip -n "$h4" route add default via 10.4.0.254 &&
	ip -n "$r" neigh replace 10.4.0.4 lladdr "$(mac_of "$h4" e0)" dev r4 nud permanent &&
	ip -n "$h4" neigh replace 10.4.0.254 lladdr "$(mac_of "$r" r4)" dev e0 nud permanent ||
	{ not_ok "r4 (ifindex 5000)"; done_testing; }
is "$(ip -n "$r" -j link show r4 | jq '.[0].ifindex')" 5000 "r4 has ifindex 5000"
bpfwd_ns "$r" route add dev r4 hook "$hook"
is "$?" 0 "route add dev r4 (ifindex 5000)"
in_ns "$h4" ping -q -c 5 -i 0.05 -W 1 10.2.0.2 >/dev/null
is "$?" 0 "h4 pings h2 through r4"
ge "$(bpfwd_ns "$r" -j stats route dev r4 | jq '.[0].forwarded')" 5 \
	"r4 (ifindex 5000) forwarded the pings on the fast path"
bpfwd_ns "$r" route del dev r4

bpfwd_ns "$r" route del dev r0
bpfwd_ns "$r" route del dev r1
is "$(bpfwd_ns "$r" -j stats route)" "[]" "no route device: an empty list"

done_testing
