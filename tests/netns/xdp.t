#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# XDP ports forward real traffic gen -> dut -> sink in every mode, with
# the counts to prove it: redirect and map (devmap) in native and
# generic mode, cpumap on to d1 and cpumap to the dut's own stack, the
# cpumap work seen on the CPUs asked for and no other, replace moving a
# port between modes and CPUs, and del leaving no program and no pin.
#
# Every topology is lib.sh's xtopo: native XDP redirect into d1 needs
# NAPI on its peer s0 (GRO on), and g0 sends full checksums.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

N=40
NCPU=$(nproc)

# forward MODE XDP_MODE ARGS...: gen's UDP reaches the sink through d0
forward() {
	local mode=$1 xmode=$2 d0_in
	shift 2
	xtopo || { not_ok "topology"; return; }
	if ! bpfwd_ns "$dut" port add dev d0 to d1 hook xdp mode "$mode" \
		xdp-mode "$xmode" "$@"; then
		not_ok "$mode/$xmode: port add"
		topo_del
		return
	fi
	is "$(xdp_prog_on "$dut" d0)" "xdp_$([ "$mode" = map ] && echo devmap || echo redirect)" \
		"$mode/$xmode: bpfwd's program is on d0"
	is "$(bpfwd_ns "$dut" -j port show dev d0 | jq -r '.[0] | "\(.hook) \(.mode) \(.xdp_mode) \(.attached)"')" \
		"xdp $mode $xmode true" "$mode/$xmode: port show"
	d0_in=$(ip_inreceives "$dut")
	is "$(delivered "$sink" $N)" $N "$mode/$xmode: $N datagrams reach the sink's stack"
	ge "$(stats_of "$dut" d0 packets)" $N "$mode/$xmode: the port counted them"
	is "$(($(ip_inreceives "$dut") - d0_in))" 0 "$mode/$xmode: the dut's stack saw none"
	check "$mode/$xmode: port del" bpfwd_ns "$dut" port del dev d0
	is "$(xdp_prog_on "$dut" d0)" null "$mode/$xmode: del leaves no XDP program"
	is "$(pins_left)" 0 "$mode/$xmode: del leaves no pin"
	topo_del
}

forward redirect native
forward map native
forward redirect generic
forward map generic

# cpumap_of NS DEV CPU FIELD: a figure of the port's cpumap side on CPU
cpumap_of() {
	bpfwd_ns "$1" -j stats dev "$2" |
		jq "[.[0].cpumap[]? | select(.cpu == $3) | $4] | add // 0"
}
# cpumap_elsewhere NS DEV: packets the cpumap side ran on unlisted CPUs
cpumap_elsewhere() {
	bpfwd_ns "$1" -j stats dev "$2" |
		jq '[.[0].cpumap[]? | select(.listed | not) | .packets] | add // 0'
}

# cpumap then to OUT, on the last CPU only
last=$((NCPU - 1))
xtopo
if bpfwd_ns "$dut" port add dev d0 hook xdp cpus $last to d1; then
	is "$(delivered "$sink" $N)" $N "cpumap to d1: $N datagrams reach the sink"
	is "$(cpumap_of "$dut" d0 $last .redirected)" $N "cpumap to d1: cpu$last sent all $N on"
	is "$(cpumap_elsewhere "$dut" d0)" 0 "cpumap to d1: no other CPU did any"
	ge "$(cpumap_of "$dut" d0 $last .kthread.processed)" $N \
		"cpumap to d1: cpu$last's kthread processed them (tracepoint)"
	is "$(bpfwd_ns "$dut" -j port show | jq -r '.[0] | "\(.mode) \(.cpus) \(.qsize) \(.then)"')" \
		"cpumap $last 2048 redirect" "cpumap to d1: port show"

	# replace: to CPU 0 with another queue size; the new work lands there
	check "replace cpus 0 qsize 512" bpfwd_ns "$dut" port replace dev d0 cpus 0 qsize 512 to d1
	before=$(cpumap_of "$dut" d0 0 .redirected)
	is "$(delivered "$sink" $N)" $N "replaced cpumap: $N more reach the sink"
	is "$(($(cpumap_of "$dut" d0 0 .redirected) - before))" $N "replaced cpumap: cpu0 did them"
	is "$(bpfwd_ns "$dut" -j port show | jq -r '.[0] | "\(.cpus) \(.qsize)"')" "0 512" \
		"replaced cpumap: port show"

	# replace to mode map and back to redirect: no datagram lost
	check "replace to mode map" bpfwd_ns "$dut" port replace dev d0 to d1 mode map
	is "$(xdp_prog_on "$dut" d0)" xdp_devmap "replace to map: the program was swapped"
	is "$(delivered "$sink" $N)" $N "replaced to map: $N reach the sink"
	check "port del" bpfwd_ns "$dut" port del dev d0
	is "$(pins_left)" 0 "cpumap: del leaves no pin (maps, kthread link)"
