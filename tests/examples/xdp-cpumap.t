#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# examples/xdp-cpumap.sh in its namespace mode: it exits 0, every
# datagram reaches the sink (then on to d1) and the dut's stack (then
# pass), the per-CPU figures show the cpumap program and the kthread at
# work on every CPU (many flows), and no namespace or pin is left.  Then
# its device mode on a namespace of this test: add, -d, bad arguments.
source "$(dirname "$0")/../lib.sh"
need_bpfwd
command -v ethtool >/dev/null || skip_all "ethtool missing"

export BPFWD
run_example xdp-cpumap
like "$OUT" "sink received 200 of 200 datagrams" "then to d1: all reach the sink"
like "$OUT" "the dut's stack received 2[0-9][0-9] of 200 datagrams" \
	"then pass: all reach the dut's stack"
ncpu=$(nproc)
is "$(grep -c '^  cpu[0-9]*: [1-9][0-9]* frames.*kthread processed [1-9]' <<<"$OUT")" \
	$((ncpu * 2)) "per-CPU lines: every CPU and its kthread did work, both runs"
like "$OUT" "cpumap cpu0: packets" "bpfwd stats prints the cpumap figures"

# device mode, on devices of a namespace of this test (xtopo: g0 sends
# full checksums, or port add refuses the veth offload trap): adds the
# port and leaves it; -d removes it; a missing CPU list changes nothing
xtopo || { not_ok topology; done_testing; }
in_ns "$dut" "$TOP/examples/xdp-cpumap.sh" d0 0 d1 >/dev/null
is "$?" 0 "device mode: adds d0 on cpu 0 to d1"
is "$(bpfwd_ns "$dut" -j port show | jq -r '.[0] | "\(.dev) \(.mode) \(.cpus) \(.to) \(.attached)"')" \
	"d0 cpumap 0 d1 true" "device mode: the port is there"
out=$(in_ns "$dut" "$TOP/examples/xdp-cpumap.sh" d1 2>&1)
is "$?" 1 "device mode without CPUS: exit 1"
like "$out" "usage: .* IN CPUS \[OUT\]" "device mode without CPUS: says the usage"
check "-d removes it" in_ns "$dut" "$TOP/examples/xdp-cpumap.sh" -d d0
is "$(bpfwd_ns "$dut" -j port show | jq length)" 0 "-d: no port left"

done_testing
