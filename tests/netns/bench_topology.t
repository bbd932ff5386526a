#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd bench's topologies, one round of one second each: topology
# bridge (a Linux bridge of N ports with M stations in its fdb, and
# bpfwd bridge with bpfwd daemon on tc, tcx, xdp) and topology router
# (R routes, the kernel's forwarding, bpfwd route on tc, tcx, xdp, and
# xdp-forward where it is installed).  gen's frames spread over the
# stations and the bridge forwards each out of one port (the dut's port
# counters while br-linux runs).  Every row is ok with a positive
# rate or skipped with a reason, the fast path rows forwarded on the
# fast path (bench warns otherwise), the JSON names the topology, and
# the namespaces, daemons and pins are gone afterwards.  No rate is
# asserted: timing lives in make bench.
source "$(dirname "$0")/../lib.sh"
need_bpfwd
command -v jq >/dev/null || skip_all "jq missing"

pins0=$(pins)
# unlike GOT RE DESC
unlike() { if [[ "$1" =~ $2 ]]; then not_ok "$3"; diag "$1"; else ok "$3"; fi; }

# rows_ok JS WHAT: every row of JS is ok with a rate, or skipped with a
# reason
rows_ok() {
	local bad m
	bad=$(jq -r '.methods[] | select(.status != "ok" and
		(.status != "skipped" or (.reason // "") == "")) | "\(.name): \(.reason)"' <<<"$1")
	is "$bad" "" "$2: every row is ok, or skipped with a reason"
	for m in $(jq -r '.methods[] | select(.status == "ok") | .name' <<<"$1"); do
		is "$(jq ".methods[] | select(.name == \"$m\") | .mpps_median > 0" <<<"$1")" true \
			"$2: $m counted frames at the sink"
	done
}

# ns_left JS: the namespaces a run named that are still there
ns_left() {
	local ns left=""
	for ns in $(jq -r '.setup.namespaces[]' <<<"$1"); do
		[ -e "/run/netns/$ns" ] && left="$left $ns"
	done
	echo "$left"
}

# 1. topology bridge: 4 ports (gen's and 3 sinks), 100 stations
js=$("$BPFWD" -j bench topology bridge ports 4 stations 100 \
	method br-tc,br-tcx,br-xdp rounds 1 duration 1 2>"$TMPDIR_T/err")
rc=$?
is "$rc" 0 "bench topology bridge exits 0"
[ "$rc" = 0 ] || diag "$(tail -3 "$TMPDIR_T/err")"
is "$(jq -r '.methods | map(.name) | join(",")' <<<"$js")" "br-linux,br-tc,br-tcx,br-xdp" \
	"bridge: the Linux bridge and the three fast path rows"
rows_ok "$js" bridge
is "$(jq -r '[.setup.dut, .setup.ports, .setup.stations, .setup.reference] | join(",")' <<<"$js")" \
	"bridge,4,100,br-linux" "bridge: JSON says the topology, its ports, stations and reference"
is "$(jq -r '.methods[] | select(.name == "br-linux") | .ratio_to_bridge' <<<"$js")" 1 \
	"bridge: the Linux bridge is the yardstick"
like "$(cat "$TMPDIR_T/err")" "100 stations in bwbr0's fdb over 3 sink ports" \
	"bridge: the stations were added before the rows"
unlike "$(cat "$TMPDIR_T/err")" "passed [0-9]+ to the bridge" \
	"bridge: the fast path rows forwarded on the fast path, not through the bridge"
is "$(ns_left "$js")" "" "bridge: its namespaces are gone"
# bench's daemons in this test's own mount namespace (lib.sh's unshare
# -m), not other sessions' benches on the machine
own_daemons() {
	local p mnt n=0
	mnt=$(readlink /proc/self/ns/mnt)
	for p in $(pgrep -fx '/proc/self/exe daemon'); do
		[ "$(readlink "/proc/$p/ns/mnt" 2>/dev/null)" = "$mnt" ] && n=$((n + 1))
	done
	echo "$n"
}
is "$(own_daemons)" 0 "bridge: no daemon of its left running"

# gen's frames go to the stations round robin and the bridge forwards
# each to the one sink port its station is on: while br-linux runs, the
# three sink ports each send a third of what gen's port takes in (a
# flood would send it all out of every port)
"$BPFWD" bench topology bridge ports 4 stations 300 method br-linux rounds 1 \
	duration 4 >/dev/null 2>"$TMPDIR_T/err2" &
bpid=$!
for _ in $(seq 100); do
	grep -q "stations in" "$TMPDIR_T/err2" && break
	sleep 0.1
done
tag=$(sed -n 's/.*bpfwd-bench-{gen,dut,sink}-\([a-z0-9]*\).*/\1/p' "$TMPDIR_T/err2")
# ports_tx: "RX OUT1 OUT2 OUT3" packets of the dut's ports
ports_tx() {
	ip -n "bpfwd-bench-dut-$tag" -s -j link show | jq -r --arg t "$tag" '
		(.[] | select(.ifname == "bwi-\($t)") | .stats64.rx.packets),
		(.[] | select(.ifname | test("^bwo[0-9a-f]?-")) | .stats64.tx.packets)' | tr '\n' ' '
}
sleep 1
read -r -a c0 <<<"$(ports_tx)"
sleep 1
read -r -a c1 <<<"$(ports_tx)"
wait "$bpid"
is "$?" 0 "bench topology bridge method br-linux exits 0"
if [ "${#c0[@]}" = 4 ] && [ "${#c1[@]}" = 4 ]; then
	rx=$((c1[0] - c0[0]))
	sum=0
	for i in 1 2 3; do
		d[i]=$((c1[i] - c0[i]))
		sum=$((sum + d[i]))
	done
	ge "$rx" 10000 "br-linux: gen's port took frames in ($rx in 1 s)"
	is "$(((sum * 10 + rx / 2) / rx))" 10 "br-linux: each frame left by one port ($sum out for $rx in)"
	for i in 1 2 3; do
		ge "$((d[i] * 4))" "$sum" "br-linux: sink port $i sent its share (${d[i]} of $sum)"
	done
else
	not_ok "the dut's ports were read while br-linux ran (${c0[*]} / ${c1[*]})"
fi

# 2. topology router: 100 routes, gen to 8 destinations (8 routes): the
# route rows must still forward every frame on the fast path (each
# destination's frames with valid checksums)
js=$("$BPFWD" -j bench topology router routes 100 dsts 8 rounds 1 duration 1 2>"$TMPDIR_T/err")
rc=$?
is "$rc" 0 "bench topology router exits 0"
[ "$rc" = 0 ] || diag "$(tail -3 "$TMPDIR_T/err")"
is "$(jq -r '.methods | map(.name) | join(",")' <<<"$js")" \
	"kernel-forward,rt-tc-fixed,route-tc,route-tcx,rt-xdp-fixed,route-xdp,xdp-forward-fib,xdp-forward-fib-direct" \
	"router: the kernel, the route rows with their ceilings and xdp-forward in both FIB modes"
rows_ok "$js" router
is "$(jq -r '[.setup.dut, .setup.routes, .setup.dsts, .setup.reference] | join(",")' <<<"$js")" \
	"router,100,8,kernel-forward" "router: JSON says the topology, its routes, gen's destinations and reference"
like "$(cat "$TMPDIR_T/err")" "100 routes in the dut" "router: the routes were added before the rows"
unlike "$(cat "$TMPDIR_T/err")" "passed [0-9]+ to the stack" \
	"router: the route rows forwarded on the fast path, not through the stack"
if command -v xdp-forward >/dev/null; then
	skip "xdp-forward installed: its row ran (checked above)"
else
	for m in xdp-forward-fib xdp-forward-fib-direct; do
		like "$(jq -r ".methods[] | select(.name == \"$m\") | .reason" <<<"$js")" \
			"xdp-forward not found in PATH" "router: without xdp-forward $m says why it skips"
	done
fi
is "$(ns_left "$js")" "" "router: its namespaces are gone"
is "$(pins)" "$pins0" "no pins left behind"

# 3. the default is the cross-connect topology, its rows unchanged
is "$("$BPFWD" -j bench list | jq -r 'map(.name) | index("bridge") != null and index("br-tc") == null')" \
	true "bench list: the cross-connect rows"
is "$("$BPFWD" -j bench list topology router | jq -r 'map(.name) | join(",")')" \
	"kernel-forward,rt-tc-fixed,route-tc,route-tcx,rt-xdp-fixed,route-xdp,xdp-forward-fib,xdp-forward-fib-direct" "bench list topology router"

# 4. bad input
usage() {
	local want=$1 desc=$2
	shift 2
	"$BPFWD" "$@" >/dev/null 2>"$TMPDIR_T/uerr"
	is "$?" 2 "$desc: exit 2"
	is "$(cat "$TMPDIR_T/uerr")" "bpfwd: $want" "$desc: says so"
}
usage 'bench stations: with topology bridge only' "stations without topology bridge" \
	bench stations 10
usage 'bench routes: with topology router only' "routes with topology bridge" \
	bench topology bridge routes 10
usage 'bench dsts: with topology router only' "dsts with topology bridge" \
	bench topology bridge dsts 10
usage 'bench dsts "51": at most 50 with 100 routes (one a route, from route 50 up)' \
	"more destinations than routes from R/2 up" bench topology router routes 100 dsts 51
usage 'bench method "br-tc": a row of topology bridge, not router' "a bridge row in the router" \
	bench topology router method br-tc
usage 'bench ports "2": out of range (3-17)' "ports 2" bench topology bridge ports 2
usage 'bench routes "500001": out of range (1-500000)' "routes above 500000" \
	bench topology router routes 500001
usage 'bench unknown topology "ring"' "an unknown topology" bench topology ring
usage 'bench dev: topology bridge builds namespaces of its own' "dev with topology bridge" \
	bench topology bridge dev a b c d

done_testing
