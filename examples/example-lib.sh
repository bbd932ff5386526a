#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Namespace plumbing shared by the examples; source it, don't run it.
# Copy it along with the example you take.  It
#  - finds bpfwd and redirect.o: $BPFWD and $OBJ, else the build/ dir
#    next to this one, else $PATH and the installed locations;
#  - creates network namespaces named bpfwd-<example>-<role>-<random> and
#    removes them from an EXIT trap (also on ^C and TERM), after deleting
#    the bpfwd ports in them, so no namespace or pin outlives the script;
#  - counts traffic the way the examples report it.
# veth, rx_packets, udp_send and ip_in are tests/lib.sh's too (there
# udp_send is send_udp, ip_in ip_inreceives): tests/examples/lib.t fails
# when the two copies differ.
# Namespaces are entered with nsenter --net (setns), never with `ip netns
# exec` or `tc -n`: those remount /sys, and pins made there land on a
# throwaway bpffs instead of the one bpfwd and tc share.

EX_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
EX_NAME=$(basename "$0" .sh)
EX_SUFFIX=$(tr -dc a-z0-9 </dev/urandom | head -c 6)
EX_NS=()
BPFFS=/sys/fs/bpf		# where stock tc pins: <bpffs>/tc/globals
STOCK_DIR=$BPFFS/tc/globals
EX_STOCK_NEW=()			# stock pin paths this script created

die() {
	echo "$EX_NAME: $*" >&2
	exit 1
}

# first_of CANDIDATE...: the first that exists, executable if a command
first_of() {
	local c

	for c in "$@"; do
		[ -n "$c" ] && [ -f "$c" ] && { echo "$c"; return 0; }
	done
	return 1
}

# find_tools [obj]: sets $BPFWD, and $OBJ too when asked for "obj"
find_tools() {
	BPFWD=${BPFWD:-$(first_of "$EX_DIR/../build/bpfwd" \
		"$(command -v bpfwd)" /usr/local/sbin/bpfwd /usr/sbin/bpfwd)} ||
		die "bpfwd not found: run make, or set BPFWD=/path/to/bpfwd"
	[ -x "$BPFWD" ] || die "$BPFWD is not executable"
	if [ "${1:-}" = obj ]; then
		OBJ=${OBJ:-$(first_of "$EX_DIR/../build/bpf/redirect.o" \
			/usr/local/lib/bpf/redirect.o /usr/lib/bpf/redirect.o)} ||
			die "redirect.o not found: run make, or set OBJ=/path/to/redirect.o"
	fi
	[ "$(id -u)" = 0 ] || die "must be run as root (namespaces, tc, BPF)"
}

# Stock tc pins under /sys/fs/bpf whatever BPFWD_BPFFS says; bpfwd's
# hook none must write the table tc loads.
need_stock_bpffs() {
	[ -z "${BPFWD_BPFFS:-}" ] || [ "$BPFWD_BPFFS" = "$BPFFS" ] ||
		die "stock tc pins under $BPFFS; unset BPFWD_BPFFS ($BPFWD_BPFFS)"
	local p

	# tc makes ip and xdp as symlinks to tc; they go after tc
	for p in "$STOCK_DIR/bpfwd_ports" "$STOCK_DIR/bpfwd_stats" \
		 "$STOCK_DIR" "$BPFFS/tc" "$BPFFS/ip" "$BPFFS/xdp"; do
		[ -e "$p" ] || [ -L "$p" ] || EX_STOCK_NEW+=("$p")
	done
}

# ns ROLE...: creates a namespace per ROLE, sets $ROLE to its name
ns() {
	local role name

	for role in "$@"; do
		name="bpfwd-$EX_NAME-$role-$EX_SUFFIX"
		ip netns add "$name" || die "ip netns add $name failed"
		EX_NS+=("$name")
		ip -n "$name" link set lo up
		# no IPv6 autoconfiguration chatter in the counters
		in_ns "$name" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1
		printf -v "$role" '%s' "$name"
	done
}

# in_ns NS CMD...: runs CMD in NS by setns(), keeping this mount
# namespace; an empty NS is the current namespace (real devices)
in_ns() {
	local n=$1

	shift
	if [ -z "$n" ]; then
		"$@"
	else
		nsenter --net="/run/netns/$n" "$@"
	fi
}

# bp NS ARGS...: bpfwd [-n NS] ARGS
bp() {
	local n=$1

	shift
	"$BPFWD" ${n:+-n "$n"} "$@"
}

# show NS ARGS...: prints the bpfwd command, then runs it
show() {
	local n=$1

	shift
	echo "# bpfwd ${n:+-n $n }$*"
	bp "$n" "$@"
}

