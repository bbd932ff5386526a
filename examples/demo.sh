#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# A tour of bpfwd ports: three network namespaces,
#
#   gen g0 192.0.2.1 -- d0 [dut] d1 -- s0 192.0.2.2 sink
#
# bpfwd ports in the dut forward d0 -> d1 and d1 -> d0 (hook tcx where
# the kernel has it, else tc), so gen and sink talk as if wired together.
# It sends ping and counted UDP through the dut, shows the counters and
# rates bpfwd keeps, and removes everything.  About ten seconds.
#
# Run it, after make:  examples/demo.sh
# Environment: BPFWD (default: ../build/bpfwd next to this script, then
# $PATH and the installed one), N (UDP datagrams, default 1000).
# Needs root, iproute2, jq; bpfwd's example-lib.sh next to this script.
source "$(dirname "${BASH_SOURCE[0]}")/example-lib.sh"

N=${N:-1000}
SENDER=

demo_cleanup() {
	local rc=$?

	if [ -n "$SENDER" ]; then
		kill "$SENDER" 2>/dev/null
		wait "$SENDER" 2>/dev/null
	fi
	ex_cleanup "$rc"
}

find_tools
trap demo_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ok=0
echo "kernel $(uname -r): default hook $("$BPFWD" -j probe | jq -r .default_hook)"
ns gen dut sink
veth "$dut" d0 "$gen" g0
veth "$dut" d1 "$sink" s0
ip -n "$gen" addr add 192.0.2.1/24 dev g0
ip -n "$sink" addr add 192.0.2.2/24 dev s0

show "$dut" port add dev d0 to d1 || exit 1
show "$dut" port add dev d1 to d0 || exit 1
show "$dut" port show

ping_from "$gen" 192.0.2.2 || ok=1
dut_before=$(ip_in "$dut")
got=$(udp_through "$gen" 192.0.2.2 "$N" "$sink")
dut_got=$(($(ip_in "$dut") - dut_before))
echo "sink received $got of $N UDP datagrams; the dut's own stack saw $dut_got"
[ "$got" = "$N" ] && [ "$dut_got" = 0 ] || ok=1
show "$dut" stats

# rates while gen sends for three seconds (nsenter execs timeout, so
# $SENDER is timeout itself, which passes a TERM on to the sender)
nsenter --net="/run/netns/$gen" timeout 3 bash -c 'while :; do
	echo bpfwd > /dev/udp/192.0.2.2/9; done' 2>/dev/null &
SENDER=$!
show "$dut" stats dev d0 interval 1 count 2
wait "$SENDER"
SENDER=

exit $ok
