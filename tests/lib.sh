#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Shared by every test script (source it first).  It
#  - re-executes the test under `unshare -m`, with a private bpffs on
#    /sys/fs/bpf (stock tc and bpfwd see the same private pins) and a
#    private tracefs, so nothing a test pins reaches the host;
#  - names namespaces bpfwd-<role>-<random> and deletes them, with every
#    bpffs and temp dir, from an EXIT trap (also on failure, ^C, TERM);
#  - prints TAP for prove: ok/not ok lines, "# SKIP reason" skips and the
#    plan at the end.
# V=1 shows commands; DEBUG=1 opens a shell before cleanup.

TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$TESTS_DIR/.." && pwd)
BPFWD=${BPFWD:-$TOP/build/bpfwd}
BUILD=${BUILD:-$TOP/build}

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root (network namespaces, BPF)"
	exit 0
fi
if [ -z "${BPFWD_UNSHARED:-}" ]; then
	exec env BPFWD_UNSHARED=1 unshare -m --propagation private \
		"$BASH" "$0" "$@"
fi
mount -t bpf bpf /sys/fs/bpf 2>/dev/null
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
unset BPFWD_BPFFS
[ "${V:-0}" = 1 ] && set -x

SUFFIX=$(tr -dc a-z0-9 </dev/urandom | head -c 6)
T_N=0
T_FAIL=0
NS_LIST=()
CLEANUP_HOOKS=()
TMPDIR_T=$(mktemp -d)