else
	not_ok "cpumap: port add"
fi
topo_del

# cpumap then pass: the dut's own stack gets them, built on the chosen CPU
xtopo
in_ns "$dut" ip addr add 192.0.2.3/24 dev d0
ip -n "$gen" neigh replace 192.0.2.3 lladdr "$(mac_of "$dut" d0)" dev g0 nud permanent
if bpfwd_ns "$dut" port add dev d0 hook xdp cpus 0 then pass; then
	s0=$(udp_noports "$sink")
	is "$(delivered "$dut" $N 192.0.2.3)" $N "cpumap pass: the dut's stack got $N"
	is "$(($(udp_noports "$sink") - s0))" 0 "cpumap pass: none left by d1"
	ge "$(cpumap_of "$dut" d0 0 .passed)" $N "cpumap pass: cpu0 passed them (and the ARP reply)"
	is "$(cpumap_elsewhere "$dut" d0)" 0 "cpumap pass: no other CPU did any"
	check "cpumap pass: del" bpfwd_ns "$dut" port del dev d0
else
	not_ok "cpumap pass: port add"
fi
topo_del

# tc_part: the dut's tc programs on d0: tcx link pins, tc filters
tc_part() {
	{ find /sys/fs/bpf/bpfwd -name 'link_*_ingress' 2>/dev/null
	  in_ns "$dut" tc filter show dev d0 ingress; } | grep -c .
}

# cpumap then pass to OUT: skbs built on the chosen CPU, then the tc
# redirect of redirect.o (tcx where the kernel has it) sends them on
xtopo
if bpfwd_ns "$dut" port add dev d0 hook xdp cpus 0 then pass to d1; then
	d0_in=$(ip_inreceives "$dut")
	is "$(delivered "$sink" $N)" $N "cpumap pass to d1: $N reach the sink"
	is "$(cpumap_of "$dut" d0 0 .passed)" $N "cpumap pass to d1: cpu0 built the skbs"
	is "$(cpumap_elsewhere "$dut" d0)" 0 "cpumap pass to d1: no other CPU did any"
	is "$(stats_of "$dut" d0 packets)" $N "cpumap pass to d1: counted once (by tc)"
	is "$(($(ip_inreceives "$dut") - d0_in))" 0 "cpumap pass to d1: the dut's IP stack saw none"
	like "$(bpfwd_ns "$dut" port show dev d0)" "then pass and tc[x]? redirect" \
		"cpumap pass to d1: port show"
	ge "$(tc_part)" 1 "cpumap pass to d1: a tc program on d0"
	check "cpumap pass to d1: del" bpfwd_ns "$dut" port del dev d0
	is "$(tc_part)" 0 "cpumap pass to d1: del removes the tc program too"
	is "$(pins_left)" 0 "cpumap pass to d1: no pin left"
else
	not_ok "cpumap pass to d1: port add"
fi
topo_del

# spread over every CPU: many flows (each datagram its own source port)
if [ "$NCPU" -ge 2 ]; then
	xtopo
	bpfwd_ns "$dut" port add dev d0 hook xdp cpus "0-$last" to d1
	is "$(delivered "$sink" $((N * 2)))" $((N * 2)) "cpumap 0-$last: all reach the sink"
	busy=$(bpfwd_ns "$dut" -j stats dev d0 | jq '[.[0].cpumap[] | select(.packets > 0)] | length')
	is "$busy" "$NCPU" "cpumap 0-$last: flows spread over all $NCPU CPUs"
	check "cpumap 0-$last: del" bpfwd_ns "$dut" port del dev d0
	topo_del
else
	skip "cpumap spread: one CPU only"
fi

