#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The XDP traps and bad input: each refused with one line that names the
# command, the device and the cause (and the fix), exit 1 for a failure
# and 2 for a usage error, and nothing changed: no XDP program on the
# device, no port, no pin.
#  - a target veth whose peer has neither GRO nor an XDP program
#  - a device that already runs someone else's XDP program
#  - (an MTU above a page is none: the programs are multi-buffer)
#  - a device without native XDP (a bridge), as port and as target
#  - two cpumap ports wanting one CPU's queue with different sizes
#  - words, values and combinations the grammar does not take
source "$(dirname "$0")/../lib.sh"
need_bpfwd

FOREIGN=$BUILD/tests/test_xdp

# refused DESC RC REGEX ARGS...: bpfwd -n dut ARGS fails with RC, one
# line matching REGEX, and leaves d0 without port, program or pin
refused() {
	local desc=$1 rc=$2 re=$3 out got
	shift 3
	out=$(bpfwd_ns "$dut" "$@" 2>&1)
	got=$?
	is "$got" "$rc" "$desc: exit $rc"
	like "$out" "$re" "$desc: says why"
	is "$(printf '%s\n' "$out" | wc -l)" 1 "$desc: one line"
	is "$(xdp_prog_on "$dut" d0) $(bpfwd_ns "$dut" -j port show | jq length) $(pins_left)" \
		"null 0 0" "$desc: nothing changed"
}

topo || { not_ok topology; done_testing; }
in_ns "$gen" ethtool -K g0 tx off >/dev/null

# the veth trap: s0 has no GRO and no XDP program, so d1 cannot take XDP
refused "target without NAPI" 1 \
	'^bpfwd: port add d0: target d1 cannot take XDP frames: its veth peer .*ethtool -K .* gro on' \
	port add dev d0 to d1 hook xdp
refused "cpumap on to a target without NAPI" 1 'target d1 cannot take XDP frames' \
	port add dev d0 hook xdp cpus 0 to d1
# then pass to d1 sends skbs (tc redirect): no NAPI needed either
check "cpumap then pass to the same target" \
	bpfwd_ns "$dut" port add dev d0 hook xdp cpus 0 then pass to d1
is "$(delivered "$sink" 20)" 20 "cpumap then pass forwards to it"
bpfwd_ns "$dut" port del dev d0
# generic XDP sends skbs: no NAPI needed
check "generic mode takes the same target" \
	bpfwd_ns "$dut" port add dev d0 to d1 hook xdp xdp-mode generic
is "$(delivered "$sink" 20)" 20 "generic mode forwards to it"
bpfwd_ns "$dut" port del dev d0
in_ns "$sink" ethtool -K s0 gro on >/dev/null

# a target that is down: added with a warning (it may come up later)
ip -n "$dut" link set d1 down
out=$(bpfwd_ns "$dut" port add dev d0 to d1 hook xdp 2>&1)
is "$?" 0 "target down: added"
like "$out" "d0: target d1 is down: XDP drops what it redirects there until it is up" \
	"target down: warns"
ip -n "$dut" link set d1 up
is "$(delivered "$sink" 20)" 20 "target up again: forwards"
bpfwd_ns "$dut" port del dev d0

# someone else's program
if [ -x "$FOREIGN" ] && in_ns "$dut" "$FOREIGN" foreign d0; then
	out=$(bpfwd_ns "$dut" port add dev d0 to d1 hook xdp 2>&1)
	is "$?" 1 "foreign program: exit 1"
	like "$out" '^bpfwd: port add d0: already has an XDP program that is not a bpfwd port.s \(foreign, id [0-9]+, xdp\); .*ip link set dev d0 xdp off' \
		"foreign program: named, with the fix"
	is "$(xdp_prog_on "$dut" d0)" foreign "foreign program: still there"
	is "$(bpfwd_ns "$dut" -j port show | jq length)" 0 "foreign program: no port"
	ip -n "$dut" link set dev d0 xdp off
else
	skip "foreign program: $FOREIGN missing or cannot attach"
fi

# MTU: no longer a trap.  The programs take multi-buffer frames
# (xdp.frags), so veth takes them with a jumbo MTU on IN and on its peer
# (tests/netns/xdp-jumbo.t forwards such frames); a driver without
# multi-buffer XDP refuses by itself, and xdp_attach() adds the fix.
ip -n "$gen" link set g0 mtu 9000
ip -n "$dut" link set d0 mtu 9000
check "MTU 9000: added (multi-buffer program)" \
	bpfwd_ns "$dut" port add dev d0 to d1 hook xdp
