#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The veth offload trap of XDP: g0 sends with tx checksum offload
# (veth's default), so the TCP and UDP of its sockets leave as
# CHECKSUM_PARTIAL skbs, whose unfinished checksums an XDP frame does
# not carry (native XDP), and TCP leaves as TSO skbs larger than the MTU,
# which an XDP redirect drops (generic XDP too): TCP through `hook xdp`
# moved nothing.  port add now refuses that, in both modes, with one line
# naming the fix, and with fix-offload turns the offload off on the peer
# (in its namespace) itself, after which a TCP transfer completes
# intact.  Turning the offload back on under the port shows the trap is
# real: the same transfer then moves nothing.  A peer in the same
# namespace is named as such; one whose namespace bpfwd cannot find is a
# warning, not a refusal.
source "$(dirname "$0")/../lib.sh"
need_bpfwd
command -v socat >/dev/null || skip_all "socat missing (make deps)"

SIZE=$((2 * 1024 * 1024))

# tx_csum NS DEV: "on" or "off", as ethtool -k shows tx-checksumming
tx_csum() {
	in_ns "$1" ethtool -k "$2" | awk '/^tx-checksumming:/ { print $2 }'
}

# tcp_copy: SIZE random bytes over TCP from gen to the sink (10 s at
# most); prints how many arrived intact ("0" when they differ)
tcp_copy() {
	local rx
	head -c $SIZE /dev/urandom >"$TMPDIR_T/sent"
	rm -f "$TMPDIR_T/got"
	in_ns "$sink" timeout 10 socat -u TCP-LISTEN:7001,reuseaddr \
		"OPEN:$TMPDIR_T/got,creat,trunc" &
	rx=$!
	sleep 0.5
	in_ns "$gen" timeout 8 socat -u "OPEN:$TMPDIR_T/sent" \
		TCP:192.0.2.2:7001,connect-timeout=3 2>/dev/null
	wait "$rx" 2>/dev/null
	if cmp -s "$TMPDIR_T/sent" "$TMPDIR_T/got"; then
		stat -c %s "$TMPDIR_T/got"
	else
		echo 0
	fi
}

topo || { not_ok topology; done_testing; }
in_ns "$sink" ethtool -K s0 gro on >/dev/null
# the way back (ACKs): a tc port, the skb path, which keeps checksums
check "return port d1 -> d0 (tc family)" bpfwd_ns "$dut" port add dev d1 to d0
is "$(tx_csum "$gen" g0)" on "g0 sends with tx checksum offload (veth's default)"

# refused, one line with both fixes, nothing changed
out=$(bpfwd_ns "$dut" port add dev d0 to d1 hook xdp 2>&1)
is "$?" 1 "refused: exit 1"
like "$out" '^bpfwd: port add d0: its veth peer g0 \(in another namespace\) sends with tx checksum offload.*ethtool -K g0 tx-checksumming off.*fix-offload' \
	"refused: names the peer and the fixes"
is "$(printf '%s\n' "$out" | wc -l)" 1 "refused: one line"
is "$(xdp_prog_on "$dut" d0) $(bpfwd_ns "$dut" -j port show | jq length)" \
	"null 1" "refused: no program, no port (but the return port)"
is "$(tx_csum "$gen" g0)" on "refused: g0 untouched"

# generic XDP keeps the checksum state, but drops TSO frames larger than
# d1's MTU: refused as well, and fix-offload works there too
out=$(bpfwd_ns "$dut" port add dev d0 to d1 hook xdp xdp-mode generic 2>&1)
is "$?" 1 "xdp-mode generic: refused"
like "$out" 'd0: its veth peer g0 .*fix-offload' "xdp-mode generic: names the fixes"
check "xdp-mode generic fix-offload: added" \
	bpfwd_ns "$dut" port add dev d0 to d1 hook xdp xdp-mode generic fix-offload
is "$(tx_csum "$gen" g0)" off "xdp-mode generic fix-offload: g0's tx checksumming is off"
is "$(tcp_copy)" $SIZE "xdp-mode generic fix-offload: TCP moves $SIZE bytes intact"
check "xdp-mode generic: del" bpfwd_ns "$dut" port del dev d0
is "$(tx_csum "$gen" g0)" on "del: g0's tx checksumming is on again (fix-offload turned it off)"

