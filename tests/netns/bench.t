#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# A one-round, one-second bpfwd bench runs every method and prints one
# valid JSON document: every row is ok (something reached the sink) or
# skipped with a reason, and its namespaces and pins are gone afterwards,
# also when it is interrupted with ^C.  The monitor rows (OFF+mon-errors,
# OFF+mon-all) carry their comparison with OFF and leave no monitor
# program loaded.  The XDP rows are compared with xdp-fixed; TCP moves
# through every method that can carry it and tcp-xdp says why not and
# how to fix it; round trips are measured idle and under load; scale
# rows run or say why not (the ports table's size); a peer runs or
# says why not; one plot per table is written.  No rate is asserted:
# timing lives in make bench.
source "$(dirname "$0")/../lib.sh"
need_bpfwd
command -v jq >/dev/null || skip_all "jq missing"

pins() { find /sys/fs/bpf -mindepth 1 ! -name '*.debug' 2>/dev/null | sort; }
# ids of loaded monitor programs (monitor.bpf.c names them mon_*)
mon_progs() {
	bpftool -j prog show 2>/dev/null |
		jq -r '.[] | select((.name // "") | startswith("mon_")) | .id' | sort
}
# how many of them were not there before ($1): freeing them may lag
mon_new() { comm -13 <(echo "$1") <(mon_progs) | grep -c .; }
mon_gone() {
	local i
	for ((i = 0; i < 50; i++)); do
		[ "$(mon_new "$1")" = 0 ] && return 0
		sleep 0.1
	done
	return 1
}

pins0=$(pins)
mon0=$(mon_progs)
js=$("$BPFWD" -j bench rounds 1 duration 1 plot "$TMPDIR_T/b.png" 2>"$TMPDIR_T/err")
rc=$?
all_js=$js
is "$rc" 0 "bench rounds 1 duration 1 exits 0"
[ "$rc" = 0 ] || diag "$(tail -3 "$TMPDIR_T/err")"
if jq -e . >/dev/null 2>&1 <<<"$js"; then ok "bench -j prints valid JSON"; else
	not_ok "bench -j prints valid JSON"; diag "$js"; fi

