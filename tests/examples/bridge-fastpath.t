#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# examples/bridge-fastpath.sh in its namespace mode, on tc and on xdp:
# it exits 0, the pings between the hosts get through, the fast path
# forwarded some of them, and no namespace, daemon or pin is left.  Then
# its device mode on a bridge of this test: add (with the warning that
# the daemon does not run), -d, bad arguments.
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/bridge_lib.sh"
need_bpfwd
command -v ethtool >/dev/null || skip_all "ethtool missing"
command -v ping >/dev/null || skip_all "ping missing"

export BPFWD
EX=$TOP/examples/bridge-fastpath.sh
pins() { find /sys/fs/bpf | sort; }

pins0=$(pins)
for hook in tc xdp; do
	OUT=$(HOOK=$hook timeout 120 "$EX" 2>/dev/null)
	RC=$?
	is "$RC" 0 "$hook: bridge-fastpath.sh exits 0"
	[ "$RC" = 0 ] || diag "$(tail -20 <<<"$OUT")"
	is "$(grep -c '3 packets transmitted, 3 received' <<<"$OUT")" 2 "$hook: both pings get through"
	like "$OUT" "br0 hook $hook .*sync yes" "$hook: bridge show: in sync"
	like "$OUT" "kernel p1 mirror p1 seen" "$hook: fdb show: a station on the fast path"
	n=$(sed -n 's/^the fast path forwarded \([0-9]*\) frames.*/\1/p' <<<"$OUT")
	ge "$n" 4 "$hook: the fast path forwarded pings ($n frames)"
	is "$(ip netns list 2>/dev/null | grep -c '^bpfwd-bridge-fastpath-')" 0 "$hook: no namespace left over"
	is "$(pins)" "$pins0" "$hook: no pin left over"
done
is "$(pgrep -f 'bpfwd -n bpfwd-bridge-fastpath' | wc -l)" 0 "no daemon left over"

# device mode, on a bridge of a namespace of this test
br_topo 2 || { not_ok topology; done_testing; }
out=$(in_ns "$brdut" "$EX" br0 2>&1)
is "$?" 0 "device mode: adds the fast path to br0"
like "$out" "bpfwd daemon is not running .* start it: bpfwd daemon" \
	"device mode: warns that the daemon does not run"
is "$(bpfwd_ns "$brdut" -j bridge show | jq -r '[.[0].bridge, (.[0].ports | length)] | join(" ")')" \
	"br0 2" "device mode: br0 and its two ports"
out=$(in_ns "$brdut" "$EX" -x 2>&1)
is "$?" 1 "a bad option: exit 1"
like "$out" "usage: " "a bad option: says the usage"
out=$(in_ns "$brdut" "$EX" nosuch0 2>&1)
is "$?" 1 "no such bridge: exit 1"
check "-d removes it" in_ns "$brdut" "$EX" -d br0
is "$(bpfwd_ns "$brdut" -j bridge show | jq length)" 0 "-d: nothing left"

done_testing