check "MTU 9000: del" bpfwd_ns "$dut" port del dev d0
ip -n "$dut" link set d0 mtu 1500
check "peer MTU 9000: added (multi-buffer program)" \
	bpfwd_ns "$dut" port add dev d0 to d1 hook xdp
check "peer MTU 9000: del" bpfwd_ns "$dut" port del dev d0
ip -n "$gen" link set g0 mtu 1500

# no native XDP: a bridge
ip -n "$dut" link add br0 type bridge
ip -n "$dut" link set br0 up

# bpfwd probe tells the same per device
xdp_feat() {	# DEV: "native redirect ndo_xmit" from bpfwd -j probe
	bpfwd_ns "$dut" -j probe |
		jq -r --arg d "$1" '.xdp[] | select(.dev == $d) | "\(.native) \(.redirect) \(.ndo_xmit)"'
}
if [ -n "$(xdp_feat d0)" ]; then
	is "$(xdp_feat br0)" "false false false" "probe: br0 has no native XDP"
	is "$(xdp_feat d1)" "true true true" "probe: d1 takes redirects (s0 has GRO)"
	in_ns "$sink" ethtool -K s0 gro off >/dev/null
	is "$(xdp_feat d1)" "true true false" "probe: d1 takes no redirects without GRO on s0"
	like "$(bpfwd_ns "$dut" probe)" "d1 \(native, takes no redirects\)" "probe: says so in text"
	in_ns "$sink" ethtool -K s0 gro on >/dev/null
else
	skip "probe: this kernel does not tell XDP features (Linux < 6.3)"
fi
out=$(bpfwd_ns "$dut" port add dev br0 to d1 hook xdp 2>&1)
is "$?" 1 "bridge as port: exit 1"
like "$out" '^bpfwd: port add br0: the driver has no native XDP; use xdp-mode generic' \
	"bridge as port: says use generic"
is "$(xdp_prog_on "$dut" br0)" null "bridge as port: no program"
refused "bridge as target" 1 'd0: target br0 cannot take XDP frames \(its driver, bridge has no ndo_xdp_xmit\)' \
	port add dev d0 to br0 hook xdp

# one CPU's queue, two sizes (d1's peer s0 keeps tx checksum offload:
# fix-offload, which a refused command does not apply)
check "cpumap port d0 on cpu 0, qsize 1024" \
	bpfwd_ns "$dut" port add dev d0 hook xdp cpus 0 qsize 1024 to d1
out=$(bpfwd_ns "$dut" port add dev d1 hook xdp cpus 0 qsize 512 fix-offload 2>&1)
is "$?" 1 "second qsize for cpu 0: exit 1"
like "$out" 'd1: cpu 0 already queues frames of port d0 with qsize 1024' \
	"second qsize for cpu 0: names the other port"
is "$(xdp_prog_on "$dut" d1)" null "second qsize for cpu 0: d1 untouched"
like "$(in_ns "$sink" ethtool -k s0)" 'tx-checksumming: on' \
	"second qsize for cpu 0: s0's offload untouched"
check "the same qsize shares the queue" \
	bpfwd_ns "$dut" port add dev d1 hook xdp cpus 0 qsize 1024 then pass fix-offload
check "del d1" bpfwd_ns "$dut" port del dev d1
is "$(bpfwd_ns "$dut" -j port show | jq -r '.[0].cpus')" 0 "d0 keeps its cpu 0"
is "$(delivered "$sink" 20)" 20 "d0 still forwards through cpu 0's queue"
check "del d0" bpfwd_ns "$dut" port del dev d0

# replace keeps what it must
bpfwd_ns "$dut" port add dev d0 to d1 hook xdp
out=$(bpfwd_ns "$dut" port replace dev d0 to d1 hook xdp xdp-mode generic 2>&1)
is "$?" 1 "replace to another xdp-mode: exit 1"
like "$out" 'replace keeps the xdp-mode \(native\)' "replace to another xdp-mode: says so"
is "$(xdp_prog_on "$dut" d0)" xdp_redirect "replace to another xdp-mode: program kept"
bpfwd_ns "$dut" port del dev d0
bpfwd_ns "$dut" port add dev d0 to d1 hook tc
out=$(bpfwd_ns "$dut" port replace dev d0 to d1 hook xdp 2>&1)
is "$?" 1 "replace a tc port to hook xdp: exit 1"
like "$out" 'replace keeps the hook \(tc\)' "replace a tc port to hook xdp: says so"
bpfwd_ns "$dut" port del dev d0

