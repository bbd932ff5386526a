#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd gen sends exactly what it says: N UDP frames out of the gen veth,
# forwarded by a bpfwd port through the dut, arrive at the sink's stack
# as N datagrams with valid checksums (IPv4 and IPv6), with dsts spread
# over that many destination addresses.  A veth whose peer
# cannot take XDP frames is refused with the fix, and bad input is a
# usage error.  No timing is asserted.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

N=1000

# snmp NS PROTO FIELD: a counter of /proc/net/snmp (Udp, Ip, ...)
snmp() {
	in_ns "$1" awk -v p="$2:" -v f="$3" '
		$1 == p && !h { for (i = 2; i <= NF; i++) col[$i] = i; h = 1; next }
		$1 == p && h { print $col[f]; exit }' /proc/net/snmp
}
snmp6() {
	in_ns "$1" awk -v f="$2" '$1 == f { print $2 }' /proc/net/snmp6
}

topo || { not_ok "topology"; done_testing; }

# 1. the dut's d0 has no NAPI yet: gen must refuse and say how to fix it
out=$(bpfwd_ns "$gen" gen dev g0 count 10 2>&1)
is "$?" 1 "gen into a veth whose peer has no NAPI fails"
like "$out" "gro on" "and tells the user to turn GRO (NAPI) on at the peer"
is "$(rx_packets "$dut" d0)" 0 "and nothing reached the peer"

# 2. NAPI on, a port forwarding d0 -> d1: exactly N at the sink's stack
in_ns "$dut" ethtool -K d0 gro on >/dev/null
check "port add d0 -> d1" bpfwd_ns "$dut" port add dev d0 to d1 hook tc
noports0=$(snmp "$sink" Udp NoPorts)
csumerr0=$(snmp "$sink" Udp InCsumErrors)
rx0=$(rx_packets "$sink" s0)
js=$(bpfwd_ns "$gen" -j gen dev g0 count $N flows 4 cpu 0)
if jq -e . >/dev/null 2>&1 <<<"$js"; then ok "gen -j prints valid JSON"; else not_ok "gen -j prints valid JSON"; diag "$js"; fi
is "$(jq .frames <<<"$js")" $N "gen reports $N frames"
is "$(jq .dropped <<<"$js")" 0 "gen reports no drops"
is "$(jq .flows <<<"$js")" 4 "gen reports 4 flows"
sleep 0.3
is "$(($(rx_packets "$sink" s0) - rx0))" $N "sink's s0 received exactly $N frames"
is "$(($(snmp "$sink" Udp NoPorts) - noports0))" $N \
	"sink's UDP stack took exactly $N datagrams (checksums valid)"
is "$(($(snmp "$sink" Udp InCsumErrors) - csumerr0))" 0 "no UDP checksum errors"
is "$(stats_of "$dut" d0 packets)" $N "the dut's port forwarded exactly $N"

js=$(bpfwd_ns "$gen" -j gen dev g0 duration 1)
is "$?" 0 "gen duration 1 ends by itself"
ge "$(jq .frames <<<"$js")" 1 "and reports the frames it sent"

# flows: source ports round robin from 49152, each with a valid checksum
if command -v tcpdump >/dev/null; then
	in_ns "$sink" timeout 10 tcpdump -i s0 -nn -vv -l -c 16 udp \
		>"$TMPDIR_T/cap" 2>/dev/null &
	cap=$!
	sleep 1
	bpfwd_ns "$gen" gen dev g0 count 16 flows 4 >/dev/null
	wait "$cap"
	ports=$(grep -o '192\.0\.2\.1\.[0-9]*' "$TMPDIR_T/cap" | cut -d. -f5 | sort -u | tr '\n' ' ')
	is "$ports" "49152 49153 49154 49155 " "flows 4: four source ports, round robin from 49152"
	is "$(grep -c 'udp sum ok' "$TMPDIR_T/cap")" 16 "tcpdump finds every UDP checksum ok"
else
	skip "tcpdump missing: flows not checked on the wire"
fi

