#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Where each mode delivers, proven with counted UDP:
#  - redirect: out of the target (its tx counter moves), nowhere else;
#  - mirror: a copy out of the target, the original goes on;
#  - to-ingress: into the target's own stack, not out of it;
#  - peer: straight into the target veth's peer, skipping its xmit;
#  - neigh: routed out of the target with the neighbour's MAC; ARP
#    still answered by the router's stack;
#  - at egress: what the dut's stack sends out of d1 leaves by d0.
# Run on every hook this kernel has (tc, tcx).
source "$(dirname "$0")/../lib.sh"
need_bpfwd

N=40
for hook in $(tc_hooks); do
	# redirect: d1 transmits them, sink's stack gets them
	topo
	bpfwd_ns "$dut" port add dev d0 to d1 hook "$hook"
	tx0=$(tx_packets "$dut" d1)
	is "$(delivered "$sink" $N)" $N "$hook redirect: sink's stack got $N"
	is "$(($(tx_packets "$dut" d1) - tx0))" $N "$hook redirect: d1 transmitted $N"
	topo_del

	# to-ingress: the dut's own stack receives them as if from d1
	topo
	in_ns "$dut" ip addr add 192.0.2.2/24 dev d1
	# its port-unreachable replies must not leave by d1 either
	in_ns "$dut" ip route add blackhole 192.0.2.1/32
	ip -n "$gen" neigh replace 192.0.2.2 lladdr "$(mac_of "$dut" d1)" dev g0
	bpfwd_ns "$dut" port add dev d0 to d1 to-ingress hook "$hook"
	s0=$(udp_noports "$sink")
	tx0=$(tx_packets "$dut" d1)
	is "$(delivered "$dut" $N)" $N "$hook to-ingress: the target's stack got $N"
	is "$(($(udp_noports "$sink") - s0))" 0 "$hook to-ingress: none left by d1 to the sink"
	is "$(($(tx_packets "$dut" d1) - tx0))" 0 "$hook to-ingress: d1 transmitted none"
	topo_del

	# mirror: a copy out of d1 to the sink, the original on to the
	# dut's own stack (gen talks to the dut itself)
	topo
	in_ns "$dut" ip addr add 192.0.2.9/24 dev d0
	in_ns "$dut" ip route add blackhole 192.0.2.1/32
	ip -n "$gen" neigh replace 192.0.2.9 lladdr "$(mac_of "$dut" d0)" dev g0
	bpfwd_ns "$dut" port add dev d0 to d1 mode mirror hook "$hook"
	rx0=$(rx_packets "$sink" s0)
	is "$(delivered "$dut" $N 192.0.2.9)" $N "$hook mirror: the originals reached the dut's stack"
	is "$(($(rx_packets "$sink" s0) - rx0))" $N "$hook mirror: the copies reached the sink"
	is "$(stats_of "$dut" d0 dropped)" 0 "$hook mirror: nothing dropped"
	topo_del

	# peer: into s0 in the sink namespace, d1's xmit skipped
	topo
	bpfwd_ns "$dut" port add dev d0 to d1 mode peer hook "$hook"
	tx0=$(tx_packets "$dut" d1)
	is "$(delivered "$sink" $N)" $N "$hook peer: sink's stack got $N"
	is "$(($(tx_packets "$dut" d1) - tx0))" 0 "$hook peer: d1's own xmit skipped"
	topo_del

	# neigh: a router port; gen resolves the router by ARP through it
	topo
	in_ns "$dut" ip addr add 192.0.2.254/24 dev d0
	in_ns "$dut" ip addr add 198.51.100.1/24 dev d1
	in_ns "$sink" ip addr add 198.51.100.2/24 dev s0
	in_ns "$gen" ip route add 198.51.100.0/24 via 192.0.2.254
	in_ns "$dut" ip neigh replace 198.51.100.2 lladdr "$(mac_of "$sink" s0)" dev d1 nud permanent
	bpfwd_ns "$dut" port add dev d0 to d1 mode neigh hook "$hook"
	is "$(delivered "$sink" $N 198.51.100.2)" $N "$hook neigh: sink's stack got $N routed datagrams"
	like "$(in_ns "$gen" ip neigh show 192.0.2.254)" "lladdr $(mac_of "$dut" d0)" \
		"$hook neigh: ARP for the router was answered by its stack"
	is "$(in_ns "$dut" sysctl -n net.ipv4.ip_forward)" 0 \
		"$hook neigh: the dut's stack does not forward (bpfwd did)"
	topo_del

	# at egress: the dut's stack sends to 198.51.100.2 via d1; the
	# program on d1's egress sends it out of d0 to gen instead
	topo
	in_ns "$dut" ip addr add 198.51.100.1/24 dev d1
	in_ns "$dut" ip neigh replace 198.51.100.2 lladdr "$(mac_of "$sink" s0)" dev d1 nud permanent
	bpfwd_ns "$dut" port add dev d1 to d0 at egress hook "$hook"
	rx0=$(rx_packets "$gen" g0)
	srx0=$(rx_packets "$sink" s0)
	send_udp "$dut" 198.51.100.2 $N
	is "$(($(rx_packets "$gen" g0) - rx0))" $N "$hook at egress: gen received $N"
	is "$(($(rx_packets "$sink" s0) - srx0))" 0 "$hook at egress: sink received none"
	topo_del
done
has_tcx || skip "tcx: this kernel has no tcx (needs 6.6)"

done_testing
