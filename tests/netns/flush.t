#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Teardown: port flush removes every port of the namespace, also one
# whose device was deleted under it, and leaves no filter, qdisc, link
# or pin behind; another namespace's ports survive it.  An orphaned
# stock-table entry (its namespace deleted without a flush) goes with
# port del ... force.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

topo
topo b
hook2=tc
has_tcx && hook2=tcx
check "port d0 (tc)" bpfwd_ns "$dut" port add dev d0 to d1 hook tc
check "port d1 ($hook2)" bpfwd_ns "$dut" port add dev d1 to d0 hook "$hook2"
check "port in another namespace" bpfwd_ns "$dutb" port add dev d0 to d1 hook tc
ip -n "$dut" link del d0
is "$(bpfwd_ns "$dut" -j port show | jq length)" 2 "the deleted device's port is still listed"
like "$(bpfwd_ns "$dut" port show)" "detached" "show marks it detached"
check "port flush" bpfwd_ns "$dut" port flush
is "$(bpfwd_ns "$dut" -j port show | jq length)" 0 "no port left"
is "$(in_ns "$dut" tc -j qdisc show dev d1 | jq '[.[] | select(.kind == "clsact")] | length')" 0 \
	"no clsact left on d1"
cookie_dirs=$(find /sys/fs/bpf/bpfwd -mindepth 1 -maxdepth 1 -type d | wc -l)
is "$cookie_dirs" 1 "only the other namespace's pin dir remains"
is "$(bpfwd_ns "$dutb" -j port show | jq length)" 1 "the other namespace keeps its port"
is "$(delivered "$sinkb" 10 192.0.2.2 "$genb")" 10 "and it still forwards"
check "flush there too" bpfwd_ns "$dutb" port flush

# a stock (hook none) entry whose namespace went away without a flush
# blocks its ifindex for everybody until del ... force
check "hook none entry in b" bpfwd_ns "$dutb" port add dev d0 to d1 hook none
ib=$(ifindex_of "$dutb" d0)
ip netns del "$dutb"
setup_ns other
ip -n "$other" link add d1 type veth peer d0	# the peer is made first
is "$(ifindex_of "$other" d0)" "$ib" \
	"d0 has the ifindex b's d0 had"
out=$(bpfwd_ns "$other" port add dev d0 to d1 hook none 2>&1)
like "$out" "belongs to another network namespace.*port del dev d0 force" \
	"the orphaned stock entry blocks d0 and says how to recover"
out=$(bpfwd_ns "$other" port del dev d0 2>&1)
like "$out" "d0: not a port" "plain del does not take another namespace's entry"
check "del ... force removes it" bpfwd_ns "$other" port del dev d0 force
check "then the ifindex is free" bpfwd_ns "$other" port add dev d0 to d1 hook none
check "and flush cleans up" bpfwd_ns "$other" port flush
check "bpffs holds no bpfwd pins" test ! -e /sys/fs/bpf/bpfwd

done_testing
