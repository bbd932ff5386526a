#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Helpers of the bridge fast path tests (source after tests/lib.sh):
# a bridge with N ports to N host namespaces, the daemon, its sync, and
# the differential runs (br_play, br_same, br_stat).

# br_topo N [TAG]: namespace $brdut with bridge br0 (address $BR_MAC) and
# ports p1..pN (address 02:00:00:00:0a:0I), each a veth to eth0 of host
# namespace $h1..$hN, whose address is 02:00:00:00:00:0I.  With TAG the
# names are $brdutTAG and $h1TAG..  GRO is on at the hosts, so XDP can
# redirect to the ports.  No IP addresses: the only frames are the ones a
# test sends.
BR_MAC=02:00:00:00:0b:00
br_topo() {
	local n=$1 tag=${2:-} i h d
	setup_ns "brdut$tag" || return 1
	eval "d=\$brdut$tag"
	ip -n "$d" link add br0 address $BR_MAC type bridge || return 1
	for ((i = 1; i <= n; i++)); do
		setup_ns "h$i$tag" || return 1
		eval "h=\$h$i$tag"
		ip -n "$d" link add "p$i" numtxqueues 1 numrxqueues 1 \
			type veth peer eth0 numtxqueues 1 numrxqueues 1 \
			netns "$h" || return 1
		ip -n "$h" link set eth0 address "02:00:00:00:00:0$i" up
		ip -n "$d" link set "p$i" address "02:00:00:00:0a:0$i"
		# tags inside the frame, where XDP sees them
		in_ns "$h" ethtool -K eth0 gro on txvlan off \
			tx-vlan-stag-hw-insert off >/dev/null 2>&1
		ip -n "$d" link set "p$i" master br0 up || return 1
	done
	ip -n "$d" link set br0 up
}

# br_hosts N [TAG]: the --host arguments of bridge_frames.py
br_hosts() {
	local i h
	for ((i = 1; i <= $1; i++)); do
		eval "h=\$h$i${2:-}"
		printf -- '--host h%d=%s ' "$i" "$h"
	done
}

# br_daemon_start NS: starts bpfwd daemon there ($BR_DAEMON its pid, log
# in $TMPDIR_T/daemon.log), killed on exit
br_daemon_start() {
	"$BPFWD" -n "$1" daemon 2>>"$TMPDIR_T/daemon.log" &
	BR_DAEMON=$!
	on_exit "kill $BR_DAEMON"
	sleep 0.2
}

# br_daemon_stop [SIGNAL]: stops it (TERM by default) and waits
br_daemon_stop() {
	kill -"${1:-TERM}" "$BR_DAEMON" 2>/dev/null
	wait "$BR_DAEMON" 2>/dev/null
	BR_DAEMON_RC=$?
}

# br_synced NS BR: prints true when the fast path of BR is in sync and
# every port has been filled in by the daemon
br_synced() {
	bpfwd_ns "$1" -j bridge show "$2" 2>/dev/null |
		jq '.[0].sync and ([.[0].ports[].synced] | all)'
}

# br_wait_sync NS BR: waits (5 s at most) for br_synced
br_wait_sync() {
	local i
	for ((i = 0; i < 50; i++)); do
		[ "$(br_synced "$1" "$2")" = true ] && return 0
		sleep 0.1
	done
	return 1
}

# br_counter NS BR NAME: a counter of bpfwd bridge stats (forwarded,
# passed, or a reason: unknown_dst, ...)
br_counter() {
	bpfwd_ns "$1" -j bridge stats "$2" |
		jq --arg k "$3" '.[0] | if has($k) then .[$k] else .reasons[$k] end'
}

# br_play NAME HOOK SCRIPT [SETUP [SYNCED]]: a fresh bridge of $N ports
# (SETUP run on it), bpfwd on HOOK (none: the plain bridge; xdp-generic:
# hook xdp xdp-mode generic; SYNCED run once the daemon has synced it),
# then bridge_frames.py ($FRAMES, with $MACS) plays SCRIPT; what each
# host got lands in $TMPDIR_T/NAME/, bridge show and bridge stats in
# $TMPDIR_T/NAME.show and NAME.stats
br_play() {
	local name=$1 hook=$2 script=$3 setup=${4:-true} synced=${5:-true} how
	topo_del
	br_topo "$N" || return 1
	export DUT=$brdut
	$setup || { diag "$name: setup failed"; return 1; }
	if [ "$hook" != none ]; then
		how="hook $hook"
		[ "$hook" = xdp-generic ] && how="hook xdp xdp-mode generic"
		br_daemon_start "$brdut"
		# shellcheck disable=SC2086
		bpfwd_ns "$brdut" bridge add br0 $how || return 1
		br_wait_sync "$brdut" br0 || { diag "$name: no sync"; return 1; }
		$synced || { diag "$name: $synced failed"; return 1; }
		bpfwd_ns "$brdut" -j bridge show br0 >"$TMPDIR_T/$name.show"
	fi
	mkdir -p "$TMPDIR_T/$name"
	# shellcheck disable=SC2046,SC2086
	python3 "$FRAMES" $(br_hosts "$N") $MACS --out "$TMPDIR_T/$name" "$script" ||
		return 1
	if [ "$hook" != none ]; then
		bpfwd_ns "$brdut" -j bridge stats br0 >"$TMPDIR_T/$name.stats"
		bpfwd_ns "$brdut" bridge del br0
		br_daemon_stop
	fi
}

# br_same NAME BASE: every host got in run NAME exactly what it got in
# run BASE (the plain bridge), tags included
br_same() {
	local i diffs=0
	for ((i = 1; i <= N; i++)); do
		if ! cmp -s "$TMPDIR_T/$2/h$i" "$TMPDIR_T/$1/h$i"; then
			diffs=$((diffs + 1))
			diag "$1: h$i differs from $2:"
			diff "$TMPDIR_T/$2/h$i" "$TMPDIR_T/$1/h$i" | head -5 |
				sed 's/^/#   /'
		fi
	done
	is "$diffs" 0 "$1: every host receives what the plain bridge delivers, tags included"
}

# br_stat NAME KEY: a counter of run NAME's bridge stats (forwarded,
# passed, or a reason)
br_stat() {
	jq --arg k "$2" '.[0] | if has($k) then .[$k] else .reasons[$k] end' \
		"$TMPDIR_T/$1.stats"
}
