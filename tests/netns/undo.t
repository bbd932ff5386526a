#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# README's "Undoing everything", step by step, on a dut with a port of
# every kind: a tc port, an XDP port and a hook none port behind a
# filter stock tc loaded.  port flush removes every port, program, link,
# qdisc it made and its pins; what stays is what README lists (the
# stock filter and its clsact, tc's stock table pins), and README's
# commands remove that, leaving the bpffs and the devices as before.
source "$(dirname "$0")/../lib.sh"
need_bpfwd
OBJ=$BUILD/bpf/redirect.o
[ -f "$OBJ" ] || skip_all "build/bpf/redirect.o missing: run make"

xtopo || die "topology"
in_ns "$gen" ethtool -K g0 gro on >/dev/null	# d0 takes XDP frames too
# d1's XDP port: its veth peer s0 sends full checksums (the offload trap)
in_ns "$sink" ethtool -K s0 tx off >/dev/null
pins0=$(pins)

check "tc port d0" bpfwd_ns "$dut" port add dev d0 to d1 hook tc
check "XDP port d1" bpfwd_ns "$dut" port add dev d1 to d0 hook xdp
in_ns "$dut" tc qdisc add dev d1 clsact
in_ns "$dut" tc filter add dev d1 egress bpf da obj "$OBJ" sec redirect_xmit ||
	die "stock tc filter"
ip -n "$dut" link add x0 type veth peer x1
ip -n "$dut" link set x0 up
ip -n "$dut" link set x1 up
in_ns "$dut" tc qdisc add dev x0 clsact
in_ns "$dut" tc filter add dev x0 ingress bpf da obj "$OBJ" sec redirect_xmit ||
	die "stock tc filter"
check "hook none port x0" bpfwd_ns "$dut" port add dev x0 to x1 hook none
is "$(delivered "$sink" 10)" 10 "the ports forward"

# step 1: bpfwd port flush, then port show prints nothing
check "port flush" bpfwd_ns "$dut" port flush
is "$(bpfwd_ns "$dut" port show)" "" "port show prints nothing"
is "$(xdp_prog_on "$dut" d1)" null "no XDP program left"
is "$(in_ns "$dut" tc filter show dev d0 ingress)" "" "no filter left on d0"
is "$(in_ns "$dut" tc qdisc show dev d0 | grep -c clsact)" 0 "the clsact bpfwd made is gone"
is "$(pins_left)" 0 "no pin under bpfwd/"
is "$(bpftool -j map dump pinned /sys/fs/bpf/tc/globals/bpfwd_ports | jq length)" 0 \
	"no entry left in the stock table"
is "$(delivered "$sink" 10)" 0 "nothing is forwarded any more"

# what stays is what README lists, and its commands remove it
is "$(in_ns "$dut" tc filter show dev x0 ingress | grep -c redirect_xmit)" 1 \
	"the stock tc filter stays"
is "$(pins | grep -c '/tc/globals/bpfwd_')" 2 "tc's stock table pins stay"
for d in x0 d1; do
	in_ns "$dut" tc filter del dev $d ingress
	in_ns "$dut" tc filter del dev $d egress
	in_ns "$dut" tc qdisc del dev $d clsact
done
rm /sys/fs/bpf/tc/globals/bpfwd_ports /sys/fs/bpf/tc/globals/bpfwd_stats
is "$(in_ns "$dut" tc qdisc show | grep -c clsact)" 0 "README's tc commands: no clsact left"
is "$(pins | grep -v -e '^/sys/fs/bpf/tc' -e '^/sys/fs/bpf/ip$' -e '^/sys/fs/bpf/xdp$')" \
	"$(grep -v -e '^/sys/fs/bpf/tc' -e '^/sys/fs/bpf/ip$' -e '^/sys/fs/bpf/xdp$' <<<"$pins0")" \
	"the bpffs holds what it held before, but tc's own directories"
is "$(pins | grep -c 'bpfwd_')" 0 "README's rm: no bpfwd map pinned anywhere"

done_testing