# ^C ends a run early; the summary still counts what went out
"$BPFWD" -n "$gen" -j gen dev g0 duration 60 >"$TMPDIR_T/int" 2>/dev/null &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
is "$?" 0 "gen stopped by ^C exits 0"
is "$(jq .interrupted "$TMPDIR_T/int")" true "and says it was interrupted"
ge "$(jq .frames "$TMPDIR_T/int")" 1 "and counts the frames it sent"

# 3. IPv6 with explicit addresses
in_ns "$sink" sysctl -qw net.ipv6.conf.s0.disable_ipv6=0
ip -n "$sink" addr add 2001:db8::2/64 dev s0 nodad
smac=$(ip -n "$sink" -j link show s0 | jq -r '.[0].address')
noports0=$(snmp6 "$sink" Udp6NoPorts)
csumerr0=$(snmp6 "$sink" Udp6InCsumErrors)
js=$(bpfwd_ns "$gen" -j gen dev g0 count $N ipv6 src 2001:db8::1 dst "$smac/2001:db8::2")
is "$(jq -r .proto <<<"$js")" udp6 "gen ipv6 sends UDP/IPv6"
sleep 0.3
is "$(($(snmp6 "$sink" Udp6NoPorts) - noports0))" $N \
	"sink's UDP6 stack took exactly $N datagrams (checksums valid)"
is "$(($(snmp6 "$sink" Udp6InCsumErrors) - ${csumerr0:-0}))" 0 "no UDP6 checksum errors"
# dsts with IPv6: the address's last 32 bits counted up, the UDP
# checksum (over the pseudo header) right for each
for a in 3 4 5; do ip -n "$sink" addr add 2001:db8::$a/64 dev s0 nodad; done
noports0=$(snmp6 "$sink" Udp6NoPorts)
csumerr0=$(snmp6 "$sink" Udp6InCsumErrors)
bpfwd_ns "$gen" gen dev g0 count $N ipv6 dsts 4 src 2001:db8::1 dst "$smac/2001:db8::2" >/dev/null
sleep 0.3
is "$(($(snmp6 "$sink" Udp6NoPorts) - noports0))" $N \
	"dsts 4, IPv6: sink's UDP6 stack took exactly $N datagrams to its 4 addresses"
is "$(($(snmp6 "$sink" Udp6InCsumErrors) - ${csumerr0:-0}))" 0 "dsts 4, IPv6: no UDP6 checksum errors"

# 4. a router rewrites frames in place (MACs, TTL), and live frames come
# back to gen's page pool as the router left them: gen writes its
# headers back on every run, so frame N leaves gen as frame 1 did.  The
# dut is a Linux router (192.0.2.0/24 on d0, 198.51.100.0/24 on d1).
# Without the write-back, a recycled frame reaches the dut with the
# sink's MAC as destination (dropped there: not for the router) and TTL
# 63 (62 at the sink).
R=20000
topo r || not_ok "router topology"
ip -n "$sinkr" addr flush dev s0
ip -n "$sinkr" addr add 198.51.100.2/24 dev s0
ip -n "$sinkr" route add default via 198.51.100.254
ip -n "$dutr" addr add 192.0.2.254/24 dev d0
ip -n "$dutr" addr add 198.51.100.254/24 dev d1
in_ns "$dutr" sysctl -qw net.ipv4.ip_forward=1
in_ns "$dutr" ethtool -K d0 gro on >/dev/null
d0mac=$(mac_of "$dutr" d0)
d1mac=$(mac_of "$dutr" d1)
s0mac=$(mac_of "$sinkr" s0)
ip -n "$dutr" neigh replace 198.51.100.2 lladdr "$s0mac" dev d1 nud permanent
if command -v tcpdump >/dev/null; then
	in_ns "$sinkr" timeout 20 tcpdump -i s0 -B 16384 -nn -e -v -l udp \
		>"$TMPDIR_T/rcap" 2>/dev/null &
	cap=$!
	sleep 1
