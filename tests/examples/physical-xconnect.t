#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# examples/physical-xconnect.sh does what its opening comment says, with
# two veth pairs standing in for the NICs: its namespace run forwards
# counted traffic on the default hook and on XDP and leaves nothing
# behind; run on two devices it turns promiscuous mode on, adds both
# ports and traffic crosses, -d takes it all away; it refuses a bridge
# port, a missing device, one device twice or one device alone, and
# then changes nothing.
source "$(dirname "$0")/../lib.sh"
need_bpfwd
command -v ethtool >/dev/null || skip_all "ethtool missing"

EX=$TOP/examples/physical-xconnect.sh
export BPFWD
N=50

run_example physical-xconnect
like "$OUT" "sink received 100 of 100 UDP datagrams" "namespace run: all UDP crossed"
like "$OUT" "d0 to d1 mode redirect" "namespace run: port d0 to d1"
like "$OUT" "d1 to d0 mode redirect" "namespace run: port d1 to d0"
HOOK=xdp run_example physical-xconnect
like "$OUT" "d0 to d1 mode redirect hook xdp" "namespace run, HOOK=xdp: XDP ports"
like "$OUT" "sink received 100 of 100 UDP datagrams" "namespace run, HOOK=xdp: all UDP crossed"

# promisc_of NS DEV: whether DEV is in promiscuous mode
promisc_of() {
	ip -n "$1" -j link show "$2" | jq '.[0].flags | index("PROMISC") != null'
}

# nothing_changed DESC: no port, no promiscuous mode, no pin in the dut
nothing_changed() {
	is "$(bpfwd_ns "$dut" -j port show | jq length)" 0 "$1: no port"
	is "$(promisc_of "$dut" d0) $(promisc_of "$dut" d1)" "false false" \
		"$1: promiscuous mode off"
	is "$(pins)" "$pins0" "$1: no pin"
}

topo || die "topology"
pins0=$(pins)

out=$(in_ns "$dut" "$EX" d0 2>&1)
is "$?" 1 "one device: fails"
like "$out" "two devices" "one device: says what it takes"
nothing_changed "one device"
out=$(in_ns "$dut" "$EX" d0 d0 2>&1)
is "$?" 1 "d0 d0: fails"
like "$out" "the same device twice" "d0 d0: says why"
out=$(in_ns "$dut" "$EX" d0 nosuch0 2>&1)
is "$?" 1 "d0 nosuch0: fails"
like "$out" "nosuch0: no such device" "d0 nosuch0: says which"
nothing_changed "bad devices"

ip -n "$dut" link add br0 type bridge
ip -n "$dut" link set d1 master br0
out=$(in_ns "$dut" "$EX" d0 d1 2>&1)
is "$?" 1 "a bridge port: refused"
like "$out" "d1 is a port of br0: .*ip link set d1 nomaster" \
	"a bridge port: says why and what to do"
nothing_changed "a bridge port"
ip -n "$dut" link set d1 nomaster
ip -n "$dut" link del br0

# d1 is a port already: the script fails and leaves only that one
bpfwd_ns "$dut" port add dev d1 to d0 hook tc prio 7
out=$(in_ns "$dut" "$EX" d0 d1 2>&1)
is "$?" 1 "d1 already a port: fails"
is "$(bpfwd_ns "$dut" -j port show | jq -r 'map(.dev + ">" + .to) | join(",")')" \
	"d1>d0" "d1 already a port: only that port is left"
is "$(promisc_of "$dut" d0) $(promisc_of "$dut" d1)" "false false" \
	"d1 already a port: promiscuous mode off again"
bpfwd_ns "$dut" port del dev d1

out=$(in_ns "$dut" "$EX" d0 d1 2>&1)
is "$?" 0 "d0 d1: sets up"
[ "$?" = 0 ] || diag "$out"
is "$(promisc_of "$dut" d0) $(promisc_of "$dut" d1)" "true true" \
	"d0 d1: promiscuous mode on both"
is "$(bpfwd_ns "$dut" -j port show | jq -r 'map(.dev + ">" + .to) | sort | join(",")')" \
	"d0>d1,d1>d0" "d0 d1: a port each way"
like "$out" "# bpfwd port show" "d0 d1: shows the ports"
like "$out" "remove with: .* -d d0 d1" "d0 d1: says how to undo"
is "$(delivered "$sink" $N)" $N "d0 d1: UDP crosses"
ge "$(stats_of "$dut" d0 packets)" $N "d0 d1: d0's counter moved"

out=$(in_ns "$dut" "$EX" -d d0 d1 2>&1)
is "$?" 0 "-d d0 d1: removes"
nothing_changed "-d d0 d1"
is "$(delivered "$sink" $N)" 0 "-d d0 d1: nothing crosses any more"

done_testing
