#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Speed up an existing Linux bridge with bpfwd, and keep the bridge in
# charge.  bpfwd attaches a BPF program to every port of the bridge; it
# sends a frame straight to the port the bridge would send it to (known
# unicast between forwarding ports) and passes everything else to the
# bridge.  bpfwd daemon mirrors the bridge's fdb and port states into
# the program's maps and keeps the heartbeat without which the program
# passes every frame to the bridge:
#
#   bpfwd daemon &                      (or: systemctl start bpfwd-daemon)
#   bpfwd bridge add br0 [hook tc|tcx|xdp]
#   bpfwd bridge show br0               ports, states, sync, heartbeat
#   bpfwd bridge fdb show br0           the mirror beside the kernel's fdb
#   bpfwd bridge stats br0              forwarded, passed by reason
#   bpfwd bridge del br0
#
# Run it:
#   examples/bridge-fastpath.sh         builds a bridge with three ports to
#                                       three hosts in namespaces, starts the
#                                       daemon there, adds the fast path,
#                                       pings between the hosts, shows what
#                                       bpfwd saw, removes everything
#   examples/bridge-fastpath.sh BR [HOOK]
#                                       adds the fast path to bridge BR on
#                                       this host and leaves it (the daemon
#                                       must run: it says so if not)
#   examples/bridge-fastpath.sh -d BR   removes it
# Environment: BPFWD (default: ../build/bpfwd next to this script, then
# $PATH), HOOK (tc, tcx or xdp; default tc) for the namespace mode.
# Needs root, iproute2, ethtool, jq, ping; example-lib.sh next to this script.
source "$(dirname "${BASH_SOURCE[0]}")/example-lib.sh"

HOOK=${HOOK:-tc}
DAEMON=

# stops the daemon and removes the fast path before the namespaces go
bridge_cleanup() {
	local rc=$?

	[ -n "${br:-}" ] && bp "$br" bridge del br0 2>/dev/null
	if [ -n "$DAEMON" ]; then
		kill "$DAEMON" 2>/dev/null
		wait "$DAEMON" 2>/dev/null
	fi
	ex_cleanup "$rc"
}

# host N: namespace hN with eth0 (192.0.2.N) on port pN of br0
host() {
	local n=$1 h

	ns "h$n"
	eval "h=\$h$n"
	veth "$br" "p$n" "$h" eth0
	ip -n "$br" link set "p$n" master br0
	in_ns "$h" ip addr add "192.0.2.$n/24" dev eth0
	# XDP frames into a veth need NAPI at the receiving end; VLAN tags
	# inside the frame, where XDP sees them (bpfwd otherwise passes the
	# port's frames to the bridge)
	in_ns "$h" ethtool -K eth0 gro on txvlan off tx-vlan-stag-hw-insert off \
		>/dev/null
}

namespace_mode() {
	local fwd

	trap bridge_cleanup EXIT
	ns br
	ip -n "$br" link add br0 type bridge
	ip -n "$br" link set br0 up
	host 1
	host 2
	host 3
	"$BPFWD" -n "$br" daemon 2>/dev/null &
	DAEMON=$!
	show "$br" bridge add br0 hook "$HOOK" || return 1
	ping_from "$h1" 192.0.2.2 || return 1
	ping_from "$h3" 192.0.2.1 || return 1
	show "$br" bridge show br0
	show "$br" bridge fdb show br0
	show "$br" bridge stats br0
	fwd=$(bp "$br" -j bridge stats br0 | jq '.[0].forwarded')
	echo "the fast path forwarded $fwd frames; the bridge kept the rest"
}

device_mode() {
	local bridge=$1 hook=${2:-tc}

	show "" bridge add "$bridge" hook "$hook" || exit 1
	show "" bridge show "$bridge"
}

find_tools
case "${1:-}" in
"")
	namespace_mode
	exit $?
	;;
-d)
	[ -n "${2:-}" ] || die "usage: $0 -d BR"
	show "" bridge del "$2"
	;;
-*)
	die "usage: $0 [BR [tc|tcx|xdp] | -d BR]"
	;;
*)
	device_mode "$1" "${2:-}"
	;;
esac
