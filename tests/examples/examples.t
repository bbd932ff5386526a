#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The shipped examples do what their opening comment says.  Each runs
# in its namespace mode and must exit 0, report the traffic it counted
# (originals at the sink, copies at the monitor, bpfwd's own counters),
# and leave no namespace and no pin behind.  xconnect.sh and
# clone-tap.sh also run in device mode, on devices of a namespace this
# test makes, and must undo themselves with -d; bad arguments fail and
# change nothing.
source "$(dirname "$0")/../lib.sh"
need_bpfwd
[ -f "$BUILD/bpf/redirect.o" ] || skip_all "build/bpf/redirect.o missing: run make"

EX=$TOP/examples
export BPFWD OBJ=$BUILD/bpf/redirect.o

# packets_of OUT DEV: the first number on DEV's line of bpfwd stats text
packets_of() {
	awk -v d="$2" '$1 == d { for (i = 2; i <= NF; i++)
		if ($i ~ /^[0-9]+$/) { print $i; exit } }' <<<"$1"
}

# ports_are EXPECTED DESC: the dut's ports, "IN>OUT HOOK" comma-joined
ports_are() {
	is "$(bpfwd_ns "$dut" -j port show |
	      jq -r 'map(.dev + ">" + .to + " " + .hook) | sort | join(",")')" "$1" "$2"
}

# --- namespace mode ---

run_example xconnect
like "$OUT" "sink received 100 of 100 UDP datagrams sent to 192.0.2.2" \
	"xconnect: all UDP crossed d0 -> d1"
like "$OUT" "sink received 100 of 100 UDP datagrams sent to 198.51.100.2" \
	"xconnect: all UDP crossed d2 -> d3"
like "$OUT" "3 packets transmitted, 3 received" "xconnect: ping answered"
ge "$(packets_of "$OUT" d0)" 100 "xconnect: d0's counter moved"
ge "$(packets_of "$OUT" d2)" 100 "xconnect: d2's counter moved"
ge "$(packets_of "$OUT" d1)" 3 "xconnect: replies counted on d1"
like "$OUT" "redirect_xmit\] direct-action" "xconnect: stock tc loaded redirect_xmit"

run_example clone-tap
like "$OUT" "sink received 100 of 100 UDP datagrams \(the originals" \
	"clone-tap: the originals still reach the sink"
copies=$(sed -n 's/^monitor m1 received \([0-9]*\) frames.*/\1/p' <<<"$OUT")
ge "$copies" 106 "clone-tap: the monitor got a copy of each (UDP and ping)"
ge "$(packets_of "$OUT" d0)" 106 "clone-tap: d0's counter moved"

run_example demo
like "$OUT" "sink received 1000 of 1000 UDP datagrams; the dut's own stack saw 0" \
	"demo: all UDP forwarded past the dut's stack"
ge "$(packets_of "$OUT" d0)" 1000 "demo: d0's counter moved"
rate=$(awk '$1 == "d0" { r = $2 } END { print int(r) }' \
	<<<"$(sed -n '/interval 1 count 2/,$p' <<<"$OUT")")
ge "$rate" 1 "demo: stats interval shows a rate"

# --- device mode, on a namespace's devices ---

N=50
topo || { not_ok "topology"; done_testing; }
pins0=$(pins)

out=$(in_ns "$dut" "$EX/xconnect.sh" d0 2>&1)
is "$?" 1 "xconnect d0: odd number of ports fails"
out=$(in_ns "$dut" "$EX/xconnect.sh" d0 nosuch0 2>&1)
is "$?" 1 "xconnect d0 nosuch0: unknown device fails"
like "$out" "nosuch0: no such device" "xconnect d0 nosuch0: says which"
is "$(in_ns "$dut" tc filter show dev d0 ingress)" "" "bad arguments add no filter"
is "$(pins)" "$pins0" "bad arguments add no pin"

# a port that was there before stays, and a failed run leaves nothing
bpfwd_ns "$dut" port add dev d1 to d0 hook tc prio 7
out=$(in_ns "$dut" "$EX/xconnect.sh" d0 d1 2>&1)
is "$?" 1 "xconnect d0 d1 over an existing port d1: fails"
ports_are "d1>d0 tc" "xconnect failure: only the existing port is left"
is "$(in_ns "$dut" tc filter show dev d1 ingress | grep -c 'pref 7 ')" 2 \
	"xconnect failure: the existing port's filter stays"
