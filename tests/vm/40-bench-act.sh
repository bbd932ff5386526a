#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The bench rows the CI host cannot run: act and act-clone (u32 +
# act_bpf redirect and clone_redirect, the 2015 patch's own paths) run
# here next to the bridge and report a rate.  Functional only: rates
# under TCG say nothing about speed, so nothing here compares them.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/vmlib.sh"
need_bpfwd

"$BPFWD" -j probe | jq -e .act_bpf >/dev/null ||
	skip_all "kernel $(uname -r) has no act_bpf"
[ "$(nproc)" -ge 2 ] || skip_all "bench pins gen and dut to two CPUs; this guest has $(nproc)"

out=$TMPDIR_T/bench.json
# count tc: these are skb rows.  The XDP counter would run an XDP
# program at the sink while gen's BPF_PROG_RUN repoints the kernel's XDP
# dispatcher (a live text patch) at each start and stop; under TCG that
# once ended in "Oops: int3" at bpf_dispatcher_xdp_func (Debian 6.12).
"$BPFWD" -j bench method bridge,act,act-clone rounds 1 duration 1 count tc \
	>"$out" 2>"$TMPDIR_T/err"
rc=$?
is "$rc" 0 "bench bridge,act,act-clone exits 0"
[ "$rc" = 0 ] || diag "$(tail -3 "$TMPDIR_T/err"; head -c 600 "$out")"
check "bench prints one JSON document" jq -e .methods "$out"
for m in bridge act act-clone; do
	is "$(jq -r --arg m "$m" '.methods[] | select(.name == $m) | .status' "$out")" ok \
		"row $m ran"
	check "row $m measured a rate" \
		jq -e --arg m "$m" '.methods[] | select(.name == $m) | .mpps_median > 0' "$out"
done
is "$(ip netns list | grep -c bpfwd)" 0 "bench left no namespace behind"

done_testing
