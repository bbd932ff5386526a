#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd stats route: the routing fast path's counters per device, the
# same figures route show gives, in text and JSON; dev DEV picks one
# device, and a device that is not on the fast path is an error.
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
bpfwd_ns "$r" route del dev r0
bpfwd_ns "$r" route del dev r1
is "$(bpfwd_ns "$r" -j stats route)" "[]" "no route device: an empty list"

done_testing
