#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# A patch panel between router ports: every frame that arrives on one
# port of a pair leaves by the other, both ways, without the bridge or
# the IP stack.  Stock iproute2 loads the program, bpfwd only writes the
# table it reads:
#
#   tc qdisc add dev eth1 clsact
#   tc filter add dev eth1 ingress prio 100 bpf da obj redirect.o sec redirect_xmit
#   bpfwd port add dev eth1 to eth2 hook none
#
# Run it:
#   examples/xconnect.sh                 builds gen - dut - sink namespaces,
#                                        cross-connects two port pairs in the
#                                        dut, sends ping and counted UDP
#                                        through them, prints bpfwd stats and
#                                        removes everything again
#   examples/xconnect.sh eth1 eth2 [eth3 eth4 ...]
#                                        cross-connects eth1<->eth2, ... on
#                                        this host and leaves them in place
#   examples/xconnect.sh -d eth1 eth2 [...]
#                                        removes those cross-connects
# Environment: BPFWD, OBJ (default: ../build/ next to this script, then
# the installed ones), PRIO (tc filter priority, default 100).
# Needs root, iproute2, jq, bpftool; bpfwd's example-lib.sh next to this script.
source "$(dirname "${BASH_SOURCE[0]}")/example-lib.sh"

PRIO=${PRIO:-100}
N=100		# UDP datagrams per pair in the namespace run

# connect NS A B: frames arriving on A leave by B (one direction)
connect() {
	local n=$1 a=$2 b=$3

	stock_tc "$n" "$a" ingress "$PRIO" redirect_xmit da || return 1
	if ! bp "$n" port add dev "$a" to "$b" hook none; then
		in_ns "$n" tc filter del dev "$a" ingress prio "$PRIO"
		clsact_gc "$n" "$a"
		return 1
	fi
}

# disconnect NS A: removes A's table entry and filter, and the clsact
# qdisc when no filter is left on it
disconnect() {
	local n=$1 a=$2

	bp "$n" port del dev "$a" 2>/dev/null
	in_ns "$n" tc filter del dev "$a" ingress prio "$PRIO" 2>/dev/null
	clsact_gc "$n" "$a"
}

# pairs NS DEV...: cross-connects DEV1<->DEV2, DEV3<->DEV4, ...; on a
# failure, undoes what this call set up (only that) and fails
pairs() {
	local n=$1 done=() a b d

	shift
	while [ $# -ge 2 ]; do
		for a in "$1:$2" "$2:$1"; do
			b=${a#*:}
			a=${a%%:*}
			if ! connect "$n" "$a" "$b"; then
				for d in "${done[@]}"; do
					disconnect "$n" "$d"
				done
				return 1
			fi
			done+=("$a")
		done
		shift 2
	done
}

# check_devs DEV...: an even number of distinct, existing devices
check_devs() {
	local d

	[ $(($# % 2)) = 0 ] || die "ports come in pairs: $*"
	[ "$(printf '%s\n' "$@" | sort -u | wc -l)" = $# ] ||
		die "a port appears twice: $*"
	for d in "$@"; do
		ip link show dev "$d" >/dev/null 2>&1 || die "$d: no such device"
	done
}

real_devices() {
	local d

	if [ "$1" = -d ]; then
		shift
		check_devs "$@"
		for d in "$@"; do disconnect "" "$d"; done
		echo "removed the cross-connects of $*"
		return 0
	fi
	check_devs "$@"
	pairs "" "$@" || die "setting up failed; nothing was left in place"
	show "" port show
	echo "remove with: $0 -d $*"
}

# gen and sink talk over two wires, each patched through the dut:
#   gen g0 192.0.2.1    -- d0 [dut] d1 -- s0 192.0.2.2    sink
#   gen g1 198.51.100.1 -- d2 [dut] d3 -- s1 198.51.100.2 sink
namespaces() {
	local i ok=0 got

	ns gen dut sink
	veth "$dut" d0 "$gen" g0
	veth "$dut" d1 "$sink" s0
	veth "$dut" d2 "$gen" g1
	veth "$dut" d3 "$sink" s1
	ip -n "$gen" addr add 192.0.2.1/24 dev g0
	ip -n "$sink" addr add 192.0.2.2/24 dev s0
	ip -n "$gen" addr add 198.51.100.1/24 dev g1
	ip -n "$sink" addr add 198.51.100.2/24 dev s1

	pairs "$dut" d0 d1 d2 d3 || die "cross-connect failed"
	echo "# tc filter show dev d0 ingress    (in the dut)"
	in_ns "$dut" tc filter show dev d0 ingress
	show "$dut" port show

	for i in 192.0.2.2 198.51.100.2; do
		ping_from "$gen" "$i" || ok=1
		got=$(udp_through "$gen" "$i" $N "$sink")
		echo "sink received $got of $N UDP datagrams sent to $i"
		[ "$got" = $N ] || ok=1
	done
	show "$dut" stats
	return $ok
}

stock_main "$@"
