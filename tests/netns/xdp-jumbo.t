#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# XDP multi-buffer: with MTU 9000 on every veth of gen -> dut -> sink,
# 8000-byte UDP datagrams (frames larger than a page: a head and
# fragments in XDP) go through `port add ... hook xdp` whole.  The sink
# writes what it received to a file that must equal what gen sent, the
# port counts the full length of each frame, and the dut's stack sees
# none of them.  Before the programs declared xdp.frags, bpfwd (and veth)
# refused the MTU, and such frames were dropped.
source "$(dirname "$0")/../lib.sh"
need_bpfwd
command -v socat >/dev/null || skip_all "socat missing (make deps)"

N=5
SIZE=8000
# Ethernet + IPv4 + UDP headers around each datagram
FRAME=$((SIZE + 14 + 20 + 8))

# jumbo MODE XDP_MODE: gen's N datagrams of SIZE bytes reach the sink
# intact through d0
jumbo() {
	local mode=$1 xmode=$2 what="$1/$2" d0_in dev rx
	xtopo || { not_ok "$what: topology"; return; }
	for dev in "$gen g0" "$dut d0" "$dut d1" "$sink s0"; do
		# shellcheck disable=SC2086
		set -- $dev
		ip -n "$1" link set "$2" mtu 9000
	done
	if ! bpfwd_ns "$dut" port add dev d0 to d1 hook xdp mode "$mode" \
		xdp-mode "$xmode"; then
		not_ok "$what: port add with MTU 9000"
		topo_del
		return
	fi
	ok "$what: port add with MTU 9000"
	head -c $((N * SIZE)) /dev/urandom >"$TMPDIR_T/sent"
	rm -f "$TMPDIR_T/got"
	in_ns "$sink" timeout 10 socat -u -b 9000 UDP-RECV:7000 \
		"OPEN:$TMPDIR_T/got,creat,append" &
	rx=$!
	sleep 0.5
	d0_in=$(ip_inreceives "$dut")
	in_ns "$gen" socat -u -b $SIZE "OPEN:$TMPDIR_T/sent" \
		UDP-SENDTO:192.0.2.2:7000
	for ((i = 0; i < 50; i++)); do
		[ "$(stat -c %s "$TMPDIR_T/got" 2>/dev/null)" = $((N * SIZE)) ] &&
			break
		sleep 0.1
	done
	kill "$rx" 2>/dev/null
	wait "$rx" 2>/dev/null
	is "$(stat -c %s "$TMPDIR_T/got" 2>/dev/null)" $((N * SIZE)) \
		"$what: the sink got $N datagrams of $SIZE bytes"
	check "$what: they arrived intact" cmp -s "$TMPDIR_T/sent" "$TMPDIR_T/got"
	is "$(stats_of "$dut" d0 packets)" $N "$what: the port forwarded $N frames"
	is "$(stats_of "$dut" d0 bytes)" $((N * FRAME)) \
		"$what: and counted $FRAME bytes each (fragments included)"
	is "$(($(ip_inreceives "$dut") - d0_in))" 0 "$what: the dut's stack saw none"
	check "$what: port del" bpfwd_ns "$dut" port del dev d0
	topo_del
}

jumbo redirect native
jumbo map native
jumbo redirect generic

done_testing
