#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# examples/should-i.sh, one short round: both topologies run, each row
# of the bridge and the router prints its ratio to the reference row and
# its CPU time, and nothing (namespace, pin) is left behind.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

export BPFWD ROUNDS=1 DURATION=1
run_example should-i
for row in br-linux br-tc br-tcx br-xdp kernel-forward route-tc route-tcx route-xdp; do
	like "$OUT" "
  $row: [0-9.]+x, [0-9]+ ns of CPU a frame" "should-i: $row measured"
done
like "$OUT" "bridge: median of the per-round ratios to br-linux" "should-i: names the bridge's reference"
like "$OUT" "router: median of the per-round ratios to kernel-forward" "should-i: names the router's reference"
# the bench namespaces the example's two runs named, not others' benches
tags=$(sed -n 's/.*bpfwd-bench-{gen,dut,sink}-\([a-z0-9]*\).*/\1/p' <<<"$OUT")
is "$(grep -c . <<<"$tags")" 2 "should-i: both bench runs named their namespaces"
left=0
for t in $tags; do
	left=$((left + $(ip netns list 2>/dev/null | grep -c "^bpfwd-bench-[a-z]*-$t\b")))
done
is "$left" 0 "should-i: no bench namespace left"

OUT=$("$TOP/examples/should-i.sh" frob 2>&1)
is "$?" 1 "should-i frob: exit 1"
is "$OUT" "should-i: usage: should-i [ bridge | router ]" "should-i frob: says how"

done_testing
