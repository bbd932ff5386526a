#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd bridge on bad input: each case asserts the exit code (1 failure,
# 2 usage), one line on stderr naming the object and the cause, and that
# nothing is left behind (qdiscs, filters, XDP programs, pins).  Also the
# warning of an add without a running daemon, which names the command
# that starts it, and the refusal over bridge filtering (nftables bridge
# table) unless force.
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/bridge_lib.sh"
need_bpfwd

ERR=$TMPDIR_T/err
br_topo 3 || { not_ok "topology"; done_testing; }
ip -n "$brdut" link add br1 type bridge
ip -n "$brdut" link set br1 up

snapshot() {
	local dev
	for dev in br0 br1 p1 p2 p3; do
		in_ns "$brdut" tc qdisc show dev "$dev"
		in_ns "$brdut" tc filter show dev "$dev" ingress
		ip -n "$brdut" -d link show dev "$dev" 2>/dev/null | grep -o 'prog/xdp.*'
	done
	find /sys/fs/bpf -path '*/bpfwd/*' | sort
}

# quiet CMD...: CMD without its stderr (the daemon warning)
quiet() {
	"$@" 2>/dev/null
}

# fails RC REGEX DESC ARGS...: bpfwd in the bridge's namespace exits RC
# with one line on stderr matching REGEX, and changes nothing
fails() {
	local rc=$1 re=$2 desc=$3 got before after lines
	shift 3
	before=$(snapshot 2>&1)
	bpfwd_ns "$brdut" "$@" >/dev/null 2>"$ERR"
	got=$?
	lines=$(wc -l <"$ERR")
	after=$(snapshot 2>&1)
	if [ "$got" = "$rc" ] && [ "$lines" = 1 ] && grep -Eq "$re" "$ERR" &&
	   [ "$after" = "$before" ]; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "exit $got (want $rc), $lines lines: $(cat "$ERR")"
		[ "$after" = "$before" ] ||
			diff <(echo "$before") <(echo "$after") | sed 's/^/# /'
	fi
}

fails 2 'missing BR' "add without a bridge: usage" bridge add
fails 2 'unknown hook "frob"' "unknown hook: usage" bridge add br0 hook frob
fails 2 'xdp-mode applies to hook xdp only' "xdp-mode without hook xdp: usage" \
	bridge add br0 xdp-mode generic
fails 2 'unknown argument "prio"' "unknown keyword: usage" bridge add br0 prio 3
fails 2 'duplicate "hook"' "duplicate keyword: usage" bridge add br0 hook tc hook tcx
fails 1 'bridge add nosuch0: no such device' "no such device" bridge add nosuch0
fails 1 'bridge add p1: not a bridge' "not a bridge" bridge add p1
fails 1 'bridge add br1: the bridge has no ports; add them first \(ip link set dev DEV master br1\)' \
	"a bridge without ports" bridge add br1
fails 1 'bridge del br0: no bpfwd fast path on it' "del of a bridge without fast path" \
	bridge del br0
fails 1 'bridge show br1: no bpfwd fast path on it' "show of a bridge without fast path" \
	bridge show br1

# a port that already is a bpfwd port
bpfwd_ns "$brdut" port add dev p2 to p3 hook tc
fails 1 'bridge add p2: already a bpfwd port .*bpfwd port del dev p2' \
	"a port already carrying a bpfwd port" bridge add br0
bpfwd_ns "$brdut" port del dev p2

# someone else's programs: a tc filter, an XDP program (hook xdp)
in_ns "$brdut" tc qdisc add dev p3 clsact
in_ns "$brdut" tc filter add dev p3 ingress prio 7 bpf da \
	obj "$BUILD/bpf/redirect.o" sec redirect_xmit
fails 1 'bridge add p3: has a tc ingress filter that is not bpfwd.s \(bpf, prio 7\)' \
	"a port with someone else's tc filter" bridge add br0 hook tcx
in_ns "$brdut" tc qdisc del dev p3 clsact
ip -n "$brdut" link set dev p1 xdpgeneric obj "$BUILD/bpf/xdp.o" sec xdp 2>/dev/null
if ip -n "$brdut" -d link show p1 2>/dev/null | grep -q prog/xdp; then
	fails 1 'bridge add p1: already has an XDP program that is not a bpfwd port' \
		"a port with someone else's XDP program" bridge add br0 hook xdp xdp-mode generic
	ip -n "$brdut" link set dev p1 xdpgeneric off
else
	skip "ip could not attach xdp.o to p1 (someone else's XDP program)"
fi

# native XDP to a port whose veth peer has neither GRO nor XDP
in_ns "$h2" ethtool -K eth0 gro off >/dev/null 2>&1
fails 1 'bridge add p2: target p2 cannot take XDP frames: its veth peer .*has neither GRO nor an XDP program' \
	"hook xdp: a port that cannot take XDP frames" bridge add br0 hook xdp
in_ns "$h2" ethtool -K eth0 gro on >/dev/null 2>&1

# bridge filtering the fast path would bypass
if in_ns "$brdut" nft add table bridge filt 2>/dev/null &&
   in_ns "$brdut" nft add chain bridge filt fw '{ type filter hook forward priority 0; }' &&
   in_ns "$brdut" nft add rule bridge filt fw ether type arp counter; then
	fails 1 'bridge add br0: ebtables/nft bridge has 1 rule .*add with force' \
		"nftables bridge rules: refused" bridge add br0
	before=$(snapshot 2>&1)
	check "force: added over the bridge rules" quiet bpfwd_ns "$brdut" bridge add br0 force
	is "$(bpfwd_ns "$brdut" -j bridge show br0 | jq '.[0].force')" true "show says force"
	check "del after force" bpfwd_ns "$brdut" bridge del br0
	is "$(snapshot 2>&1)" "$before" "del left nothing behind"
	in_ns "$brdut" nft delete table bridge filt
else
	skip "nft could not add a bridge table here"
fi

# the daemon not running: a warning that names the command, and it works
before=$(snapshot 2>&1)
bpfwd_ns "$brdut" bridge add br0 2>"$ERR"
is "$?" 0 "add without the daemon succeeds"
is "$(wc -l <"$ERR")" 1 "with one warning line"
like "$(cat "$ERR")" 'br0: bpfwd daemon is not running .*start it: bpfwd daemon' \
	"the warning names the command to start it"
is "$(bpfwd_ns "$brdut" -j bridge show br0 | jq '.[0].sync')" false "not in sync without the daemon"
is "$(bpfwd_ns "$brdut" -j bridge show br0 | jq '[.[0].ports[].attached] | all')" true \
	"its ports carry the fast path"
fails 1 'bridge add br0: already has the fast path on hook tc; remove it first' \
	"add again on another hook" bridge add br0 hook tcx
check "add again on the same hook: repairs" quiet bpfwd_ns "$brdut" bridge add br0
is "$(in_ns "$brdut" env TC_LIB_DIR="$BUILD" tc exec bpfwd -j bridge show br0 | jq -r '.[0].bridge')" br0 \
	"tc exec bpfwd bridge show works"
check "del" bpfwd_ns "$brdut" bridge del br0
is "$(snapshot 2>&1)" "$before" "del left nothing behind"

# JSON errors
bpfwd_ns "$brdut" -j bridge add p1 >"$TMPDIR_T/out" 2>/dev/null
like "$(jq -r '.error' "$TMPDIR_T/out" 2>/dev/null)" 'p1: not a bridge' "-j: the error is JSON"

done_testing
