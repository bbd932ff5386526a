#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# XDP flood: three ports of the dut in mode flood, each frame broadcast
# (BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS) to every other flood port
# and never back out of the one it came in by; a port in another group
# gets none of them, and a port leaving the flood ports nothing more.  gen (g0) -- d0 | dut | d1 -- s0 (sink) and
# d2 -- s1 (sink2), sink and sink2 without replies (blackhole routes),
# so what reaches g0 could only be gen's own frames coming back.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

N=30

topo || { not_ok topology; done_testing; }
setup_ns sink2 || { not_ok "namespace sink2"; done_testing; }
veth "$dut" d2 "$sink2" s1
# every flood port is a target: its peer needs NAPI (GRO) to take XDP
for p in "$gen g0" "$sink s0" "$sink2 s1"; do
	set -- $p
	in_ns "$1" ethtool -K "$2" gro on >/dev/null
done
in_ns "$gen" ethtool -K g0 tx off >/dev/null
in_ns "$sink" ip route add blackhole 192.0.2.1/32

# every flood port is an ingress too: the senders behind d1 and d2 keep
# tx checksum offload, so those ports need fix-offload (see xdp-csum.t)
check "flood port d0" bpfwd_ns "$dut" port add dev d0 hook xdp mode flood
for d in d1 d2; do
	check "flood port $d (fix-offload)" \
		bpfwd_ns "$dut" port add dev $d hook xdp mode flood fix-offload
done
is "$(bpfwd_ns "$dut" -j port show | jq -r '[.[] | select(.mode == "flood")] | length')" 3 \
	"port show: three flood ports"

g0=$(rx_packets "$gen" g0)
s0=$(rx_packets "$sink" s0)
s1=$(rx_packets "$sink2" s1)
is "$(delivered "$sink" $N)" $N "sink's stack got all $N"
wait_for $((s1 + N)) rx_packets "$sink2" s1
is "$(($(rx_packets "$sink2" s1) - s1))" $N "sink2 got a copy of each"
is "$(($(rx_packets "$gen" g0) - g0))" 0 "none came back out of d0 (exclude ingress)"
ge "$(stats_of "$dut" d0 packets)" $N "d0 counted them"

# groups: d2 moves to group 2, d0 and d1 stay in group 0
check "replace d2 into group 2" bpfwd_ns "$dut" port replace dev d2 mode flood group 2
is "$(bpfwd_ns "$dut" -j port show | jq -r 'map(select(.dev == "d2"))[0].group')" 2 \
	"port show: d2 in group 2"
s1=$(rx_packets "$sink2" s1)
is "$(delivered "$sink" $N)" $N "group 0: sink still gets all $N"
is "$(($(rx_packets "$sink2" s1) - s1))" 0 "group 2: sink2 gets none of group 0's"
check "replace d2 back into group 0" bpfwd_ns "$dut" port replace dev d2 mode flood group 0
s1=$(rx_packets "$sink2" s1)
send_udp "$gen" 192.0.2.2 $N
wait_for $((s1 + N)) rx_packets "$sink2" s1
is "$(($(rx_packets "$sink2" s1) - s1))" $N "group 0 again: sink2 gets a copy of each"

check "d2 leaves the group" bpfwd_ns "$dut" port del dev d2
s1=$(rx_packets "$sink2" s1)
is "$(delivered "$sink" $N)" $N "sink still gets all $N"
is "$(($(rx_packets "$sink2" s1) - s1))" 0 "sink2 gets nothing more"

check "del d0" bpfwd_ns "$dut" port del dev d0
check "del d1" bpfwd_ns "$dut" port del dev d1
is "$(pins_left)" 0 "no pin left"

done_testing