is "$(in_ns "$dut" tc filter show dev d1 ingress | grep -c 'pref 100 ')" 0 \
	"xconnect failure: no filter of its own left on d1"
is "$(in_ns "$dut" tc qdisc show dev d0 | grep -c clsact)" 0 \
	"xconnect failure: no clsact left on d0"
bpfwd_ns "$dut" port del dev d1

in_ns "$dut" "$EX/xconnect.sh" d0 d1 >/dev/null 2>&1
is "$?" 0 "xconnect d0 d1: sets up"
is "$(delivered "$sink" $N)" $N "xconnect d0 d1: UDP crosses"
ports_are "d0>d1 none,d1>d0 none" "xconnect d0 d1: both directions are ports"
in_ns "$dut" "$EX/xconnect.sh" -d d0 d1 >/dev/null 2>&1
is "$?" 0 "xconnect -d d0 d1: removes"
ports_are "" "xconnect -d: no port left"
is "$(in_ns "$dut" tc qdisc show dev d0 | grep -c clsact)" 0 "xconnect -d: no clsact left"
is "$(delivered "$sink" $N)" 0 "xconnect -d: nothing crosses any more"

# tap d0 to d1: originals go on to the dut's own address, copies to sink
ip -n "$dut" addr add 192.0.2.3/24 dev d0
out=$(in_ns "$dut" "$EX/clone-tap.sh" d0 d0 2>&1)
is "$?" 1 "clone-tap d0 d0: monitor == port fails"
out=$(in_ns "$dut" "$EX/clone-tap.sh" d0 d1 sideways 2>&1)
is "$?" 1 "clone-tap d0 d1 sideways: bad direction fails"
is "$(in_ns "$dut" tc filter show dev d0 ingress)" "" "bad arguments add no filter"

bpfwd_ns "$dut" port add dev d0 to d1 hook tc prio 7
out=$(in_ns "$dut" "$EX/clone-tap.sh" d0 d1 2>&1)
is "$?" 1 "clone-tap d0 d1 over an existing port d0: fails"
ports_are "d0>d1 tc" "clone-tap failure: only the existing port is left"
is "$(in_ns "$dut" tc filter show dev d0 ingress | grep -c 'pref 7 ')" 2 \
	"clone-tap failure: the existing port's filter stays"
is "$( (in_ns "$dut" tc filter show dev d0 ingress
	in_ns "$dut" tc filter show dev d0 egress) | grep -c 'pref 10 ')" 0 \
	"clone-tap failure: no tap filter left on d0"
bpfwd_ns "$dut" port del dev d0
is "$(in_ns "$dut" tc qdisc show dev d0 | grep -c clsact)" 0 \
	"clone-tap failure: clsact goes with the last filter"

in_ns "$dut" "$EX/clone-tap.sh" d0 d1 ingress >/dev/null 2>&1
is "$?" 0 "clone-tap d0 d1 ingress: sets up"
in_ns "$gen" ping -c 1 -W 1 192.0.2.3 >/dev/null 2>&1	# ARP for .3
s_before=$(rx_packets "$sink" s0)
is "$(delivered "$dut" $N 192.0.2.3)" $N "clone-tap: the originals reach the dut's stack"
ge "$(($(rx_packets "$sink" s0) - s_before))" $N "clone-tap: the copies leave by d1"
ge "$(stats_of "$dut" d0 packets)" $N "clone-tap: d0's counter moved"
in_ns "$dut" "$EX/clone-tap.sh" -d d0 >/dev/null 2>&1
is "$?" 0 "clone-tap -d d0: removes"
ports_are "" "clone-tap -d: no port left"
is "$(in_ns "$dut" tc filter show dev d0 ingress)" "" "clone-tap -d: no filter left"
s_before=$(rx_packets "$sink" s0)
send_udp "$gen" 192.0.2.3 $N
sleep 0.2
le "$(($(rx_packets "$sink" s0) - s_before))" 0 "clone-tap -d: no more copies"

done_testing
