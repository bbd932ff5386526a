#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd apply FILE (issue 13): the ports a file in batch syntax names
# are added when missing, replaced when they differ, moved (deleted and
# added) when their hook, direction or prio differs, and left alone when
# they are what the file says: a second apply changes nothing, proved
# by the kernel's program and link ids (hook xdp too).  prune deletes the ports the
# file does not name.  A usage error anywhere changes nothing; a line
# that fails names file and line, keeps the ports before it applied and
# the rest as they were.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

topo
veth "$dut" d2 "$sink" s1
CONF=$TMPDIR_T/bpfwd.conf
TCX=tc
has_tcx && TCX=tcx

apply() { bpfwd_ns "$dut" apply "$@"; }
# ids: the program ids the kernel runs on d0 and d1 ingress, and the
# link id of a tcx port: what an apply that changes nothing keeps
ids() {
	local d
	for d in d0 d1; do
		in_ns "$dut" tc -j filter show dev $d ingress | jq -c '[.[].options.prog.id // empty]'
	done
	for l in /sys/fs/bpf/bpfwd/*/link_*; do
		[ -e "$l" ] && bpftool -j link show pinned "$l" | jq -c '[.id, .prog_id]'
	done
}
ports() {
	bpfwd_ns "$dut" -j port show | jq -r 'map("\(.dev)>\(.to) \(.mode) \(.hook)\(if .prio then " prio \(.prio)" else "" end)") | sort | join(", ")'
}

cat >"$CONF" <<EOF
# the dut's ports
port add dev d0 to d1 hook tc

port add dev d1 to d0 \\
	hook $TCX   # continued
EOF
out=$(apply "$CONF")
is "$?" 0 "first apply: exit 0"
is "$out" $'d0: added\nd1: added' "first apply: both added"
is "$(ports)" "d0>d1 redirect tc prio 1, d1>d0 redirect $TCX$([ $TCX = tc ] && echo " prio 1")" \
	"first apply: the ports of the file"
is "$(delivered "$sink" 20)" 20 "first apply: traffic crosses"
ids0=$(ids)

out=$(bpfwd_ns "$dut" -j apply "$CONF")
is "$?" 0 "second apply: exit 0"
is "$(jq -c 'map([.dev, .line, .action])' <<<"$out")" '[["d0",2,"unchanged"],["d1",4,"unchanged"]]' \
	"second apply: -j says unchanged, with lines"
is "$(jq -c 'map(.ifindex)' <<<"$out")" "[$(ifindex_of "$dut" d0),$(ifindex_of "$dut" d1)]" \
	"second apply: -j ifindexes"
is "$(ids)" "$ids0" "second apply: the same programs and links (ids unchanged)"

## a program changed behind bpfwd's back: apply puts it back
in_ns "$dut" tc filter del dev d0 ingress
is "$(apply "$CONF")" $'d0: replaced\nd1: unchanged' "filter deleted by hand: d0 replaced"
is "$(bpfwd_ns "$dut" -j port show dev d0 | jq .[0].attached)" true "filter deleted by hand: attached again"
ids0=$(ids)

## changes: d0's mode (a replace), d1's hook and prio (del and add)
sed -i 's/^port add dev d0 to d1 hook tc$/port replace dev d0 to d2 mode clone hook tc/; s/hook '"$TCX"'/hook tc prio 5/' "$CONF"
out=$(apply "$CONF")
is "$out" $'d0: replaced\nd1: deleted and added' "changed file: d0 replaced, d1 moved"
is "$(ports)" "d0>d2 clone tc prio 1, d1>d0 redirect tc prio 5" "changed file: the new ports"
is "$(in_ns "$dut" tc -j filter show dev d0 ingress | jq -r '.[].options.bpf_name // empty')" \
	clone_xmit "changed file: d0 runs clone_xmit"
ids1=$(ids)
is "$(apply "$CONF" | sort -u | tr '\n' ' ')" "d0: unchanged d1: unchanged " "changed file, again: unchanged"
is "$(ids)" "$ids1" "changed file, again: ids unchanged"

## prune
bpfwd_ns "$dut" port add dev d2 to d0 hook tc prio 9 || die "port add d2"
is "$(apply "$CONF" | grep -c d2)" 0 "without prune: d2 stays, not reported"
is "$(ports)" "d0>d2 clone tc prio 1, d1>d0 redirect tc prio 5, d2>d0 redirect tc prio 9" \
	"without prune: d2 is still a port"
out=$(bpfwd_ns "$dut" -j apply "$CONF" prune)
is "$(jq -c 'map(select(.action == "deleted") | [.dev, .line])' <<<"$out")" '[["d2",null]]' \
	"prune: d2 deleted (line null)"
is "$(ports)" "d0>d2 clone tc prio 1, d1>d0 redirect tc prio 5" "prune: the file's ports only"
is "$(in_ns "$dut" tc -j filter show dev d2 ingress | jq length)" 0 "prune: d2's filter is gone"

## errors: a usage error anywhere changes nothing
before=$(ports; ids; pins)
printf 'port add dev d0 to d1\nport add dev d2 to d0 frob\n' >"$TMPDIR_T/bad.conf"
out=$(apply "$TMPDIR_T/bad.conf" prune 2>&1)
is "$?:$out" "2:bpfwd: apply $TMPDIR_T/bad.conf: line 2: unknown argument \"frob\"" \
	"usage error on line 2: exit 2, names file and line"
is "$(ports; ids; pins)" "$before" "usage error: nothing changed (line 1 not applied, no prune)"
printf 'port add dev d0 to d1\nstats show\n' >"$TMPDIR_T/bad.conf"
out=$(apply "$TMPDIR_T/bad.conf" 2>&1)
is "$?:$out" "2:bpfwd: apply $TMPDIR_T/bad.conf: line 2: apply takes port add and port replace lines only" \
	"another command: refused"
printf 'port add dev d0 to d1\n\nport add dev d0 to d2\n' >"$TMPDIR_T/bad.conf"
out=$(apply "$TMPDIR_T/bad.conf" 2>&1)
is "$?:$out" "2:bpfwd: apply $TMPDIR_T/bad.conf: line 3: d0 is on line 1 already" \
	"a device twice: refused"
is "$(ports; ids; pins)" "$before" "refused files changed nothing"

## a failing line: earlier ports applied, later ones as they were
printf 'port add dev d0 to d1 hook tc\nport add dev nosuch0 to d0\nport add dev d1 to d2 hook tc prio 5\n' >"$TMPDIR_T/fail.conf"
out=$(apply "$TMPDIR_T/fail.conf" prune 2>&1)
is "$?" 1 "failing line 2: exit 1"
like "$out" "bpfwd: apply $TMPDIR_T/fail.conf: line 2: nosuch0: no such device" \
	"failing line 2: names file and line"
like "$out" "d0: replaced" "failing line 2: says what it did before"
is "$(ports)" "d0>d1 redirect tc prio 1, d1>d0 redirect tc prio 5" \
	"failing line 2: line 1 applied, line 3 not, no prune"
out=$(bpfwd_ns "$dut" -j apply "$TMPDIR_T/fail.conf" 2>/dev/null)
is "$(jq -c . <<<"$out")" "{\"error\":\"nosuch0: no such device\",\"command\":\"apply $TMPDIR_T/fail.conf: line 2:\"}" \
	"failing line 2, -j: one JSON error object"

## the shipped example configuration: applies (all commented out), and
## its commented lines are port specs (they fail only on the devices)
out=$(apply "$TOP/etc/bpfwd.conf.example" 2>&1)
is "$?:$out" "0:" "etc/bpfwd.conf.example applies as it is: nothing to do"
sed -n 's/^#port /port /p' "$TOP/etc/bpfwd.conf.example" >"$TMPDIR_T/example.conf"
ge "$(wc -l <"$TMPDIR_T/example.conf")" 3 "the example has port lines"
out=$(apply "$TMPDIR_T/example.conf" 2>&1)
is "$?" 1 "its port lines: no usage error, only devices missing"
like "$out" "line 1: eth1: no such device" "its port lines: the first device is missing"

## hook xdp: an XDP port that is what the file says is left alone (its
## program id kept); a new target is a new copy of the program
bpfwd_ns "$dut" port flush
in_ns "$sink" ethtool -K s0 gro on >/dev/null
in_ns "$sink" ethtool -K s1 gro on >/dev/null
in_ns "$gen" ethtool -K g0 tx off >/dev/null
xid() { ip -n "$dut" -j -d link show d0 | jq -r '.[0].xdp.prog.id // empty'; }
echo "port add dev d0 to d1 hook xdp" >"$TMPDIR_T/xdp.conf"
is "$(apply "$TMPDIR_T/xdp.conf")" "d0: added" "xdp: first apply: added"
id0=$(xid)
out=$(bpfwd_ns "$dut" -j apply "$TMPDIR_T/xdp.conf")
is "$(jq -c 'map([.dev, .action])' <<<"$out")" '[["d0","unchanged"]]' "xdp: second apply: unchanged"
is "$(xid)" "$id0" "xdp: second apply: the same program (id $id0)"
is "$(delivered "$sink" 20)" 20 "xdp: traffic crosses"
sed -i 's/to d1/to d2/' "$TMPDIR_T/xdp.conf"
is "$(apply "$TMPDIR_T/xdp.conf")" "d0: replaced" "xdp: another target: replaced"
id1=$(xid)
is "$([ -n "$id1" ] && [ "$id1" != "$id0" ] && echo yes)" yes "xdp: another target: a new copy ($id0 -> $id1)"
is "$(apply "$TMPDIR_T/xdp.conf")$(xid)" "d0: unchanged$id1" "xdp: again: unchanged, id kept"
ip -n "$dut" link set d0 xdp off
is "$(apply "$TMPDIR_T/xdp.conf")" "d0: replaced" "xdp: program removed by hand: replaced"
is "$(bpfwd_ns "$dut" -j port show dev d0 | jq -c '.[0] | [.to, .mode, .attached]')" \
	'["d2","redirect",true]' "xdp: program removed by hand: attached again"
bpfwd_ns "$dut" port flush

out=$(apply "$TMPDIR_T/none.conf" 2>&1)
is "$?:$out" "1:bpfwd: apply $TMPDIR_T/none.conf: No such file or directory" "a missing file"
if [ ! -e /etc/bpfwd/bpfwd.conf ]; then
	out=$(apply 2>&1)
	is "$?:$out" "1:bpfwd: apply /etc/bpfwd/bpfwd.conf: No such file or directory" \
		"no FILE: /etc/bpfwd/bpfwd.conf"
else
	skip "no FILE: this host has an /etc/bpfwd/bpfwd.conf"
fi

done_testing
