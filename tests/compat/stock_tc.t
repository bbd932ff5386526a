#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The operator's recipe with stock iproute2: tc loads redirect.o, bpfwd
# (or bpftool) only writes the table tc pinned in tc/globals.
#
#   tc qdisc add dev d0 clsact
#   tc filter add dev d0 ingress bpf da obj redirect.o sec SECTION
#   bpfwd port add dev d0 to d1 hook none
#
# For every section: before the entry a frame passes to the dut's stack
# untouched (and counts as unmatched); with it gen's UDP arrives where
# the section sends it and the port's counters move; after port del it
# is no longer forwarded while tc's filter stays.  Then the same with the
# entry written by hand with bpftool, per the layout in bpf/bpfwd.h, and
# with bpfwd writing the entry before tc loads the object.  tc runs in
# the dut with nsenter (in_ns), so its pins land in this test's bpffs.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

OBJ=$BUILD/bpf/redirect.o
STOCK=/sys/fs/bpf/tc/globals
N=30

[ -r "$OBJ" ] || skip_all "$OBJ missing: run make"
command -v tc >/dev/null || skip_all "no tc (iproute2)"

# stock_load SEC: what the operator types, in the dut
stock_load() {
	in_ns "$dut" tc qdisc add dev d0 clsact &&
	in_ns "$dut" tc filter add dev d0 ingress bpf da obj "$OBJ" sec "$1"
}

# fresh: a new topology, and no table left from the one before (the
# programs that used it went away with their namespaces)
fresh() {
	topo_del
	rm -f "$STOCK"/bpfwd_*
	topo || return 1
	# the dut's own address, for frames that must reach its stack
	in_ns "$dut" ip addr add 192.0.2.254/24 dev d0
}

# unmatched NS: packets the stock table counted as passed (no entry)
unmatched() {
	bpfwd_ns "$1" -j stats | jq '[.[] | select(.dev == null and .table == "stock") | .packets] | add // 0'
}

# Per section: the entry's words, where gen sends, whose stack must get
# the datagrams and whose must not, and the set-up the section needs
setup_section() {
	DST=192.0.2.2 TO=$sink NOT=$dut ARGS=()
	case $1 in
	redirect_recv | clone_redirect_recv)
		# into d1's ingress: the dut's own stack takes them
		in_ns "$dut" ip addr add 192.0.2.2/24 dev d1
		in_ns "$dut" ip route add blackhole 192.0.2.1/32
		ip -n "$gen" neigh replace 192.0.2.2 lladdr "$(mac_of "$dut" d1)" dev g0
		TO=$dut NOT=$sink ARGS=(to-ingress)
		;;
	redirect_neigh)
		# a router port: the neighbour table gives the MAC
		in_ns "$dut" ip addr add 198.51.100.1/24 dev d1
		in_ns "$sink" ip addr add 198.51.100.2/24 dev s0
		in_ns "$gen" ip route add 198.51.100.0/24 via 192.0.2.254
		in_ns "$dut" ip neigh replace 198.51.100.2 \
			lladdr "$(mac_of "$sink" s0)" dev d1 nud permanent
		DST=198.51.100.2
		;;
	esac
	case $1 in
	clone_*) ARGS+=(mode clone) ;;
	redirect_peer) ARGS+=(mode peer) ;;
	redirect_neigh) ARGS+=(mode neigh) ;;
	esac
}

