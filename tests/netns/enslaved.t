#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# A port on a device that is a bridge port takes its frames before the
# bridge does (no learning, no STP) and sends past it: port add still
# does it, as asked, but warns once per device with the bridge's name
# and the fix.  A device outside a bridge gets no warning, and a port
# add that fails prints its error alone.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

topo || die "topology"
ip -n "$dut" link add br0 type bridge
ip -n "$dut" link set br0 up
ip -n "$dut" link set d1 master br0

for hook in $(tc_hooks); do
	err=$(bpfwd_ns "$dut" port add dev d0 to d1 hook "$hook" 2>&1 >/dev/null)
	is "$?" 0 "$hook: port add to a bridge port succeeds"
	like "$err" "warning: to d1 is a port of bridge br0: .*ip link set d1 nomaster.*bpfwd bridge add br0" \
		"$hook: it warns, naming the bridge and the fix"
	is "$(grep -c warning <<<"$err")" 1 "$hook: one warning (d0 is no bridge port)"
	got=$(delivered "$sink" 10)
	is "$got" 10 "$hook: the port forwards as asked"
	err=$(bpfwd_ns "$dut" port add dev d0 to d1 hook "$hook" 2>&1 >/dev/null)
	is "$(grep -v warning <<<"$err" | grep -c '^bpfwd: port add d0: already a port')/$(wc -l <<<"$err")" 1/1 \
		"$hook: a failing add prints its error alone"
	bpfwd_ns "$dut" port del dev d0
done

ip -n "$dut" link set d1 nomaster
err=$(bpfwd_ns "$dut" port add dev d0 to d1 2>&1 >/dev/null)
is "$err" "" "no warning once d1 has left the bridge"
bpfwd_ns "$dut" port del dev d0
ip -n "$dut" link set d0 master br0
err=$(bpfwd_ns "$dut" port add dev d0 to d1 2>&1 >/dev/null)
like "$err" "warning: dev d0 is a port of bridge br0" "the ingress device enslaved: warned as dev"
bpfwd_ns "$dut" port del dev d0
done_testing
