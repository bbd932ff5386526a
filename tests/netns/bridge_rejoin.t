#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# A port that leaves and joins again touches no other port: with hook
# xdp the daemon attaches p1 from within its dump of the bridge ports,
# and the checks of that attach talk netlink too.  They shared a receive
# buffer with the dump, which then lost the ports after p1: p2 and p3
# were detached as gone (their fdb mirror flushed) and attached again.
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/bridge_lib.sh"
need_bpfwd

# fdb_of NS PORT: the mirror's fdb entries on PORT
fdb_of() {
	bpfwd_ns "$1" -j bridge fdb show br0 2>/dev/null |
		jq --arg p "$2" '[.[] | select(.mirror.dev == $p)] | length'
}

for hook in xdp tc; do
	topo_del
	br_topo 3 || { not_ok "$hook: topology"; continue; }
	: >"$TMPDIR_T/daemon.log"
	br_daemon_start "$brdut"
	check "$hook: bridge add" bpfwd_ns "$brdut" bridge add br0 hook $hook
	br_wait_sync "$brdut" br0 || diag "$hook: no sync"
	for p in p2 p3; do
		bridge -n "$brdut" fdb replace "02:00:00:00:0${p#p}:01" dev $p master static
	done
	wait_for 1 fdb_of "$brdut" p3 >/dev/null
	before=$(($(fdb_of "$brdut" p2) + $(fdb_of "$brdut" p3)))
	ge "$before" 2 "$hook: the mirror has p2's and p3's stations"
	ip -n "$brdut" link set p1 nomaster
	check "$hook: p1 leaves" wait_for 1 bash -c \
		"grep -c 'p1: left bridge' '$TMPDIR_T/daemon.log'"
	ip -n "$brdut" link set p1 master br0
	check "$hook: p1 joins again" wait_for 1 bash -c \
		"grep -c 'p1: joined bridge' '$TMPDIR_T/daemon.log'"
	sleep 0.5
	is "$(grep -c -E 'p[23]: (left|joined) bridge' "$TMPDIR_T/daemon.log")" 0 \
		"$hook: p2 and p3 were neither detached nor attached again"
	is "$(($(fdb_of "$brdut" p2) + $(fdb_of "$brdut" p3)))" "$before" \
		"$hook: their stations stayed in the mirror"
	br_wait_sync "$brdut" br0
	is "$(bpfwd_ns "$brdut" -j bridge show br0 | jq '[.[0].ports[] | select(.attached and .synced)] | length')" 3 \
		"$hook: all three ports carry the fast path"
	bpfwd_ns "$brdut" bridge del br0
	br_daemon_stop
done

done_testing