fi
rx0=$(udp_noports "$sinkr")
js=$(bpfwd_ns "$genr" -j gen dev g0 count $R dst "$d0mac/198.51.100.2")
sent=$(($(jq .frames <<<"$js") - $(jq .dropped <<<"$js")))
sleep 0.5
got=$(($(udp_noports "$sinkr") - rx0))
ge "$sent" $((R / 2)) "router: gen sent most of $R frames (the rest its veth dropped)"
is "$got" "$sent" "router: every frame gen sent reached the sink's UDP (none came back with the sink's MAC)"
if [ -n "${cap:-}" ]; then
	sleep 0.5
	kill -INT "$cap" 2>/dev/null
	wait "$cap"
	n=$(grep -c "$d1mac > $s0mac" "$TMPDIR_T/rcap")
	ge "$n" 1000 "router: tcpdump at the sink saw the routed frames ($n)"
	is "$(grep -c 'ttl 63,' "$TMPDIR_T/rcap")" "$n" "router: every one with TTL 63 (decremented once)"
	is "$(grep -v "$d1mac > $s0mac" "$TMPDIR_T/rcap" | grep -c 'ttl')" 0 \
		"router: and every one with the router's and the sink's MAC"
else
	skip "tcpdump missing: routed frames not checked on the wire"
fi

# 4b. dsts: frames round robin over N destination addresses, each with
# its IPv4 header and UDP checksums right (the router's and the sink's
# stacks drop a bad one, and count it), and all N of them on the wire
D=4000
ip -n "$dutr" route add 10.0.0.0/24 via 198.51.100.2
ip -n "$sinkr" route add local 10.0.0.0/24 dev lo
rx0=$(udp_noports "$sinkr")
csumerr0=$(snmp "$sinkr" Udp InCsumErrors)
hdrerr0=$(snmp "$dutr" Ip InHdrErrors)
if command -v tcpdump >/dev/null; then
	in_ns "$sinkr" timeout 20 tcpdump -i s0 -B 16384 -nn -l -c 64 udp \
		>"$TMPDIR_T/dcap" 2>/dev/null &
	cap=$!
	sleep 1
fi
js=$(bpfwd_ns "$genr" -j gen dev g0 count $D flows 4 dsts 16 dst "$d0mac/10.0.0.1")
is "$(jq .dsts <<<"$js")" 16 "dsts 16: gen reports 16 destinations"
sent=$(($(jq .frames <<<"$js") - $(jq .dropped <<<"$js")))
sleep 0.5
ge "$sent" $((D / 2)) "dsts: gen sent most of $D frames"
is "$(($(udp_noports "$sinkr") - rx0))" "$sent" \
	"dsts: every frame gen sent reached the sink's UDP (IP and UDP checksums valid)"
is "$(($(snmp "$sinkr" Udp InCsumErrors) - csumerr0))" 0 "dsts: no UDP checksum errors"
is "$(($(snmp "$dutr" Ip InHdrErrors) - hdrerr0))" 0 \
	"dsts: no IP header errors at the router (IPv4 header checksums valid)"
if [ -n "${cap:-}" ]; then
	wait "$cap"
	dsts=$(grep -o '> 10\.0\.0\.[0-9]*' "$TMPDIR_T/dcap" | sort -u | wc -l)
	is "$dsts" 16 "dsts 16: 16 distinct destination addresses at the sink"
	like "$(grep -o '> 10\.0\.0\.[0-9]*' "$TMPDIR_T/dcap" | head -3 | tr '\n' ' ')" \
		'> 10.0.0.1 > 10.0.0.2 > 10.0.0.3 ' "dsts: round robin from dst's address up"
else
	skip "tcpdump missing: destinations not checked on the wire"
fi

# 5. bad input
bpfwd_ns "$gen" gen count 10 >/dev/null 2>&1
is "$?" 2 "gen without dev is a usage error"
bpfwd_ns "$gen" gen dev g0 count 10 duration 1 >/dev/null 2>&1
is "$?" 2 "count with duration is a usage error"
out=$(bpfwd_ns "$gen" gen dev nosuch0 count 10 2>&1)
is "$?" 1 "gen on a missing device fails"
like "$out" "gen nosuch0: no such device" "and names command, device and cause"
out=$(bpfwd_ns "$gen" gen dev g0 size 40 2>&1)
is "$?" 2 "a frame size below the minimum is a usage error"
like "$out" 'size "40": out of range \(64-1518\)' "and says the sizes gen builds"

bpfwd_ns "$dut" port del dev d0
done_testing