# fix-offload: bpfwd turns it off in gen's namespace, TCP goes through
check "fix-offload: added" bpfwd_ns "$dut" port add dev d0 to d1 hook xdp fix-offload
is "$(xdp_prog_on "$dut" d0)" xdp_redirect "fix-offload: native program on d0"
is "$(tx_csum "$gen" g0)" off "fix-offload: g0's tx checksumming is off"
is "$(tcp_copy)" $SIZE "fix-offload: TCP moves $SIZE bytes intact through hook xdp"
is "$(delivered "$sink" 20)" 20 "fix-offload: UDP of a socket arrives too"
ge "$(stats_of "$dut" d0 packets)" 20 "fix-offload: the xdp port forwarded them"

# the trap is real: with the offload back on, the same copy moves nothing
in_ns "$gen" ethtool -K g0 tx on >/dev/null
is "$(tcp_copy)" 0 "offload back on under the port: TCP moves nothing (the trap)"
is "$(delivered "$sink" 10)" 0 "offload back on: UDP of a socket is dropped too"
check "del" bpfwd_ns "$dut" port del dev d0

# a peer in the same namespace: named without "another namespace"
veth "$dut" x0 "$dut" x1
out=$(bpfwd_ns "$dut" port add dev x0 to d1 hook xdp 2>&1)
is "$?" 1 "peer here: refused"
like "$out" 'x0: its veth peer x1 sends with tx checksum offload' "peer here: named"
check "peer here: fix-offload" bpfwd_ns "$dut" port add dev x0 to d1 hook xdp fix-offload
is "$(tx_csum "$dut" x1)" off "peer here: x1's tx checksumming is off"
check "peer here: del" bpfwd_ns "$dut" port del dev x0
is "$(tx_csum "$dut" x1)" on "peer here: del turns x1's tx checksumming back on"
# off before the port: bpfwd did not turn it off, del leaves it off
# (tx VLAN insertion too: xdp-vlan.t)
in_ns "$dut" ethtool -K x1 tx off txvlan off tx-vlan-stag-hw-insert off \
	>/dev/null
check "peer off already: fix-offload" bpfwd_ns "$dut" port add dev x0 to d1 hook xdp fix-offload
check "peer off already: del" bpfwd_ns "$dut" port del dev x0
is "$(tx_csum "$dut" x1)" off "peer off already: del leaves x1's tx checksumming off"
# turned on under the port, then replace ... fix-offload: off again,
# and recorded, so that del puts it back
check "replace: port without fix-offload (peer off)" bpfwd_ns "$dut" port add dev x0 to d1 hook xdp
in_ns "$dut" ethtool -K x1 tx on >/dev/null
check "replace ... fix-offload" bpfwd_ns "$dut" port replace dev x0 fix-offload
is "$(tx_csum "$dut" x1)" off "replace ... fix-offload: x1's tx checksumming is off"
check "replace: del" bpfwd_ns "$dut" port del dev x0
is "$(tx_csum "$dut" x1)" on "replace: del turns it back on"
# flush too
check "flush: fix-offload" bpfwd_ns "$dut" port add dev x0 to d1 hook xdp fix-offload
is "$(tx_csum "$dut" x1)" off "flush: x1's tx checksumming is off under the port"

# a peer whose namespace has no name and no process: warned, not refused
setup_ns hidden || not_ok "namespace hidden"
ip -n "$dut" link add y0 type veth peer y1 netns "$hidden"
ip -n "$dut" link set y0 up
ip -n "$hidden" link set y1 up
touch "$TMPDIR_T/hidden-ns"
mount --bind "/run/netns/$hidden" "$TMPDIR_T/hidden-ns"
on_exit umount "$TMPDIR_T/hidden-ns"
ip netns del "$hidden"
out=$(bpfwd_ns "$dut" port add dev y0 to d1 hook xdp 2>&1)
is "$?" 0 "peer not found: added"
like "$out" 'y0: cannot inspect its veth peer in another namespace.*ethtool -K PEER tx-checksumming off' \
	"peer not found: warns with the fix"
check "peer not found: del" bpfwd_ns "$dut" port del dev y0
check "flush: x0 and the return port" bpfwd_ns "$dut" port flush
is "$(tx_csum "$dut" x1)" on "flush turns x1's tx checksumming back on"
is "$(pins_left)" 0 "no pin left"

done_testing
