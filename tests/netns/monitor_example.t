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
run_example monitor-errors
like "$OUT" "tc port, healthy: 50 datagrams gen -> sink; sink's stack got 50" \
	"healthy tc port forwards"
like "$OUT" "tc_redirect_err dev d0 target d1 ENETDOWN packets 50" \
	"tc target down: ENETDOWN counted on d0 -> d1"
like "$OUT" "tc_redirect_err dev d0 target if[0-9]+ ENODEV packets 50" \
	"tc target deleted: ENODEV counted on d0"
if [[ "$OUT" == *"XDP phase skipped"* ]]; then
	skip "XDP phase: no XDP port on this kernel"
else
	like "$OUT" "xdp_redirect_err dev d0 target d1 ENETDOWN packets 50" \
		"XDP target down: ENETDOWN counted on d0 -> d1"
fi

out=$("$TOP/examples/monitor-errors.sh" bogus 2>&1)
is "$?" 2 "bad argument: usage, exit 2"

done_testing
