#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The tc:tc_redirect / tc:tc_redirect_err tracepoints and the
# TC_REDIRECT_* drop reasons of kernel/patches/, one failure class at a
# time. Stock tc loads the lane's own object (progs/vmtest_redir.bpf.c),
# whose programs redirect everything to ifindex 100, so each class is made
# by what ifindex 100 is: a healthy veth, a down one, none, a dummy
# without a peer. Runs in the vmtest guest; on a kernel without the
# patches (stock 6.1, 6.12, most hosts) it skips with the reason.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/vmlib.sh"

has_event tc/tc_redirect_err ||
	skip_all "kernel $(uname -r) has no tc:tc_redirect_err (needs kernel/patches)"
need_obj

N=5
ENODEV=-19 EINVAL=-22 ENETDOWN=-100

# net TARGET_KIND: gen --g0|d0-- dut --d1(index 100)|s0-- sink, or with
# TARGET_KIND=dummy a dummy device as ifindex 100 (no peer).
net() {
	topo_del
	setup_ns gen dut sink
	ip -n "$dut" link add d0 type veth peer g0 netns "$gen"
	if [ "$1" = dummy ]; then
		ip -n "$dut" link add d1 index 100 type dummy
	else
		ip -n "$dut" link add d1 index 100 type veth peer s0 netns "$sink"
		ip -n "$sink" addr add 192.0.2.2/24 dev s0
		ip -n "$sink" link set s0 up
	fi
	ip -n "$dut" link set d0 up
	ip -n "$dut" link set d1 up
	ip -n "$gen" addr add 192.0.2.1/24 dev g0
	ip -n "$gen" link set g0 up
	ip -n "$gen" neigh replace 192.0.2.2 lladdr 02:00:00:00:00:02 dev g0 nud permanent
	D0=$(ifindex_of "$dut" d0)
}

# attach SEC: the object's section SEC on d0's ingress, by stock tc
attach() {
	in_ns "$dut" tc qdisc add dev d0 clsact &&
	in_ns "$dut" tc filter add dev d0 ingress bpf da obj "$VMTEST_OBJ" sec "$1"
}

ev() { echo "tc_redirect$1: ifindex=$D0 to_ifindex=100 flags=$2 err=$3\$"; }

# healthy forwarding: tc_redirect for each packet, tc_redirect_err silent
net veth
check "stock tc loads vm_redir" attach vm_redir
trace_start tc/tc_redirect tc/tc_redirect_err
r0=$(rx_packets "$sink" s0)
send_udp "$gen" 192.0.2.2 $N
trace_stop
is "$(($(rx_packets "$sink" s0) - r0))" $N "healthy: sink got $N"
is "$(trace_count "$(ev "" 0x0 0)")" $N "healthy: $N tc_redirect events"
is "$(trace_count 'tc_redirect_err:')" 0 "healthy: tc_redirect_err stays silent"

# target down
in_ns "$dut" ip link set d1 down
trace_start tc/tc_redirect_err skb/kfree_skb
send_udp "$gen" 192.0.2.2 $N
trace_stop
is "$(trace_count "$(ev _err 0x0 $ENETDOWN)")" $N "target down: $N tc_redirect_err err=$ENETDOWN"
is "$(trace_count 'kfree_skb:.*reason: TC_REDIRECT_DEV_DOWN')" $N "target down: drop reason TC_REDIRECT_DEV_DOWN"
trace_show 2

# target gone
in_ns "$dut" ip link del d1
trace_start tc/tc_redirect_err skb/kfree_skb
send_udp "$gen" 192.0.2.2 $N
trace_stop
is "$(trace_count "$(ev _err 0x0 $ENODEV)")" $N "target gone: $N tc_redirect_err err=$ENODEV"
is "$(trace_count 'kfree_skb:.*reason: TC_REDIRECT_NODEV')" $N "target gone: drop reason TC_REDIRECT_NODEV"

# ingress redirect (BPF_F_INGRESS) to a down target
net veth
check "stock tc loads vm_redir_ingress" attach vm_redir_ingress
in_ns "$dut" ip link set d1 down
trace_start tc/tc_redirect_err skb/kfree_skb
send_udp "$gen" 192.0.2.2 $N
trace_stop
is "$(trace_count "$(ev _err 0x1 $ENETDOWN)")" $N "ingress, target down: $N tc_redirect_err flags=0x1 err=$ENETDOWN"

# bpf_redirect_peer() to a device without a peer
net dummy
check "stock tc loads vm_redir_peer" attach vm_redir_peer
trace_start tc/tc_redirect_err skb/kfree_skb
send_udp "$gen" 192.0.2.2 $N
trace_stop
is "$(trace_count "$(ev _err 0x20000 $EINVAL)")" $N "peer, no peer device: $N tc_redirect_err err=$EINVAL"
is "$(trace_count 'kfree_skb:.*reason: TC_REDIRECT_PEER')" $N "peer, no peer device: drop reason TC_REDIRECT_PEER"

# bpf_clone_redirect() to a missing target: reported, original goes on
net veth
check "stock tc loads vm_clone" attach vm_clone
in_ns "$dut" ip link del d1
trace_start tc/tc_redirect_err
send_udp "$gen" 192.0.2.2 $N
trace_stop
is "$(trace_count "$(ev _err 0x80000 $ENODEV)")" $N "clone, target gone: $N tc_redirect_err flags=0x80000 err=$ENODEV"

# and bpfwd's own ports, when bpfwd is built: errors only on failure
if [ -x "$BPFWD" ]; then
	topo_del
	topo
	bpfwd_ns "$dut" port add dev d0 to d1 hook tc
	trace_start tc/tc_redirect_err
	send_udp "$gen" 192.0.2.2 $N
	is "$(trace_count 'tc_redirect_err:')" 0 "bpfwd port: healthy forwarding, no tc_redirect_err"
	d1=$(ifindex_of "$dut" d1)
	D0=$(ifindex_of "$dut" d0)
	in_ns "$dut" ip link del d1
	echo >"$TRACEFS/trace"
	send_udp "$gen" 192.0.2.2 $N
	trace_stop
	is "$(trace_count "tc_redirect_err: ifindex=$D0 to_ifindex=$d1 flags=0x0 err=$ENODEV")" $N \
		"bpfwd port, target deleted: $N tc_redirect_err err=$ENODEV"
else
	skip "bpfwd port errors: build/bpfwd missing"
fi

done_testing
