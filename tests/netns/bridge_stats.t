#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd stats bridge [ BR ]: the bridge fast path's counters in bpfwd
# stats, the figures of bpfwd bridge stats; known unicast between two
# hosts moves forwarded, their broadcasts a pass reason.
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/bridge_lib.sh"
need_bpfwd

br_topo 2 || { not_ok topology; done_testing; }
ip -n "$h1" addr add 10.0.0.1/24 dev eth0
ip -n "$h2" addr add 10.0.0.2/24 dev eth0
br_daemon_start "$brdut"
check "bridge add br0" bpfwd_ns "$brdut" bridge add br0 hook tc
br_wait_sync "$brdut" br0
check "the fast path is in sync" test "$(br_synced "$brdut" br0)" = true

# the first pings learn both stations (through the bridge), the rest
# are known unicast on the fast path
in_ns "$h1" ping -q -c 20 -i 0.05 -W 1 10.0.0.2 >/dev/null
check "h1 reaches h2 through the bridge" test $? = 0

json=$(bpfwd_ns "$brdut" -j stats bridge br0)
is "$?" 0 "stats bridge br0 -j exits 0"
fwd=$(jq '.[0].forwarded' <<<"$json")
ge "$fwd" 10 "known unicast took the fast path"
is "$(jq -c '.[0] | del(.forwarded, .passed, .reasons)' <<<"$json")" \
	"$(bpfwd_ns "$brdut" -j bridge stats br0 | jq -c '.[0] | del(.forwarded, .passed, .reasons)')" \
	"stats bridge names the bridge as bridge stats does"
bc=$(bpfwd_ns "$brdut" -j bridge stats br0 | jq '.[0].forwarded')
is "$bc" "$fwd" "bridge stats gives the same forwarded count"
like "$(bpfwd_ns "$brdut" stats bridge)" "br0" "text names br0"

out=$(bpfwd_ns "$brdut" stats bridge nosuch0 2>&1)
is "$?" 1 "an unknown bridge: exit 1"
is "$out" "bpfwd: stats bridge nosuch0: no such device" "an unknown bridge: says so"
out=$(bpfwd_ns "$brdut" stats bridge br0 br0 2>&1)
is "$?" 2 "two bridges: usage error"

bpfwd_ns "$brdut" bridge del br0
br_daemon_stop
done_testing
