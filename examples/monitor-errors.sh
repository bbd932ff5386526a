#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Watch redirect errors appear: `bpfwd monitor` runs while a port
# forwards traffic, then the port's target is broken on purpose (set
# down, then deleted) and the monitor names the device, the target and
# the errno of every frame that could not go.  The monitor listens only
# to the error tracepoints, so on a healthy box it costs nothing and
# prints "no errors".
#
#   bpfwd monitor                     errors, every second, as a table
#   bpfwd -j monitor interval 10      one JSON object per interval
#   bpfwd monitor prom /var/lib/prometheus/node-exporter/bpfwd.prom
#                                     a textfile for node_exporter
#
# Run it:
#   examples/monitor-errors.sh          builds gen - dut - sink namespaces,
#                                       forwards UDP d0 -> d1 with a tc
#                                       port, then with an XDP port, breaks
#                                       d1 each time and shows what the
#                                       monitor saw; removes everything
#   examples/monitor-errors.sh watch [PROM_FILE]
#                                       monitors this host's namespace
#                                       until ^C (and keeps PROM_FILE
#                                       up to date if given)
# Environment: BPFWD (default: ../build/bpfwd next to this script, then
# the installed one).  Needs root, iproute2, ethtool, jq; bpfwd's example-lib.sh
# next to this script.
source "$(dirname "${BASH_SOURCE[0]}")/example-lib.sh"

N=50		# UDP datagrams per phase
MON_OUT=
MON_PID=

usage() {
	echo "usage: $EX_NAME [ watch [ PROM_FILE ] ]" >&2
	exit 2
}

# mon_begin NS: the monitor in NS, in the background, JSON into a file
mon_begin() {
	MON_OUT=$(mktemp)
	"$BPFWD" -n "$1" -j monitor interval 1 >"$MON_OUT" &
	MON_PID=$!
	# its first interval says it is attached
	for _ in $(seq 50); do
		[ -s "$MON_OUT" ] && return 0
		kill -0 "$MON_PID" 2>/dev/null || break
		sleep 0.1
	done
	die "bpfwd monitor did not start"
}

# mon_end: stops the monitor after one more interval, prints the error
# rows of its last interval as a table
mon_end() {
	sleep 1.2
	kill "$MON_PID" 2>/dev/null
	wait "$MON_PID"
	MON_PID=
	jq -rs 'last | .events[] | select(.errno != null) |
		"  \(.event) dev \(.dev) target \(.target) \(.errno) packets \(.packets)"' \
		"$MON_OUT"
	rm -f "$MON_OUT"
}

# phase TITLE: healthy traffic, then the break the caller already made
send_and_show() {
	echo "# $1: $N datagrams gen -> sink; sink's stack got" \
		"$(udp_through "$gen" 192.0.2.2 $N "$sink")"
}

namespace_mode() {
	local gmac smac out errors

	ns gen dut sink
	veth "$dut" d0 "$gen" g0
	veth "$dut" d1 "$sink" s0
	ip -n "$gen" addr add 192.0.2.1/24 dev g0
	ip -n "$sink" addr add 192.0.2.2/24 dev s0
	gmac=$(ip -n "$gen" -j link show g0 | jq -r '.[0].address')
	smac=$(ip -n "$sink" -j link show s0 | jq -r '.[0].address')
	ip -n "$gen" neigh replace 192.0.2.2 lladdr "$smac" dev g0 nud permanent
	ip -n "$sink" neigh replace 192.0.2.1 lladdr "$gmac" dev s0 nud permanent
	# XDP frames carry no checksum offload state; s0 needs NAPI (GRO)
	# to take frames from an XDP redirect
	in_ns "$gen" ethtool -K g0 tx off txvlan off tx-vlan-stag-hw-insert off \
		>/dev/null 2>&1
	in_ns "$sink" ethtool -K s0 gro on >/dev/null 2>&1

	show "$dut" port add dev d0 to d1 hook tc || die "port add failed"
	mon_begin "$dut"
	send_and_show "tc port, healthy"
	echo "# ip link set d1 down"
	ip -n "$dut" link set d1 down
	send_and_show "tc port, target down"
	out=$(mon_end)
	echo "# bpfwd monitor saw:"
	echo "${out:-  no errors}"
	errors=$out
	ip -n "$dut" link set d1 up

	bp "$dut" port del dev d0
	if show "$dut" port add dev d0 to d1 hook xdp; then
		mon_begin "$dut"
		send_and_show "XDP port, healthy"
		echo "# ip link set d1 down"
		ip -n "$dut" link set d1 down
		send_and_show "XDP port, target down"
		out=$(mon_end)
		echo "# bpfwd monitor saw:"
		echo "${out:-  no errors}"
		errors+=$'\n'$out
		bp "$dut" port del dev d0
	else
		echo "# no XDP port on this kernel: XDP phase skipped"
	fi

	show "$dut" port add dev d0 to d1 hook tc || die "port add failed"
	mon_begin "$dut"
	echo "# ip link del d1"
	ip -n "$dut" link del d1
	send_and_show "tc port, target deleted"
	out=$(mon_end)
	echo "# bpfwd monitor saw:"
	echo "${out:-  no errors}"
	errors+=$'\n'$out
	grep -q ENETDOWN <<<"$errors" && grep -q ENODEV <<<"$errors" ||
		die "the monitor missed the errors made on purpose"
}

mon_stop_bg() {
	[ -n "$MON_PID" ] && kill "$MON_PID" 2>/dev/null
	[ -n "$MON_OUT" ] && rm -f "$MON_OUT"
}

find_tools
case "${1:-}" in
"")
	trap 'rc=$?; mon_stop_bg; ex_cleanup $rc' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	namespace_mode
	;;
watch)
	[ $# -le 2 ] || usage
	exec "$BPFWD" monitor ${2:+prom "$2"}
	;;
*)
	usage
	;;
esac
