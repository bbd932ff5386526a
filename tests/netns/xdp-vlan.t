#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The VLAN trap of native XDP on a port: gen tags what it sends with
# VLAN 5 in the skb (tests/netns/vlan_push.bpf.c on g0's egress), and
# with g0's tx VLAN insertion on (a veth's default) the tag reaches d0
# outside the frame.  Native XDP does not see it and its redirect drops
# it, so the sink would get the frames untagged: port add refuses that
# (one line, the fix named), fix-offload turns the insertion off on g0
# (the tag goes inside the frame, which XDP carries) and port del turns
# it back on.  Generic XDP keeps the skb and its tag.  The sink's
# tcpdump tells tagged from untagged.
source "$(dirname "$0")/../lib.sh"
need_bpfwd
OBJ=$BUILD/tests/bpf/vlan_push.o
[ -f "$OBJ" ] || skip_all "$OBJ missing (make check builds it)"
command -v tcpdump >/dev/null || skip_all "tcpdump missing (make deps installs it)"

xtopo || die "topology"
in_ns "$gen" ethtool -K g0 txvlan on tx-vlan-stag-hw-insert on >/dev/null
in_ns "$gen" tc qdisc add dev g0 clsact &&
	in_ns "$gen" tc filter add dev g0 egress bpf da obj "$OBJ" sec tc ||
	die "gen: vlan_push on g0 egress"
N=5

# tx_vlan NS DEV: ethtool's tx-vlan-offload of DEV, on or off
tx_vlan() {
	in_ns "$1" ethtool -k "$2" | awk '$1 == "tx-vlan-offload:" { print $2 }'
}

# at_sink: sends N datagrams from gen to the sink; prints "TAGGED
# UNTAGGED", the frames with VLAN 5 and without a tag that tcpdump on
# s0 saw
at_sink() {
	local cap=$TMPDIR_T/cap err=$TMPDIR_T/cap.err pid i
	: >"$err"
	in_ns "$sink" timeout 10 tcpdump -i s0 -nn -e -l -c $N udp \
		>"$cap" 2>"$err" &
	pid=$!
	for ((i = 0; i < 50; i++)); do
		grep -q listening "$err" && break
		sleep 0.1
	done
	send_udp "$gen" 192.0.2.2 $N
	wait "$pid"
	echo "$(grep -c 'vlan 5,' "$cap") $(grep -vc 'vlan' "$cap")"
}

# native, g0 inserting tags: refused, nothing attached
out=$(bpfwd_ns "$dut" port add dev d0 to d1 hook xdp 2>&1)
is "$?" 1 "native, peer inserts tags: refused"
like "$out" '^bpfwd: port add d0: VLAN tags reach it outside the frame \(its veth peer inserts them on transmit\).*ethtool -K g0 txvlan off.*fix-offload.*xdp-mode generic' \
	"native: names the peer and the fixes"
is "$(wc -l <<<"$out")" 1 "native: one line"
is "$(xdp_prog_on "$dut" d0)" null "native: no program on d0"
is "$(tx_vlan "$gen" g0)" on "native: g0's tx VLAN insertion untouched"

# generic: the skb keeps its tag through the redirect
check "generic: added" bpfwd_ns "$dut" port add dev d0 to d1 hook xdp xdp-mode generic
is "$(at_sink)" "$N 0" "generic: the sink gets every frame with its VLAN 5 tag"
ge "$(stats_of "$dut" d0 packets)" $N "generic: the xdp port forwarded them"
is "$(tx_vlan "$gen" g0)" on "generic: g0's tx VLAN insertion left on"
check "generic: del" bpfwd_ns "$dut" port del dev d0

# native fix-offload: the tag inside the frame, carried
check "native fix-offload: added" bpfwd_ns "$dut" port add dev d0 to d1 hook xdp fix-offload
is "$(xdp_prog_on "$dut" d0)" xdp_redirect "native fix-offload: native program on d0"
is "$(tx_vlan "$gen" g0)" off "native fix-offload: g0's tx VLAN insertion is off"
is "$(at_sink)" "$N 0" "native fix-offload: the sink gets every frame with its VLAN 5 tag"
ge "$(stats_of "$dut" d0 packets)" $N "native fix-offload: the xdp port forwarded them"
# the trap is real: insertion on again under the port, the tags are lost
in_ns "$gen" ethtool -K g0 txvlan on >/dev/null
is "$(at_sink)" "0 $N" "insertion on under a native port: the sink gets them untagged (the trap)"
in_ns "$gen" ethtool -K g0 txvlan off >/dev/null
check "native fix-offload: del" bpfwd_ns "$dut" port del dev d0
is "$(tx_vlan "$gen" g0)" on "del: g0's tx VLAN insertion is on again (fix-offload turned it off)"

# off before the port: fix-offload has nothing to do, del leaves it off
in_ns "$gen" ethtool -K g0 txvlan off tx-vlan-stag-hw-insert off >/dev/null
check "peer off already: added without fix-offload" \
	bpfwd_ns "$dut" port add dev d0 to d1 hook xdp
is "$(at_sink)" "$N 0" "peer off already: tagged frames arrive tagged"
check "peer off already: del" bpfwd_ns "$dut" port del dev d0
is "$(tx_vlan "$gen" g0)" off "peer off already: del leaves it off"

done_testing
