#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# examples/router.sh in its namespace mode, on the default hook and on
# XDP: it exits 0, the pings and every UDP datagram cross the router,
# a TTL of 1 gets the kernel's answer, the route counters show the
# forwarded packets and the TTL case, and no namespace or pin is left.
# Then its device mode on a namespace of this test: add, -d, a bad
# device that changes nothing.
source "$(dirname "$0")/../lib.sh"
need_bpfwd
command -v ethtool >/dev/null || skip_all "ethtool missing"

export BPFWD
EX=$TOP/examples/router.sh
pins() { find /sys/fs/bpf | sort; }

for hook in "" xdp; do
	name=${hook:-default}
	pins0=$(pins)
	OUT=$(HOOK=$hook timeout 120 "$EX" 2>&1)
	RC=$?
	is "$RC" 0 "router.sh ($name hook): exits 0"
	[ "$RC" = 0 ] || diag "$(tail -20 <<<"$OUT")"
	like "$OUT" "3 packets transmitted, 3 received" "$name: h1 pings h2 through r"
	like "$OUT" "h2 received 100 of 100 UDP datagrams" "$name: all UDP crosses r"
	like "$OUT" "From 10.1.0.254 icmp_seq=1 Time to live exceeded" \
		"$name: TTL 1: the kernel answers"
	fwd=$(awk '$1 == "r0" { for (i = 1; i < NF; i++) if ($i == "forwarded") print $(i + 1) }' <<<"$OUT")
	ge "$fwd" 100 "$name: r0's forwarded counter moved"
	like "$OUT" "
    ttl +1" "$name: the TTL case is counted"
	[ -n "$hook" ] && like "$OUT" "r0 hook $hook" "$name: on hook $hook"
	is "$(ip netns list 2>/dev/null | grep -c '^bpfwd-router-')" 0 "$name: no namespace left over"
	is "$(pins)" "$pins0" "$name: no pin left over"
done

# the documentation: the grammar bpfwd prints stands in README.md, and
# the man page renders
help=$("$BPFWD" route help)
is "$?" 0 "bpfwd route help exits 0"
missing=$(grep -vxF -f <(sed 's/^ *//' "$TOP/README.md") <(sed 's/^ *//' <<<"$help"))
is "$missing" "" "README has every line of bpfwd route help"
for obj in "bpfwd route" "bpfwd-route"; do
	grep -q "$obj" "$TOP/man/bpfwd.8.rst"
	check "bpfwd.8 names $obj" test $? = 0
done
if command -v rst2man >/dev/null; then
	out=$(rst2man --halt=warning "$TOP/man/bpfwd-route.8.rst" 2>&1 >/dev/null)
	is "$?:$out" "0:" "bpfwd-route.8 renders without a warning"
else
	skip "rst2man missing (python3-docutils)"
fi

# device mode, on devices of a namespace of this test
topo || { not_ok topology; done_testing; }
pins0=$(pins)
out=$(in_ns "$dut" "$EX" d0 nosuch0 2>&1)
is "$?" 1 "device mode, unknown device: exit 1"
like "$out" "nosuch0: no such device" "device mode, unknown device: says which"
is "$(bpfwd_ns "$dut" -j route show | jq length)" 0 "device mode, unknown device: nothing added"
is "$(pins)" "$pins0" "device mode, unknown device: no pin"
in_ns "$dut" "$EX" d0 d1 >/dev/null 2>&1
is "$?" 0 "device mode: adds d0 and d1"
is "$(bpfwd_ns "$dut" -j route show | jq -r 'map(.dev) | join(",")')" d0,d1 \
	"device mode: both are route devices"
in_ns "$dut" "$EX" -d d0 d1 >/dev/null 2>&1
is "$?" 0 "device mode: -d removes them"
is "$(bpfwd_ns "$dut" -j route show | jq length)" 0 "device mode -d: none left"
is "$(pins)" "$pins0" "device mode -d: no pin left"

done_testing