cleanup() {
	local rc=$? h ns
	[ "${DEBUG:-0}" = 1 ] && { echo "# DEBUG: shell in test env" >&2; bash </dev/tty >/dev/tty 2>&1; }
	for h in "${CLEANUP_HOOKS[@]}"; do eval "$h" >/dev/null 2>&1; done
	for ns in "${NS_LIST[@]}"; do ip netns del "$ns" 2>/dev/null; done
	rm -rf "$TMPDIR_T"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

on_exit() { CLEANUP_HOOKS+=("$*"); }

# TAP
ok() { T_N=$((T_N + 1)); echo "ok $T_N - $*"; }
not_ok() { T_N=$((T_N + 1)); T_FAIL=$((T_FAIL + 1)); echo "not ok $T_N - $*"; }
skip() { T_N=$((T_N + 1)); echo "ok $T_N # SKIP $*"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
diag() { echo "# $*"; }
done_testing() {
	echo "1..$T_N"
	[ "$T_FAIL" = 0 ]
	exit $?
}

# die MSG: a set-up step failed: fails a test with MSG, ends the run
die() {
	not_ok "$*"
	done_testing
}

# check DESC CMD...: ok when CMD succeeds
check() {
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; diag "failed: $*"; fi
}
# is ACTUAL EXPECTED DESC
is() {
	if [ "$1" = "$2" ]; then ok "$3"; else not_ok "$3"; diag "got '$1', expected '$2'"; fi
}
# ge ACTUAL MIN DESC (numbers)
ge() {
	if [ "${1:-0}" -ge "$2" ] 2>/dev/null; then ok "$3"; else not_ok "$3"; diag "got '${1:-}', expected >= $2"; fi
}
# le ACTUAL MAX DESC (numbers)
le() {
	if [ "${1:-x}" -le "$2" ] 2>/dev/null; then ok "$3"; else not_ok "$3"; diag "got '${1:-}', expected <= $2"; fi
}
# like STRING REGEX DESC
like() {
	if [[ "$1" =~ $2 ]]; then ok "$3"; else not_ok "$3"; diag "got '$1', expected to match /$2/"; fi
}

# setup_ns ROLE...: creates bpfwd-ROLE-SUFFIX and sets $ROLE to its name
setup_ns() {
	local role ns
	for role in "$@"; do
		ns="bpfwd-$role-$SUFFIX"
		ip netns add "$ns" || return 1
		NS_LIST+=("$ns")
		ip -n "$ns" link set lo up
		# no IPv6 autoconf chatter in the counters
		in_ns "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1
		printf -v "$role" '%s' "$ns"
	done
}

# in_ns NS CMD...: runs CMD in NS by setns (nsenter), keeping our mounts
# (unlike `ip netns exec`, which remounts /sys and hides the bpffs)
in_ns() {
	local ns=$1
	shift
	nsenter --net="/run/netns/$ns" "$@"
}

# bpfwd_ns NS ARGS...: bpfwd -n NS
bpfwd_ns() {
	local ns=$1
	shift
	"$BPFWD" -n "$ns" "$@"
}

# veth NS1 DEV1 NS2 DEV2: a veth pair with one queue each side, both up
veth() {
	ip -n "$1" link add "$2" numtxqueues 1 numrxqueues 1 type veth \
		peer "$4" numtxqueues 1 numrxqueues 1 netns "$3" ||
		die "veth $2/$4 failed"
	ip -n "$1" link set "$2" up
	ip -n "$3" link set "$4" up
}

# topo [TAG]: gen --(g0 | d0)-- dut --(d1 | s0)-- sink, one queue per
# veth, gen 192.0.2.1/24, sink 192.0.2.2/24 (addresses live only in
# these namespaces).  Sets $gen $dut $sink, or $genTAG $dutTAG $sinkTAG.
topo() {
	local tag=${1:-} g d s gmac smac
	setup_ns "gen$tag" "dut$tag" "sink$tag" || return 1
	eval "g=\$gen$tag d=\$dut$tag s=\$sink$tag"
	veth "$d" d0 "$g" g0
	veth "$d" d1 "$s" s0
	ip -n "$g" addr add 192.0.2.1/24 dev g0
	ip -n "$s" addr add 192.0.2.2/24 dev s0
	# VLAN tags inside the frame, where native XDP on d0 and d1 sees
	# them (a port there refuses a peer that keeps them outside)
	in_ns "$g" ethtool -K g0 txvlan off tx-vlan-stag-hw-insert off >/dev/null
	in_ns "$s" ethtool -K s0 txvlan off tx-vlan-stag-hw-insert off >/dev/null
	# static neighbours: no ARP needed for one-way tests
	gmac=$(mac_of "$g" g0)
	smac=$(mac_of "$s" s0)
	ip -n "$g" neigh replace 192.0.2.2 lladdr "$smac" dev g0 nud permanent
	ip -n "$s" neigh replace 192.0.2.1 lladdr "$gmac" dev s0 nud permanent
}

# topo_del: removes the namespaces made so far (for a test that builds
# several topologies one after the other)
topo_del() {
	local ns
	for ns in "${NS_LIST[@]}"; do ip netns del "$ns" 2>/dev/null; done
	NS_LIST=()
}

# mac_of NS DEV
mac_of() {
	ip -n "$1" -j link show "$2" | jq -r '.[0].address'
}

# tx_dropped NS DEV: frames the device could not pass on (for a veth, a
# full queue at its peer)
tx_dropped() {
	ip -n "$1" -s -j link show "$2" | jq '.[0].stats64.tx.dropped'
}

# tx_packets NS DEV: the device's transmitted packet count
tx_packets() {
	ip -n "$1" -s -j link show "$2" | jq '.[0].stats64.tx.packets'
}

# rx_packets NS DEV: the device's received packet count
rx_packets() {
	ip -n "$1" -s -j link show "$2" | jq '.[0].stats64.rx.packets'
}

# udp_noports NS: UDP datagrams the namespace's stack received for a port
# nobody listens on (how the tests count UDP that arrived at a stack)
udp_noports() {
	in_ns "$1" awk '/^Udp: [0-9]/ { print $3; exit }' /proc/net/snmp
}

# ip_inreceives NS: IPv4 packets the namespace's stack received
ip_inreceives() {
	in_ns "$1" awk '/^Ip: [0-9]/ { print $4; exit }' /proc/net/snmp
}

# send_udp NS DST N: N datagrams to DST port 9 (discard) from NS, bash
# /dev/udp (examples/example-lib.sh has it as udp_send: tests/examples/lib.t)
send_udp() {
	in_ns "$1" bash -c 'for ((i = 0; i < '"$3"'; i++)); do
		echo bpfwd > /dev/udp/'"$2"'/9; done' 2>/dev/null
}

# stats_of NS DEV FIELD: a counter from bpfwd -j stats
stats_of() {
	bpfwd_ns "$1" -j stats dev "$2" | jq ".[0].$3"
}

# wait_for MIN CMD...: waits (5 s at most) until CMD prints a number of
# at least MIN; for counters that traffic moves a little later (queues,
# kthreads).  Fails when it never does.
wait_for() {
	local min=$1 i
	shift
	for ((i = 0; i < 50; i++)); do
		[ "$("$@")" -ge "$min" ] 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# mark, then unchanged DESC: for a test that defines snapshot() (what a
# command may change, as text): mark takes it before the command,
# unchanged checks that the command changed none of it, with the diff.
BEFORE=
mark() { BEFORE=$(snapshot); }
unchanged() {
	local now

	now=$(snapshot)
	if [ "$now" = "$BEFORE" ]; then
		ok "$1: nothing changed"
	else
		not_ok "$1: nothing changed"
		diff <(echo "$BEFORE") <(echo "$now") | sed 's/^/# /'
	fi
}

# state NS DEV...: what a bpfwd command can change, as text, to compare
# before and after one that must change nothing: NS's devices with their
# XDP programs, its qdiscs, each DEV's filters, NS's `port show`, and
# every entry (with owner and mode) of the test's bpffs
state() {
	local ns=$1 dev
	shift
	ip -n "$ns" -j link show | jq -c '.[] | [.ifname, .xdp]'
	in_ns "$ns" tc qdisc show
	for dev in "$@"; do
		echo "filter show dev $dev ingress"
		echo "filter show dev $dev egress"
	done | in_ns "$ns" tc -batch -
	bpfwd_ns "$ns" -j port show
	find /sys/fs/bpf -printf '%p %u %m %y\n' | sort
} 2>&1

need_bpfwd() {
	[ -x "$BPFWD" ] || skip_all "build/bpfwd missing: run make"
}

# delivered NS N [DST [FROM]]: sends N datagrams from FROM (default
# $gen) to DST (default 192.0.2.2) and prints how many of them NS's stack
# received.  Waits (5 s at most) until all N are there; when none came
# within a second, none is coming.
delivered() {
	local ns=$1 n=$2 dst=${3:-192.0.2.2} from=${4:-$gen} u0 got i
	u0=$(udp_noports "$ns")
	send_udp "$from" "$dst" "$n"
	for ((i = 1; i <= 50; i++)); do
		got=$(($(udp_noports "$ns") - u0))
		[ "$got" -ge "$n" ] && break
		[ "$got" = 0 ] && [ "$i" -ge 10 ] && break
		sleep 0.1
	done
	echo "$got"
}

# replace_while_sending N SPEC...: while gen sends N datagrams to
# 192.0.2.2, replaces the dut's port d0 with each SPEC in turn (words of
# bpfwd port replace dev d0), round after round until the last is sent.
# The datagrams go in chunks of 100, each after at least one more
# replace, so the stream and the replaces overlap however slow either
# is (a sanitizer build, a loaded machine).  Sets $swaps (replaces made)
# and $fails (replaces that failed).
replace_while_sending() {
	local n=$1 spec sender mark=$TMPDIR_T/replaces
	shift
	echo 0 >"$mark"
	(
		sent=0 seen=0
		while ((sent < n)); do
			c=$((n - sent < 100 ? n - sent : 100))
			send_udp "$gen" 192.0.2.2 "$c"
			sent=$((sent + c))
			while (($(cat "$mark") <= seen)); do sleep 0.01; done
			seen=$(cat "$mark")
		done
	) &
	sender=$!
	swaps=0
	fails=0
	while kill -0 "$sender" 2>/dev/null; do
		for spec in "$@"; do
			# shellcheck disable=SC2086
			bpfwd_ns "$dut" port replace dev d0 $spec || fails=$((fails + 1))
			swaps=$((swaps + 1))
			# whole or not at all: the sender never reads it half written
			echo "$swaps" >"$mark.new" && mv -f "$mark.new" "$mark"
		done
	done
	wait "$sender"
}

# has_tcx: the kernel has tcx (Linux 6.6)
has_tcx() {
	"$BPFWD" -j probe | jq -e .tcx >/dev/null
}

# tc_hooks: the tc hooks of this kernel, "tc tcx" or "tc"
tc_hooks() {
	if has_tcx; then echo "tc tcx"; else echo tc; fi
}

# xtopo [TAG]: topo TAG, ready for XDP ports: the sink's s0 has NAPI
# (GRO on) so d1 takes XDP frames, and gen sends full checksums (a
# partial one does not survive the trip through an XDP frame)
xtopo() {
	local g s
	topo "${1:-}" || return 1
	g=gen${1:-} s=sink${1:-}
	in_ns "${!s}" ethtool -K s0 gro on >/dev/null
	in_ns "${!g}" ethtool -K g0 tx off >/dev/null
}

# ifindex_of NS DEV
ifindex_of() {
	ip -n "$1" -j link show "$2" | jq '.[0].ifindex'
}

# xdp_prog_on NS DEV: the name of the XDP program on DEV, or null
xdp_prog_on() {
	ip -n "$1" -j -d link show "$2" 2>/dev/null |
		jq -r '.[0].xdp.prog.name // "null"'
}

# pins [FIND ARGS...]: every path on the test's private bpffs, sorted
pins() {
	find /sys/fs/bpf "$@" 2>/dev/null | sort
}

# pins_left: how many bpfwd pins (files and directories) are left
pins_left() {
	find /sys/fs/bpf/bpfwd -mindepth 1 2>/dev/null | wc -l
}

# leftover_ns NAME: namespaces the example NAME created and left
leftover_ns() {
	ip netns list 2>/dev/null | awk -v p="bpfwd-$1-" 'index($1, p) == 1 { print $1 }'
}

# run_unit NAME IN OUT: runs build/tests/test_NAME PIN_DIR IN OUT in a
# namespace of its own (frames it sends stay there) with the veth pair
# IN -- OUT and an empty pin dir on the private bpffs; the binary prints
# the TAP itself
run_unit() {
	local bin=$BUILD/tests/test_$1 pin_dir=/sys/fs/bpf/bpfwd-unit-$1-$SUFFIX
	[ -x "$bin" ] || skip_all "$bin missing: run make check"
	setup_ns unit || die "namespace for the unit test"
	veth "$unit" "$2" "$unit" "$3"
	mkdir -m 0700 "$pin_dir" || die "pin dir $pin_dir"
	on_exit rm -rf "$pin_dir"
	in_ns "$unit" "$bin" "$pin_dir" "$2" "$3"
}

# run_example NAME [ARGS...]: runs examples/NAME.sh (2 minutes at most);
# sets $OUT (stdout and stderr) and $RC; it must exit 0 and leave no
# namespace and no pin behind
run_example() {
	local name=$1 before
	shift
	before=$(pins)
	OUT=$(timeout 120 "$TOP/examples/$name.sh" "$@" 2>&1)
	RC=$?
	is "$RC" 0 "$name: exits 0"
	[ "$RC" = 0 ] || diag "$(tail -20 <<<"$OUT")"
	is "$(leftover_ns "$name")" "" "$name: no namespace left over"
	is "$(pins)" "$before" "$name: no pin left over"
}
