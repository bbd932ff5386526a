#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Devices that come back under a port (issue 13): with bpfwd daemon
# running, a port whose target veth (d1) or ingress veth (d0) is deleted
# and made again with the same name forwards again, for hooks tc, tcx
# and xdp (native, generic, modes map and cpumap), as it was added, and
# port show drops its (target gone) / (detached).  Without the daemon it
# does not, and the daemon started later repairs what is broken by then.
# A device of that name made in another namespace is not the port's.  A
# port whose program was removed from its device is attached again at
# the next link event.  A daemon stopped (SIGTERM) or killed leaves the
# ports as they are, and while it runs idle a command does not wait for
# it (it holds the ports table's lock only to repair).
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/bridge_lib.sh"
need_bpfwd

LOG=$TMPDIR_T/daemon.log

# relink_target: d1 (and its peer s0) deleted (if there) and made again,
# s0 with its address and MAC (a re-plugged NIC), then GRO on at s0 (for
# XDP; the daemon's first try may come before and fail)
relink_target() {
	ip -n "$dut" link del d1 2>/dev/null
	ip -n "$dut" link add d1 numtxqueues 1 numrxqueues 1 type veth peer s0 \
		address "$SMAC" numtxqueues 1 numrxqueues 1 netns "$sink" ||
		die "make d1/s0 again"
	in_ns "$sink" ethtool -K s0 gro on >/dev/null
	ip -n "$sink" addr add 192.0.2.2/24 dev s0
	ip -n "$sink" neigh replace 192.0.2.1 lladdr "$GMAC" dev s0 nud permanent
	ip -n "$sink" link set s0 up
	ip -n "$dut" link set d1 up
}

# relink_ingress: the same for d0 and g0, tx checksumming off at g0 (XDP
# would drop its partial checksums), GRO on (a flood port is a target)
relink_ingress() {
	ip -n "$dut" link del d0 2>/dev/null
	ip -n "$dut" link add d0 numtxqueues 1 numrxqueues 1 type veth peer g0 \
		address "$GMAC" numtxqueues 1 numrxqueues 1 netns "$gen" ||
		die "make d0/g0 again"
	# as topo made it (a native port refuses a peer that inserts tags)
	in_ns "$gen" ethtool -K g0 tx off txvlan off tx-vlan-stag-hw-insert off \
		gro on >/dev/null
	ip -n "$gen" addr add 192.0.2.1/24 dev g0
	ip -n "$gen" neigh replace 192.0.2.2 lladdr "$SMAC" dev g0 nud permanent
	ip -n "$gen" link set g0 up
	ip -n "$dut" link set d0 up
}

# marks: d0's port show line without the head, its marks only
marks() {
	bpfwd_ns "$dut" port show | grep '^d0' | grep -o '(detached)\|(target gone)' | tr '\n' ' '
}

# healed: waits (10 s at most: a first try may fail, the next comes 2 s
# later) until d0's port has neither mark
healed() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ -z "$(marks)" ] && [ -n "$(bpfwd_ns "$dut" port show | grep '^d0 to d1')" ] && return 0
		sleep 0.1
	done
	diag "$(bpfwd_ns "$dut" port show)"
	diag "$(tail -5 "$LOG")"
	return 1
}

