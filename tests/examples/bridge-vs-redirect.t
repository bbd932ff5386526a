#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# examples/bridge-vs-redirect.sh in its namespace mode: it exits 0, each
# of bridge, mirred and cls_bpf redirect forwarded frames that bpfwd
# stats counted leaving the dut, and no namespace or pin is left.  No
# rate is asserted (that is make bench's job).
source "$(dirname "$0")/../lib.sh"
need_bpfwd
[ -f "$BUILD/bpf/redirect.o" ] || skip_all "build/bpf/redirect.o missing: run make"
command -v ethtool >/dev/null || skip_all "ethtool missing"

export BPFWD OBJ=$BUILD/bpf/redirect.o SECONDS_PER=1
run_example bridge-vs-redirect
for m in bridge mirred redirect; do
	n=$(sed -n "s/^$m .*Mpps (\([0-9]*\) frames left d1.*/\1/p" <<<"$OUT")
	ge "${n:-0}" 1 "$m: frames were forwarded and counted"
done
like "$OUT" "redirect_xmit" "the redirect method is stock tc's cls_bpf da"
if [ -d /proc/sys/net/bridge ]; then
	like "$OUT" "sysctl -qw net.bridge.bridge-nf-call-iptables=0" \
		"the dut's bridge runs without br_netfilter's hooks"
else
	skip "no br_netfilter here"
fi
like "$OUT" "\(passed,tc\)" "bpfwd stats shows the counter row"

done_testing
