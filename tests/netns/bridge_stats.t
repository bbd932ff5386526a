#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd stats bridge [ BR ]: the bridge fast path's counters in bpfwd
# stats, the figures of bpfwd bridge stats; known unicast between two
# hosts moves forwarded, their broadcasts a pass reason; a port's copy by
# slot that names another device makes its frames pass, counted.
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

# The programs read ports by slot (bpfwd_br_pslots): a copy whose
# ifindex is not the port's counts for nothing.  p2's copy made to name
# another device: frames to h2 (egress) and from it (not a port, counted
# for no bridge) pass to the bridge, which delivers them; the copy put
# back, the fast path again.
pdir=$(dirname "$(pins -name bpfwd_br_pslots)")
p2=$(ifindex_of "$brdut" p2)
le32() { printf '%d %d %d %d' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
entry=$(bpftool -j map lookup pinned "$pdir/bpfwd_br_ports" key $(le32 "$p2"))
slot=$(jq '.formatted.value.pslot' <<<"$entry")
ge "$slot" 1 "p2 has a port slot"
orig=$(jq -r '.value | join(" ")' <<<"$entry")
# bytes 24-27 of the entry: its ifindex
bad=$(jq -r --argjson i $((p2 + 1000)) \
	'.value | .[24:28] = ([$i % 256, ($i / 256 | floor) % 256, 0, 0] | map(tostring)) | join(" ")' <<<"$entry")
check "p2's copy names another device" bpftool map update pinned "$pdir/bpfwd_br_pslots" \
	key $(le32 "$slot") value $bad
fwd0=$(br_counter "$brdut" br0 forwarded)
eg0=$(br_counter "$brdut" br0 egress)
no_br() {
	bpfwd_ns "$brdut" -j bridge stats |
		jq '[.[] | select(.bridge == null)][0].reasons.not_port // 0'
}
np0=$(no_br)
in_ns "$h1" ping -q -c 10 -i 0.05 -W 1 10.0.0.2 >/dev/null
check "a copy not the port's: h1 still reaches h2" test $? = 0
is "$(br_counter "$brdut" br0 forwarded)" "$fwd0" "a copy not the port's: nothing forwarded"
ge "$(($(br_counter "$brdut" br0 egress) - eg0))" 10 "frames to h2 passed: egress"
ge "$(($(no_br) - np0))" 10 "frames from h2 passed: not a port"
check "p2's copy put back" bpftool map update pinned "$pdir/bpfwd_br_pslots" \
	key $(le32 "$slot") value $orig
in_ns "$h1" ping -q -c 10 -i 0.05 -W 1 10.0.0.2 >/dev/null
ge "$(($(br_counter "$brdut" br0 forwarded) - fwd0))" 18 "the copy back: the fast path again"

out=$(bpfwd_ns "$brdut" stats bridge nosuch0 2>&1)
is "$?" 1 "an unknown bridge: exit 1"
is "$out" "bpfwd: stats bridge nosuch0: no such device" "an unknown bridge: says so"
out=$(bpfwd_ns "$brdut" stats bridge br0 br0 2>&1)
is "$?" 2 "two bridges: usage error"

bpfwd_ns "$brdut" bridge del br0
br_daemon_stop
done_testing
