#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# What the guest offers the other vm tests: the tools by full path, bpffs,
# tracefs, and the kernel features the lane exists for (act_bpf, pktgen,
# the patched tracepoints). Missing features are reported, not failed:
# the tests that need them skip with the reason.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/vmlib.sh"

quiet() { "$@" >/dev/null 2>&1; }

diag "kernel $(uname -r), ${VMTEST_KERNEL:-host}"
check "real iproute2 ip runs" quiet /usr/sbin/ip -V
check "real tc runs" quiet /usr/sbin/tc -V
check "jq runs" quiet jq -n 1
check "bpffs is mounted" grep -q ' /sys/fs/bpf bpf ' /proc/mounts
check "tracefs is there" test -d "$TRACEFS/events"
check "skb:kfree_skb exists" has_event skb/kfree_skb
setup_ns a
check "a veth pair can be made in a namespace" \
	ip -n "$a" link add v0 type veth peer v1
yn() { if "$@"; then echo yes; else echo no; fi; }
diag "feature act_bpf: $(yn grep -q ' tcf_bpf_act' /proc/kallsyms)"
diag "feature pktgen: $(yn test -d /proc/net/pktgen)"
diag "feature tc_redirect_err: $(yn has_event tc/tc_redirect_err)"
if [ -x "$BPFWD" ]; then
	check "bpfwd probe runs" quiet "$BPFWD" -j probe
	diag "probe: $("$BPFWD" -j probe | jq -c '{tcx, act_bpf, clsact, btf}')"
else
	skip "bpfwd probe: build/bpfwd missing"
fi
done_testing