run_case() {
	local name=$1 hook sig line0
	shift
	# ONLY=NAME runs one case
	[ -n "${ONLY:-}" ] && [ "$ONLY" != "$name" ] && return
	: >"$LOG"
	if [ "$1" = xdp ]; then xtopo; else topo; fi || die "$name: topology"
	shift
	hook=$2
	GMAC=$(mac_of "$gen" g0)
	SMAC=$(mac_of "$sink" s0)
	bpfwd_ns "$dut" port add dev d0 to d1 "$@" || die "$name: port add"
	is "$(delivered "$sink" 20)" 20 "$name: forwards"
	line0=$(bpfwd_ns "$dut" port show dev d0)

	## no daemon: nothing comes back
	relink_target
	is "$(marks)" "(target gone) " "$name: no daemon, target made again: (target gone)"
	is "$(delivered "$sink" 20)" 0 "$name: no daemon: nothing arrives"

	## the daemon, started now, repairs what it finds
	br_daemon_start "$dut"
	check "$name: daemon at start: the port points at the new d1" healed
	is "$(delivered "$sink" 20)" 20 "$name: daemon at start: forwards again"
	like "$(cat "$LOG")" "port d0: target d1 is back \\(if[0-9]+\\): the port sends there again" \
		"$name: the daemon says so"

	## with the daemon: target, then ingress
	relink_target
	check "$name: target made again: repaired" healed
	is "$(delivered "$sink" 20)" 20 "$name: target made again: forwards again"
	like "$(cat "$LOG")" "port d0: target d1 \\(if[0-9]+\\) is gone: what the port takes is lost until a device named d1 appears" \
		"$name: the loss is logged"
	relink_ingress
	check "$name: ingress made again: repaired" healed
	is "$(delivered "$sink" 20)" 20 "$name: ingress made again: forwards again"
	like "$(cat "$LOG")" "port d0: d0 \\(if[0-9]+\\) is gone, its program with it" \
		"$name: the ingress's loss is logged"
	is "$(bpfwd_ns "$dut" -j port show | jq length)" 1 "$name: one port (the old entry went)"
	is "$(bpfwd_ns "$dut" port show dev d0)" "$line0" "$name: the port as it was added"
	is "$(bpfwd_ns "$dut" -j port show | jq -c '.[0] | [.dev, .ifindex, .to, .to_ifindex, .attached]')" \
		"[\"d0\",$(ifindex_of "$dut" d0),\"d1\",$(ifindex_of "$dut" d1),true]" "$name: on the new d0, to the new d1"

	## idle, the daemon holds no lock: a command goes through at once
	out=$(timeout 5 "$BPFWD" -n "$dut" port replace dev d0 to d1 2>&1)
	is "$?:$out" "0:" "$name: port replace while the daemon idles"

	## its program removed from the same d0: a link event re-attaches it
	case "$hook" in
	tc) in_ns "$dut" tc filter del dev d0 ingress ;;
	tcx) in_ns "$dut" bpftool link detach pinned "$(find /sys/fs/bpf/bpfwd -name "link_$(ifindex_of "$dut" d0)_ingress")" ;;
	xdp) ip -n "$dut" link set dev d0 xdpgeneric off; ip -n "$dut" link set dev d0 xdpdrv off ;;
	esac
	ip -n "$dut" link set dev d0 mtu 1400
	check "$name: program removed: attached again" healed
	is "$(delivered "$sink" 20)" 20 "$name: program removed: forwards again"
	like "$(cat "$LOG")" "port d0: its program was not attached: attached again \\(hook $hook\\)" \
		"$name: the daemon says so"

	## a d1 or d0 in another namespace is not the port's
	ip -n "$dut" link del d1
	ip -n "$sink" link add d1 type veth peer d1p
	ip -n "$dut" link del d0
	ip -n "$gen" link add d0 type veth peer d0p
	ip -n "$dut" link add x0 type veth peer x1	# a link event here
	sleep 1.5
	is "$(marks)" "(detached) (target gone) " "$name: d0 and d1 made in other namespaces: not taken"
	ip -n "$sink" link del d1
	ip -n "$gen" link del d0
	ip -n "$dut" link del x0
	is "$(bpfwd_ns "$dut" -j port show | jq length)" 1 "$name: still one port"
	# back here: the daemon was alive all along, and follows both
	relink_target
	relink_ingress
	check "$name: both back here: repaired" healed
	is "$(delivered "$sink" 20)" 20 "$name: both back: forwards again"

	## stopped (TERM, or KILL on the XDP cases), the daemon leaves the
	## ports as they are
	sig=TERM
	[ "$hook" = xdp ] && sig=KILL
	br_daemon_stop "$sig"
	[ "$sig" = TERM ] && like "$(cat "$LOG")" "stopping on signal 15: .*ports stay as they are" \
		"$name: SIGTERM: the daemon says the ports stay"
	is "$(marks)" "" "$name: daemon stopped ($sig): port as it was"
	is "$(delivered "$sink" 20)" 20 "$name: daemon stopped ($sig): still forwards"
	relink_ingress
	is "$(marks)" "(detached) " "$name: daemon gone, ingress made again: (detached)"
	is "$(delivered "$sink" 20)" 0 "$name: daemon gone: nothing arrives"
	bpfwd_ns "$dut" port flush
	[ "${V:-0}" = 1 ] && sed 's/^/# /' "$LOG"
	topo_del
}

run_case tc tc hook tc
if has_tcx; then run_case tcx tc hook tcx; else skip "tcx: this kernel has no tcx (needs 6.6)"; fi
run_case xdp xdp hook xdp
run_case xdp-generic xdp hook xdp xdp-mode generic
run_case xdp-map xdp hook xdp mode map
run_case xdp-cpumap xdp hook xdp cpus 1 qsize 512

# mode flood (no target): the ingress made again keeps its flood group
flood_case() {
	local line0 i
	[ -n "${ONLY:-}" ] && [ "$ONLY" != xdp-flood ] && return
	: >"$LOG"
	xtopo || die "xdp-flood: topology"
	in_ns "$gen" ethtool -K g0 gro on >/dev/null
	GMAC=$(mac_of "$gen" g0)
	SMAC=$(mac_of "$sink" s0)
	bpfwd_ns "$dut" port add dev d0 hook xdp mode flood group 3 || die "xdp-flood: port add d0"
	bpfwd_ns "$dut" port add dev d1 hook xdp mode flood group 3 fix-offload || die "xdp-flood: port add d1"
	is "$(delivered "$sink" 20)" 20 "xdp-flood: forwards"
	line0=$(bpfwd_ns "$dut" port show dev d0)
	br_daemon_start "$dut"
	relink_ingress
	for ((i = 0; i < 100; i++)); do
		[ -z "$(marks)" ] && break
		sleep 0.1
	done
	is "$(bpfwd_ns "$dut" port show dev d0)" "$line0" "xdp-flood: ingress made again: the port as it was, group 3"
	is "$(delivered "$sink" 20)" 20 "xdp-flood: forwards again"
	br_daemon_stop
	bpfwd_ns "$dut" port flush
	[ "${V:-0}" = 1 ] && sed 's/^/# /' "$LOG"
	topo_del
}
flood_case

done_testing