# an XDP map pinned by an older layout: named, with the way out
bpfwd_ns "$dut" port add dev d1 to d0 hook tc
dir=$(bpfwd_ns "$dut" -j port show | jq -r '.[0].pin_dir')
bpftool map create "$dir/bpfwd_cpus" type array key 4 value 8 entries 4 name bpfwd_cpus
out=$(bpfwd_ns "$dut" port add dev d0 hook xdp cpus 0 to d1 2>&1)
is "$?" 1 "old bpfwd_cpus layout: exit 1"
like "$out" "pinned map $dir/bpfwd_cpus has another layout .*rm $dir/bpfwd_cpus" \
	"old bpfwd_cpus layout: says what and how to recover"
is "$(xdp_prog_on "$dut" d0) $(bpfwd_ns "$dut" -j port show | jq length)" "null 1" \
	"old bpfwd_cpus layout: nothing added"
rm "$dir/bpfwd_cpus"
check "after rm, the port goes in" bpfwd_ns "$dut" port add dev d0 hook xdp cpus 0 to d1
bpfwd_ns "$dut" port flush

# usage errors: exit 2, nothing changed
refused "no to" 2 'missing "to OUT"' port add dev d0 hook xdp
refused "map without to" 2 'missing "to OUT" \(mode map\)' port add dev d0 hook xdp mode map
refused "tc mode" 2 'mode clone is a tc mode' port add dev d0 to d1 hook xdp mode clone
refused "unknown mode" 2 'unknown mode "fast"' port add dev d0 to d1 hook xdp mode fast
refused "xdp-mode" 2 'unknown xdp-mode "offload"' port add dev d0 to d1 hook xdp xdp-mode offload
refused "cpus without value" 2 '"cpus" needs a value' port add dev d0 hook xdp cpus
refused "cpu out of range" 2 "cpus \"999\": this machine has CPUs 0-" port add dev d0 hook xdp cpus 999
# numbers past 32 and 64 bits are out of range too, not CPU 0
for l in 4294967296 0-4294967296 4294967296-0 0,4294967297 18446744073709551616; do
	refused "cpus $l" 2 "cpus \"$l\": this machine has CPUs 0-" \
		port add dev d0 hook xdp cpus $l
done
refused "cpu twice" 2 'a CPU is listed twice' port add dev d0 hook xdp cpus 0,0
refused "cpu list garbage" 2 'not a CPU list' port add dev d0 hook xdp cpus 1-
refused "qsize 0" 2 'qsize "0": out of range' port add dev d0 hook xdp cpus 0 qsize 0
refused "qsize too big" 2 'qsize "99999": out of range' port add dev d0 hook xdp cpus 0 qsize 99999
refused "qsize without cpus" 2 'qsize needs cpus LIST' port add dev d0 to d1 hook xdp qsize 64
refused "then what" 2 'then "drop": pass or to OUT' port add dev d0 hook xdp cpus 0 then drop
refused "cpus with mode map" 2 'cpus goes with mode cpumap, not mode map' \
	port add dev d0 to d1 hook xdp mode map cpus 0
refused "flood with to" 2 'mode flood sends to every other flood port' \
	port add dev d0 to d1 hook xdp mode flood
refused "group out of range" 2 'group "70000": out of range' \
	port add dev d0 hook xdp mode flood group 70000
refused "group without flood" 2 'group goes with mode flood' \
	port add dev d0 to d1 hook xdp group 1
refused "at egress" 2 'at does not apply to hook xdp' port add dev d0 to d1 hook xdp at egress
refused "cpus with hook tc" 2 'hook tc does not take cpus' port add dev d0 to d1 hook tc cpus 0
refused "unknown word" 2 'unknown argument "fast"' port add dev d0 to d1 hook xdp fast
refused "no such device" 1 'nosuch0: no such device' port add dev nosuch0 to d1 hook xdp
refused "no such target" 1 'nosuch1: no such device' port add dev d0 to nosuch1 hook xdp
refused "IN == OUT" 1 'd0: dev and to are the same device' port add dev d0 to d0 hook xdp

done_testing
