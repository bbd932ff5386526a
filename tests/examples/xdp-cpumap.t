#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# examples/xdp-cpumap.sh in its namespace mode: it exits 0, every
# datagram reaches the sink (then on to d1) and the dut's stack (then
# pass), the per-CPU figures show the cpumap program and the kthread at
# work on every CPU (many flows), and no namespace or pin is left.
source "$(dirname "$0")/../lib.sh"
need_bpfwd
command -v ethtool >/dev/null || skip_all "ethtool missing"

export BPFWD
pins() { find /sys/fs/bpf | sort; }

pins0=$(pins)
OUT=$(timeout 120 "$TOP/examples/xdp-cpumap.sh" 2>&1)
RC=$?
is "$RC" 0 "xdp-cpumap.sh exits 0"
[ "$RC" = 0 ] || diag "$(tail -20 <<<"$OUT")"
like "$OUT" "sink received 200 of 200 datagrams" "then to d1: all reach the sink"
like "$OUT" "the dut's stack received 2[0-9][0-9] of 200 datagrams" \
	"then pass: all reach the dut's stack"
ncpu=$(nproc)
is "$(grep -c '^  cpu[0-9]*: [1-9][0-9]* frames.*kthread processed [1-9]' <<<"$OUT")" \
	$((ncpu * 2)) "per-CPU lines: every CPU and its kthread did work, both runs"
like "$OUT" "cpumap cpu0: packets" "bpfwd stats prints the cpumap figures"
is "$(ip netns list 2>/dev/null | grep -c '^bpfwd-xdp-cpumap-')" 0 "no namespace left over"
is "$(pins)" "$pins0" "no pin left over"

done_testing