all=$("$BPFWD" -j bench list | jq -r '.[].name' | sort | tr '\n' ' ')
got=$(jq -r '.methods[].name' <<<"$js" | sort | tr '\n' ' ')
is "$got" "$all" "every method has a row"
bad=$(jq -r '.methods[] | select(.status != "ok" and
	(.status != "skipped" or (.reason // "") == "")) | .name' <<<"$js")
is "$bad" "" "every row is ok, or skipped with a reason"
for m in $(jq -r '.methods[] | select(.status == "ok" and .kind == "pps") | .name' <<<"$js"); do
	ge "$(jq ".methods[] | select(.name == \"$m\") | (.mpps_median > 0 | if . then 1 else 0 end)" <<<"$js")" 1 \
		"$m: something was counted"
done
is "$(jq -r '.methods[] | select(.name == "bridge") | .ratio_to_bridge' <<<"$js")" 1 \
	"the bridge is the yardstick (ratio 1)"
# the XDP path's limit is xdp-fixed, a hard-coded XDP redirect in the
# same run: every XDP forwarding row carries its ratio to it
is "$(jq -r '.methods[] | select(.name == "xdp") | .limit' <<<"$js")" xdp-fixed \
	"the xdp row's limit is xdp-fixed"
is "$(jq -r '.methods[] | select(.name == "xdp-fixed") | .status' <<<"$js")" ok "xdp-fixed runs"
is "$(jq '[.methods[] | select(.status == "ok" and .limit == "xdp-fixed") |
	.ratio_to_limit > 0] | all' <<<"$js")" true "XDP rows carry their ratio to xdp-fixed"
is "$(jq -r '.setup.sink_napi' <<<"$js")" inline "by default the sink's NAPI runs inline"
like "$(jq -r '.setup.counted_at' <<<"$js")" "XDP counter" "by default the sink counts with XDP"
if "$BPFWD" -j probe | jq -e '.act_bpf == false' >/dev/null; then
	is "$(jq -r '.methods[] | select(.name == "act") | .status' <<<"$js")" skipped \
		"act is skipped on a kernel without act_bpf"
fi
for k in mpps_median mpps_min mpps_max ratio_to_bridge; do
	is "$(jq "[.methods[] | select(.status == \"ok\" and .kind == \"pps\") | has(\"$k\")] | all" <<<"$js")" true \
		"ok pps rows carry $k"
done
# every pps window says whether BPF statistics were on (another process
# may have them on: the dut's CPU time is then another figure), and the
# noise summary counts those windows
is "$(jq '[.methods[] | select(.kind == "pps") | .rounds[]? | has("bpf_stats")] | all' <<<"$js")" true \
	"every pps round says whether BPF statistics were on"
is "$(jq '[.methods[] | select(.kind == "pps") | .rounds[]? | select(.bpf_stats)] | length' <<<"$js")" \
	"$(jq '.noise.bpf_stats_windows' <<<"$js")" "the noise summary counts the windows with BPF statistics on"
# with threaded NAPI (two CPUs) every ok row has the dut's CPU time per
# packet; an xdp-loop row has no dut and so no ratio to the bridge
if jq -e '.setup.napi_threaded' >/dev/null <<<"$js"; then
	is "$(jq '[.methods[] | select(.status == "ok" and .kind == "pps") |
		.dut_cpu_ns_per_packet > 0] | all' <<<"$js")" true \
		"ok pps rows carry the dut's CPU time per packet"
	nocpu=$(jq -c '.methods[] | select(.status == "ok" and .kind == "pps" and
		(.dut_cpu_ns_per_packet // 0) <= 0) | {name, rounds}' <<<"$js")
	[ -z "$nocpu" ] || diag "$nocpu"
	is "$(jq -r '.methods[] | select(.name == "xdp-loop") | .status' <<<"$js")" ok \
		"xdp-loop runs"
	is "$(jq -r '.methods[] | select(.name == "xdp-loop") | .ratio_to_bridge' <<<"$js")" null \
		"xdp-loop has no ratio to the bridge"
else
	skip "no threaded NAPI here: dut CPU time not checked"
fi
# TCP through each method (iperf3), with the ratio to tcp-bridge; the
# XDP row as configured is skipped with the checksum trap and its fix,
# the row with the fix applied is measured
row() { jq -r ".methods[] | select(.name == \"$1\") | $2" <<<"$js"; }
if command -v iperf3 >/dev/null; then
	for m in tcp-bridge tcp-redirect tcp-tcx tcp-xdp-csum-off; do
		is "$(row $m .status)" ok "$m runs"
		ge "$(row $m '(.gbps_median > 0 | if . then 1 else 0 end)')" 1 \
			"$m: TCP moved data"
		is "$(row $m '.ratio_to')" tcp-bridge "$m is compared with tcp-bridge"
	done
	is "$(row tcp-xdp .status)" skipped "tcp-xdp (tx checksum offload on) is skipped"
	like "$(row tcp-xdp .reason)" "CHECKSUM_PARTIAL.*fix: ethtool -K .* tx-checksumming off" \
		"with the reason and the fix"
else
	skip "iperf3 missing: TCP rows not checked"
fi
# round trips, gen idle and sending
for m in rtt-bridge rtt-redirect rtt-tcx rtt-xdp rtt-xdp-fixed rtt-bridge-load rtt-xdp-load; do
	is "$(row $m .status)" ok "$m runs"
	ge "$(row $m '(.rtt_us_median > 0 and .rtt_us_p99 >= .rtt_us_median and .loss_pct < 50 | if . then 1 else 0 end)')" 1 \
		"$m: round trips measured (median, p99, loss)"
done
ge "$(row rtt-xdp-load '(.load_mpps_median > 0 | if . then 1 else 0 end)')" 1 \
	"rtt-xdp-load: gen's frames were forwarded meanwhile"
# scale: dummy entries in the ports table, gen's flows
is "$(row xdp-1000-ports .status)" ok "xdp with 1000 entries in the ports table runs"
is "$(row xdp-100k-ports .status)" skipped "100000 entries do not fit the ports table"
like "$(row xdp-100k-ports .reason)" "holds 1024 entries" "and it says how many do"
is "$(row xdp-16384-flows .status)" ok "xdp with 16384 flows runs"
# peers: ok, or skipped with the peer's own reason
if command -v xdp-bench >/dev/null; then
	like "$(row xdp-bench-redirect '.status + " " + (.reason // "")')" \
		"^ok|^skipped xdp-bench redirect \\(xdp-bench version" \
		"xdp-bench redirect runs, or says which version failed and how"
else
	like "$(row xdp-bench-redirect .reason)" "not found in PATH" "xdp-bench missing: said so"
fi
# one plot per table
for p in b b-tcp b-rtt b-scale; do
	[ -s "$TMPDIR_T/$p.png" ] && ok "plot $p.png written" || not_ok "plot $p.png written"
done

mon_rows='.methods[] | select(.name | test("[+]mon-(errors|all|nobulk)$"))'
ge "$(jq "[$mon_rows] | length" <<<"$js")" 4 "redirect and xdp have monitor rows"
for k in off_row ratio_to_off ns_added_per_packet gen_ratio_to_off target_measure \
	dut_cpu_ns_added target_verdict; do
	is "$(jq "[$mon_rows | select(.status == \"ok\") | has(\"$k\")] | all" <<<"$js")" true \
		"ok monitor rows carry $k"
done
is "$(jq -r "[$mon_rows | select(.status == \"ok\") |
	.off_row == (.name | sub(\"[+]mon-.*\"; \"\"))] | all" <<<"$js")" true \
	"a monitor row is compared with its row without the monitor"
if command -v bpftool >/dev/null; then
	mon_gone "$mon0" && ok "no monitor program left loaded" ||
		not_ok "no monitor program left loaded: $(mon_new "$mon0") new"
else
	skip "bpftool missing: monitor programs not checked"
fi

left=""
for ns in $(jq -r '.setup.namespaces[]' <<<"$js"); do
	[ -e "/run/netns/$ns" ] && left="$left $ns"
done
is "$left" "" "its namespaces are gone"
is "$(pins)" "$pins0" "no pins left behind"

# ^C in the middle of a round: the same cleanup
"$BPFWD" bench method redirect+mon-all,tcx rounds 3 duration 2 >/dev/null 2>"$TMPDIR_T/int" &
pid=$!
for _ in $(seq 50); do
	grep -q "round 1/3" "$TMPDIR_T/int" && break
	sleep 0.2
done
kill -INT "$pid"
wait "$pid"
is "$?" 1 "interrupted bench exits 1"
like "$(cat "$TMPDIR_T/int")" "interrupted" "and says it was interrupted"
tag=$(sed -n 's/.*bpfwd-bench-{gen,dut,sink}-\([a-z0-9]*\).*/\1/p' "$TMPDIR_T/int")
like "$tag" "^[a-z0-9]{4}$" "it named its namespaces on stderr"
left=$(ls /run/netns 2>/dev/null | grep -- "-$tag\$")
is "$left" "" "its namespaces are gone after ^C"
is "$(pins)" "$pins0" "no pins left behind after ^C"
if command -v bpftool >/dev/null; then
	mon_gone "$mon0" && ok "no monitor program left loaded after ^C" ||
		not_ok "no monitor program left loaded after ^C: $(mon_new "$mon0") new"
else
	skip "bpftool missing: monitor programs not checked"
fi

# the idle round trips run with the dut's NAPI as the kernel sets it up
# (not threaded), the pps rows with it threaded: a run of rtt-xdp (and
# so bridge and rtt-bridge) shows the dut's ingress in both states
if jq -e '.setup.napi_threaded' >/dev/null <<<"$js"; then
	"$BPFWD" bench method rtt-xdp rounds 1 duration 2 >/dev/null 2>"$TMPDIR_T/rtt" &
	pid=$!
	seen=""
	for _ in $(seq 400); do
		tag=$(sed -n 's/.*bpfwd-bench-{gen,dut,sink}-\([a-z0-9]*\).*/\1/p' "$TMPDIR_T/rtt")
		[ -n "$tag" ] && seen="$seen$(ip netns exec "bpfwd-bench-dut-$tag" \
			cat "/sys/class/net/bwi-$tag/threaded" 2>/dev/null)"
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	wait "$pid"
	is "$?" 0 "bench method rtt-xdp exits 0"
	like "$seen" "1" "the pps rows ran with the dut's NAPI threaded"
	like "$seen" "0" "the idle round trips ran with it not threaded"
else
	skip "no threaded NAPI here: the round trips' NAPI not checked"
fi

# a closed pipe (bench | head -1): stops as on ^C, the same cleanup
"$BPFWD" bench method xdp rounds 3 duration 1 2>&1 | head -1 >"$TMPDIR_T/pipe"
tag=$(sed -n 's/.*bpfwd-bench-{gen,dut,sink}-\([a-z0-9]*\).*/\1/p' "$TMPDIR_T/pipe")
like "$tag" "^[a-z0-9]{4}$" "bench | head -1: the first line names its namespaces"
for _ in $(seq 50); do
	ls /run/netns 2>/dev/null | grep -q -- "-$tag\$" || break
	sleep 0.2
done
is "$(ls /run/netns 2>/dev/null | grep -- "-$tag\$")" "" \
	"bench | head -1: its namespaces are gone when the pipe closes"
is "$(pins)" "$pins0" "no pins left behind after the pipe closed"

# device mode: four given devices of one namespace, handed back untouched
setup_ns one || not_ok "namespace"
ip -n "$one" link add d0 numtxqueues 1 numrxqueues 1 type veth peer g0 numtxqueues 1 numrxqueues 1
ip -n "$one" link add d1 numtxqueues 1 numrxqueues 1 type veth peer s0 numtxqueues 1 numrxqueues 1
for d in g0 d0 d1 s0; do ip -n "$one" link set "$d" up; done
in_ns "$one" ethtool -K d0 gro on >/dev/null
in_ns "$one" ethtool -K s0 gro on >/dev/null
# the snapshot below with the carriers settled: a veth just set up may
# still say NO-CARRIER on a busy machine, and UP after the bench
for _ in $(seq 50); do
	ip -n "$one" link show | grep -q NO-CARRIER || break
	sleep 0.1
done
# the bridge row turns br_netfilter's bridge-nf-call-* off for itself
# and puts the caller's values back
nf=/proc/sys/net/bridge/bridge-nf-call-iptables
[ -e "$nf" ] && in_ns "$one" sh -c "echo 1 > $nf"
before=$(in_ns "$one" tc qdisc show; ip -n "$one" -d link show
	 [ -e "$nf" ] && in_ns "$one" cat "$nf" /proc/sys/net/bridge/bridge-nf-call-arptables)
js=$("$BPFWD" -n "$one" -j bench dev g0 d0 d1 s0 method redirect,tcx,xdp-drop \
	rounds 1 duration 1 2>"$TMPDIR_T/err")
is "$?" 0 "bench dev g0 d0 d1 s0 exits 0"
is "$(jq -r '[.methods[] | select(.status == "ok")] | length' <<<"$js")" 5 \
	"device mode: bridge, redirect, tcx, xdp-drop and their limit tc-drop all ok"
is "$(jq -r '.setup.topology' <<<"$js")" "given devices" "device mode says so"
after=$(in_ns "$one" tc qdisc show; ip -n "$one" -d link show
	[ -e "$nf" ] && in_ns "$one" cat "$nf" /proc/sys/net/bridge/bridge-nf-call-arptables)
is "$after" "$before" "device mode leaves qdiscs, XDP, links and bridge-nf-call-* as they were"
is "$(pins)" "$pins0" "device mode leaves no pins"

# the other sink: its NAPI in a thread of its own, counting at tc
# (the tc path's monitor rows need it: the XDP counter drops every skb)
is "$(jq -r '.methods[] | select(.name == "redirect+mon-errors") | .reason' <<<"$all_js")" \
	"an skb path's monitor cost needs a sink that consumes, not drops: run it with count tc" \
	"count xdp: the tc path's monitor rows say why they skip"
js=$("$BPFWD" -j bench method redirect+mon-errors rounds 1 duration 1 sink thread count tc \
	2>"$TMPDIR_T/err")
is "$?" 0 "bench sink thread count tc exits 0"
is "$(jq -r '.setup.sink_napi' <<<"$js")" thread "sink thread: said in setup"
like "$(jq -r '.setup.counted_at' <<<"$js")" "tc ingress" "count tc: said in setup"
is "$(jq -r '[.methods[] | .status] | unique | join(",")' <<<"$js")" ok \
	"sink thread count tc: bridge, redirect and redirect+mon-errors ok"

# usage
"$BPFWD" bench sink elsewhere >/dev/null 2>&1
is "$?" 2 "sink takes inline or thread"
"$BPFWD" bench method nosuch >/dev/null 2>&1
is "$?" 2 "an unknown method is a usage error"
"$BPFWD" bench rounds 0 >/dev/null 2>&1
is "$?" 2 "rounds 0 is a usage error"
"$BPFWD" bench plot out.jpg >/dev/null 2>&1
is "$?" 2 "a plot that is not .png/.svg is a usage error"

done_testing