# veth NS1 DEV1 NS2 DEV2: a veth pair with one queue each side, both up
veth() {
	ip -n "$1" link add "$2" numtxqueues 1 numrxqueues 1 type veth \
		peer "$4" numtxqueues 1 numrxqueues 1 netns "$3" ||
		die "veth $2/$4 failed"
	ip -n "$1" link set "$2" up
	ip -n "$3" link set "$4" up
}

# udp_send NS DST N: N datagrams to DST port 9 (discard), bash /dev/udp
udp_send() {
	in_ns "$1" bash -c 'for ((i = 0; i < '"$3"'; i++)); do
		echo bpfwd > /dev/udp/'"$2"'/9; done' 2>/dev/null
}

# udp_in NS: UDP datagrams NS's stack received (to a closed port or not)
udp_in() {
	in_ns "$1" awk '/^Udp: [0-9]/ { print $2 + $3; exit }' /proc/net/snmp
}

# ip_in NS: IPv4 packets NS's stack received
ip_in() {
	in_ns "$1" awk '/^Ip: [0-9]/ { print $4; exit }' /proc/net/snmp
}

# ping_from NS DST: three pings, prints their summary; fails on a loss
ping_from() {
	local out rc role=${1#bpfwd-"$EX_NAME"-}

	echo "# ping -c 3 $2    (from ${role%-*})"
	out=$(in_ns "$1" ping -q -c 3 -i 0.2 -W 1 "$2")
	rc=$?
	echo "$out" | tail -2
	return $rc
}

# udp_through SRC DST N SINK: sends N datagrams from SRC to DST, prints
# how many SINK's stack received
udp_through() {
	local before

	before=$(udp_in "$4")
	udp_send "$1" "$2" "$3"
	sleep 0.2
	echo $(($(udp_in "$4") - before))
}

# rx_packets NS DEV: packets DEV received
rx_packets() {
	ip -n "$1" -s -j link show "$2" | jq '.[0].stats64.rx.packets'
}

# Flushes the bpfwd ports of our namespaces (their table entries, tcx
# links and pins), then deletes the namespaces, then the stock pins this
# script created.  Exits with $1, or the status it was called with.
ex_cleanup() {
	local rc=${1:-$?} n t

	trap - EXIT INT TERM
	for n in "${EX_NS[@]}"; do
		bp "$n" port flush 2>/dev/null
	done
	for n in "${EX_NS[@]}"; do
		ip netns del "$n" 2>/dev/null
	done
	rmdir "${BPFWD_BPFFS:-$BPFFS}/bpfwd" 2>/dev/null
	# the stock table goes only if we made it and nobody else uses it
	[ -e "$STOCK_DIR/bpfwd_ports" ] &&
		[ "$(bpftool -j map dump pinned "$STOCK_DIR/bpfwd_ports" |
		     jq length)" != 0 ] && EX_STOCK_NEW=()
	for t in "${EX_STOCK_NEW[@]}"; do
		if [ -L "$t" ]; then
			[ -e "$BPFFS/tc" ] || rm -f "$t"
		elif [ -d "$t" ]; then
			rmdir "$t" 2>/dev/null
		elif [ -e "$t" ]; then
			rm -f "$t"
		fi
	done
	exit "$rc"
}

ex_traps() {
	trap ex_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# stock_tc NS DEV DIR PRIO SECTION [da]: clsact (if missing) and a
# cls_bpf filter running SECTION of redirect.o, loaded by stock tc; on a
# failure, removes the qdisc again if it added it
stock_tc() {
	local n=$1 dev=$2 dir=$3 prio=$4 sec=$5 da=${6:-} new=

	if ! in_ns "$n" tc qdisc show dev "$dev" | grep -q '^qdisc clsact'; then
		in_ns "$n" tc qdisc add dev "$dev" clsact || return 1
		new=1
	fi
	in_ns "$n" tc filter add dev "$dev" "$dir" prio "$prio" \
		bpf $da obj "$OBJ" sec "$sec" && return 0
	[ -n "$new" ] && in_ns "$n" tc qdisc del dev "$dev" clsact
	return 1
}

# clsact_gc NS DEV: deletes DEV's clsact qdisc when no filter is left
clsact_gc() {
	local n=$1 dev=$2

	[ -z "$(in_ns "$n" tc filter show dev "$dev" ingress 2>/dev/null)" ] &&
		[ -z "$(in_ns "$n" tc filter show dev "$dev" egress 2>/dev/null)" ] &&
		in_ns "$n" tc qdisc del dev "$dev" clsact 2>/dev/null
	return 0
}

# stock_main ARGS...: what xconnect.sh and clone-tap.sh do with their
# arguments: real_devices ARGS when there are some, else namespaces
stock_main() {
	find_tools obj
	need_stock_bpffs
	ex_traps
	if [ $# -gt 0 ]; then
		real_devices "$@"
	else
		namespaces
	fi
}