# rates_under_traffic OUT ARGS...: bpfwd ARGS in the background while
# gen sends (many flows), until it exits; its output in OUT, its status
rates_under_traffic() {
	local out=$1 pid
	shift
	bpfwd_ns "$dut" "$@" >"$out" 2>&1 &
	pid=$!
	on_exit "kill $pid"
	while kill -0 $pid 2>/dev/null; do
		send_udp "$gen" 192.0.2.2 10
		sleep 0.05
	done
	wait $pid
}
# stats interval: the cpumap side's rates per CPU, the kthread's too,
# in text and JSON, under the one-shot names with _per_sec (a key means
# one thing: a count, or a rate)
xtopo
if bpfwd_ns "$dut" port add dev d0 hook xdp cpus "0-$last" to d1; then
	R=$TMPDIR_T/rates
	rates_under_traffic "$R" -j stats dev d0 interval 1 count 2
	is "$?" 0 "stats interval: exits 0 after count 2"
	is "$(jq -s length "$R")" 2 "stats interval: two JSON objects"
	# the last interval had traffic all through
	rates=$(jq -cs 'last | .rates[0]' "$R")
	is "$(jq -c '[.cpumap[]?.cpu]' <<<"$rates")" \
		"$(jq -cn "[range($NCPU)]")" "stats interval: a cpumap rate row per listed CPU"
	is "$(jq '[.cpumap[]? | select(.listed and .packets_per_sec > 0 and .redirected_per_sec > 0)] | length' <<<"$rates")" \
		"$NCPU" "stats interval: every listed CPU's cpumap program rate moved"
	is "$(jq '[.cpumap[]? | select(.kthread.processed_per_sec > 0)] | length' <<<"$rates")" \
		"$NCPU" "stats interval: every listed CPU's kthread processed rate moved"
	is "$(jq -c '[.cpumap[0] | keys[] | select(IN("cpu", "listed", "kthread") | not)]' <<<"$rates")" \
		'["err_redirect_per_sec","no_cpu_per_sec","packets_per_sec","passed_per_sec","redirected_per_sec"]' \
		"stats interval: the cpumap program's rates, under NAME_per_sec"
	is "$(jq -c '[.cpumap[0] | .kthread | keys[]]' <<<"$rates")" \
		'["drops_per_sec","processed_per_sec","sched_per_sec"]' "stats interval: the kthread's rates, under NAME_per_sec"
	rates_under_traffic "$R" stats dev d0 interval 1 count 1
	is "$(grep -Ec '^ +cpumap cpu[0-9]+: packets/s [1-9][0-9]* .*kthread processed/s [1-9]' "$R")" \
		"$NCPU" "stats interval text: a moving rate line per listed CPU"
	# percpu: the same rows per CPU, as rates
	rates_under_traffic "$R" -j stats dev d0 interval 1 count 1 percpu
	ge "$(jq -s '[last | .rates[0].cpus[]? | select(.packets_per_sec > 0)] | length' "$R")" 1 \
		"stats interval percpu: per-CPU packet rates"
	# a port deleted and added again between two reads: its counters
	# start from zero, and the rate is what they counted since, not a
	# difference wrapped around 2^64
	send_udp "$gen" 192.0.2.2 200
	before=$(stats_of "$dut" d0 packets)
	bpfwd_ns "$dut" -j stats dev d0 interval 1 count 2 >"$R" 2>&1 &
	pid=$!
	on_exit "kill $pid"
	sleep 1.4
	bpfwd_ns "$dut" port del dev d0
	bpfwd_ns "$dut" port add dev d0 hook xdp cpus "0-$last" to d1
	send_udp "$gen" 192.0.2.2 10
	wait $pid
	le "$(stats_of "$dut" d0 packets)" $((before - 1)) "re-added port: its counters start again"
	is "$(jq -s '[last | .rates[] | .. | numbers | select(. < 0 or . > 1e12)] | length' "$R")" 0 \
		"stats interval across a re-added port: no wrapped-around rate"
	check "stats interval: del" bpfwd_ns "$dut" port del dev d0
else
	not_ok "stats interval: port add"
fi
topo_del

# generic mode cpumap: skbs queued to the CPU, sent on as skbs (no GRO
# needed on s0)
topo
in_ns "$gen" ethtool -K g0 tx off >/dev/null	# no GRO on s0: generic XDP sends skbs
if bpfwd_ns "$dut" port add dev d0 hook xdp cpus $last to d1 xdp-mode generic; then
	is "$(delivered "$sink" $N)" $N "generic cpumap: $N reach the sink"
	is "$(cpumap_of "$dut" d0 $last .redirected)" $N "generic cpumap: cpu$last sent them on"
	is "$(cpumap_elsewhere "$dut" d0)" 0 "generic cpumap: no other CPU did any"
	check "generic cpumap: del" bpfwd_ns "$dut" port del dev d0
else
	not_ok "generic cpumap: port add"