for sec in redirect_xmit redirect_recv clone_redirect_xmit \
	   clone_redirect_recv redirect_peer redirect_neigh; do
	fresh || { not_ok "$sec: topology"; continue; }
	setup_section "$sec"
	if ! stock_load "$sec"; then
		not_ok "$sec: stock tc loads redirect.o"
		continue
	fi
	like "$(in_ns "$dut" tc filter show dev d0 ingress)" \
		"redirect.o:\[$sec\] direct-action" "$sec: tc shows its filter"

	u0=$(unmatched "$dut")
	is "$(delivered "$dut" $N 192.0.2.254)" $N \
		"$sec: no entry: $N datagrams to the dut pass to its stack"
	ge "$(($(unmatched "$dut") - u0))" $N "$sec: no entry: counted as unmatched"

	check "$sec: bpfwd port add ${ARGS[*]} hook none" \
		bpfwd_ns "$dut" port add dev d0 to d1 "${ARGS[@]}" hook none
	is "$(bpfwd_ns "$dut" -j port show dev d0 | jq -r '.[0].pin_dir')" "$STOCK" \
		"$sec: the entry is in tc's table"
	tx0=$(tx_packets "$dut" d1)
	n0=$(udp_noports "$NOT")
	is "$(delivered "$TO" $N "$DST")" $N "$sec: $N datagrams arrive"
	is "$(($(udp_noports "$NOT") - n0))" 0 "$sec: and nowhere else"
	ge "$(stats_of "$dut" d0 packets)" $N "$sec: bpfwd stats counts them"
	case $sec in
	clone_*)
		ge "$(stats_of "$dut" d0 dropped)" $N "$sec: originals dropped" ;;
	redirect_peer)
		is "$(($(tx_packets "$dut" d1) - tx0))" 0 "$sec: d1's xmit skipped" ;;
	redirect_neigh)
		is "$(in_ns "$dut" sysctl -n net.ipv4.ip_forward)" 0 \
			"$sec: the dut's stack does not forward" ;;
	esac

	check "$sec: bpfwd port del" bpfwd_ns "$dut" port del dev d0
	u0=$(unmatched "$dut")
	is "$(delivered "$TO" $N "$DST")" 0 "$sec: after del nothing is forwarded"
	ge "$(($(unmatched "$dut") - u0))" $N "$sec: after del frames are unmatched"
	like "$(in_ns "$dut" tc filter show dev d0 ingress)" "redirect.o:\[$sec\]" \
		"$sec: tc's filter stays"
done

# le32 N: the 4 little-endian bytes of N as bpftool wants them (several
# words: callers leave them unquoted)
le32() {
	printf '0x%02x 0x%02x 0x%02x 0x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) \
		$(($1 >> 16 & 255)) $(($1 >> 24 & 255))
}
le64() { echo "$(le32 $(($1 & 0xffffffff))) $(le32 $(($1 >> 32)))"; }

# The table written with bpftool alone: key = ingress ifindex (__u32);
# value = struct bpfwd_port { target, flags, mode, hook, slot, prio
# (__u32 each), netns (__u64) }; counters in bpfwd_stats[slot].
fresh || not_ok "bpftool: topology"
stock_load redirect_xmit || not_ok "bpftool: stock tc loads redirect.o"
in0=$(ifindex_of "$dut" d0)
out=$(ifindex_of "$dut" d1)
slot=7
cookie=$(in_ns "$dut" python3 -c 'import socket, struct
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
print(struct.unpack("Q", s.getsockopt(socket.SOL_SOCKET, 71, 8))[0])' 2>/dev/null)
# shellcheck disable=SC2046
check "bpftool: map update writes the entry" \
	bpftool map update pinned "$STOCK/bpfwd_ports" key $(le32 "$in0") \
	value $(le32 "$out") $(le32 0) $(le32 0) $(le32 0) $(le32 $slot) \
	$(le32 0) $(le64 "${cookie:-0}")
is "$(delivered "$sink" $N)" $N "bpftool: $N datagrams arrive at the sink"
# shellcheck disable=SC2046
sum=$(bpftool -j map lookup pinned "$STOCK/bpfwd_stats" key $(le32 $slot) |
	jq '[.formatted.values[].value.packets] | add')
ge "$sum" $N "bpftool: bpfwd_stats[$slot] counts them"
if [ -n "$cookie" ]; then
	is "$(bpfwd_ns "$dut" -j port show | jq -c '.[0] | [.dev, .to, .hook, .slot]')" \
		'["d0","d1","none",7]' "bpftool: bpfwd port show reads the entry"
	check "bpftool: bpfwd port del removes it" bpfwd_ns "$dut" port del dev d0
else
	skip "bpftool: no python3 to read the netns cookie for the entry"
	# shellcheck disable=SC2046
	bpftool map delete pinned "$STOCK/bpfwd_ports" key $(le32 "$in0")
fi
is "$(delivered "$sink" $N)" 0 "bpftool: without the entry nothing is forwarded"

# bpfwd first, tc second: tc reuses the table bpfwd pinned
fresh || not_ok "bpfwd first: topology"
check "bpfwd first: port add hook none makes tc's table" \
	bpfwd_ns "$dut" port add dev d0 to d1 hook none
check "bpfwd first: then stock tc loads redirect.o" stock_load redirect_xmit
is "$(delivered "$sink" $N)" $N "bpfwd first: $N datagrams arrive at the sink"
ge "$(stats_of "$dut" d0 packets)" $N "bpfwd first: bpfwd stats counts them"

done_testing
