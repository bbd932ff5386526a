#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# examples/monitor-errors.sh in its namespace mode: it exits 0, shows
# the errors it made on purpose (a tc target down, an XDP target down
# where the kernel has XDP ports, a tc target deleted) with device,
# target and errno, and leaves no namespace or pin behind.
source "$(dirname "$0")/../lib.sh"
need_bpfwd
command -v bpftool >/dev/null || skip_all "bpftool missing"
[ -r /sys/kernel/btf/vmlinux ] || skip_all "kernel without BTF: bpfwd monitor needs it"

[ -x "$TOP/examples/monitor-errors.sh" ] || skip_all "examples/monitor-errors.sh not here"
export BPFWD
pins_before=$(find /sys/fs/bpf | sort)
out=$(timeout 120 "$TOP/examples/monitor-errors.sh" 2>&1)
rc=$?
is "$rc" 0 "monitor-errors.sh exits 0"
[ "$rc" = 0 ] || diag "$out"
like "$out" "tc port, healthy: 50 datagrams gen -> sink; sink's stack got 50" \
	"healthy tc port forwards"
like "$out" "tc_redirect_err dev d0 target d1 ENETDOWN packets 50" \
	"tc target down: ENETDOWN counted on d0 -> d1"
like "$out" "tc_redirect_err dev d0 target if[0-9]+ ENODEV packets 50" \
	"tc target deleted: ENODEV counted on d0"
if [[ "$out" == *"XDP phase skipped"* ]]; then
	skip "XDP phase: no XDP port on this kernel"
else
	like "$out" "xdp_redirect_err dev d0 target d1 ENETDOWN packets 50" \
		"XDP target down: ENETDOWN counted on d0 -> d1"
fi
is "$(ip netns list | grep -c '^bpfwd-monitor-errors-')" 0 "no namespace left"
is "$(find /sys/fs/bpf | sort)" "$pins_before" "no pin left"

out=$("$TOP/examples/monitor-errors.sh" bogus 2>&1)
is "$?" 2 "bad argument: usage, exit 2"

done_testing