fi
topo_del

# replace under a steady stream: redirect, map and cpumap, to d1 and to a
# second way to the sink (d2 -- s1), swapped many times; the sink must
# count every datagram (a window without program or entry would lose)
xtopo
veth "$dut" d2 "$sink" s1
in_ns "$sink" ethtool -K s1 gro on >/dev/null
in_ns "$sink" sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.s1.rp_filter=0
ip -n "$gen" neigh replace 192.0.2.2 lladdr ff:ff:ff:ff:ff:ff dev g0 nud permanent
bpfwd_ns "$dut" port add dev d0 to d1 hook xdp
# a port of mode redirect or map runs a copy loaded for it (the target is
# a load-time constant): a replace of the target swaps in a new copy
id0=$(ip -n "$dut" -j -d link show d0 | jq '.[0].xdp.prog.id')
check "replace the target (same mode)" bpfwd_ns "$dut" port replace dev d0 to d2
id1=$(ip -n "$dut" -j -d link show d0 | jq '.[0].xdp.prog.id')
check "replace the target: another program copy swapped in ($id0 -> $id1)" \
	test "$id0" != "$id1"
s1=$(rx_packets "$sink" s1)
is "$(delivered "$sink" $N)" $N "replace the target: $N reach the sink"
ge "$(($(rx_packets "$sink" s1) - s1))" $N "replace the target: by the new way (d2 -- s1)"
check "replace the target back" bpfwd_ns "$dut" port replace dev d0 to d1
# ring_drops: frames the veth rings on the way had no room for (a loaded
# machine starves their NAPI threads); a replace window would instead
# pass frames to the dut's stack
ring_drops() {
	local n=0 v d
	v=$(ip -n "$gen" -s -j link show g0 | jq '.[0].stats64.tx.dropped')
	n=$((n + v))
	for d in d1 d2; do
		v=$(in_ns "$dut" ethtool -S $d | awk '/tx_queue_0_xdp_xmit_errors:/ { print $2 }')
		n=$((n + v))
		v=$(ip -n "$dut" -s -j link show $d | jq '.[0].stats64.tx.dropped')
		n=$((n + v))
	done
	for d in s0 s1; do
		v=$(in_ns "$sink" ethtool -S $d | awk '/rx_queue_0_drops:/ { print $2 }')
		n=$((n + v))
	done
	echo $n
}
u0=$(udp_noports "$sink")
r0=$(ring_drops)
i0=$(ip_inreceives "$dut")
M=8000
replace_while_sending $M "to d2 mode map" "to d1 mode map" "cpus 0 to d1" \
	"cpus $last to d2" "to d1 mode redirect" "to d2" "to d1"
# a cpumap kthread (nice 0) may wait long on a machine busy with nice -20
# work (a bench): up to 20 s for the last frames
for i in 1 2 3 4; do
	wait_for $((u0 + M - $(ring_drops) + r0)) udp_noports "$sink" && break
done
got=$(($(udp_noports "$sink") - u0))
drops=$(($(ring_drops) - r0))
diag "$swaps replaces during the stream; $got at the sink, $drops dropped by full rings"
ge "$swaps" 4 "replace under traffic: every mode came round while traffic flowed"
is "$fails" 0 "replace under traffic: every replace succeeded"
# a frame can show in two of the drop counters (veth counts an
# ndo_xdp_xmit error in its tx_dropped too), so: none lost, none doubled
le "$got" $M "replace under traffic: the sink got no frame twice"
ge "$((got + drops))" $M "replace under traffic: each of $M reached the sink or a full ring"
is "$(($(ip_inreceives "$dut") - i0))" 0 "replace under traffic: none fell through to the dut's stack"
check "replace under traffic: del" bpfwd_ns "$dut" port del dev d0
is "$(pins_left)" 0 "replace under traffic: no pin left"
topo_del

# flush takes XDP ports away like any other, programs and pins with them
xtopo
bpfwd_ns "$dut" port add dev d0 hook xdp cpus 0 to d1
bpfwd_ns "$dut" port add dev d1 to d0 hook xdp xdp-mode generic fix-offload
is "$(bpfwd_ns "$dut" -j port show | jq length)" 2 "flush: two XDP ports"
check "flush" bpfwd_ns "$dut" port flush
is "$(xdp_prog_on "$dut" d0) $(xdp_prog_on "$dut" d1)" "null null" "flush: no XDP program left"
is "$(pins_left)" 0 "flush: no pin left"
topo_del

done_testing
