#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Devices that go away under a port (issue 13), for every hook that
# attaches: port show marks a port whose ingress device was deleted or
# made again (a container's veth, a re-plugged NIC) as (detached) - a
# tcx link stays pinned then, with the kernel's ifindex cleared - and a
# port whose target is gone as (target gone), in text and JSON (to
# null, to_state gone, as stats says); port del takes such a port by
# the name its device had, or by ifindex N.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

for hook in $(tc_hooks); do
	topo
	veth "$dut" a0 "$dut" a1
	D0=$(ifindex_of "$dut" d0)
	A1=$(ifindex_of "$dut" a1)
	bpfwd_ns "$dut" port add dev d0 to a1 hook "$hook" || die "$hook: port add d0"
	bpfwd_ns "$dut" port add dev a0 to d1 hook "$hook" || die "$hook: port add a0"
	A0=$(ifindex_of "$dut" a0)
	j=$(bpfwd_ns "$dut" -j port show dev d0)
	is "$(jq -c '.[0] | [.dev, .name, .to, .to_ifindex, .to_state, .attached, .table]' <<<"$j")" \
		"[\"d0\",\"d0\",\"a1\",$A1,\"up\",true,\"netns\"]" "$hook: all well: JSON"
	like "$(jq -r '.[0].pin_dir' <<<"$j")" '^/sys/fs/bpf/bpfwd/[0-9]+$' "$hook: pin_dir is the pin directory"

	## the target goes (a0/a1 are one veth pair: both go)
	ip -n "$dut" link del a0
	is "$(bpfwd_ns "$dut" port show dev d0)" \
		"d0 to if$A1 mode redirect hook $hook at ingress$([ "$hook" = tc ] && echo " prio 1") (target gone)" \
		"$hook: target deleted: show says (target gone)"
	is "$(bpfwd_ns "$dut" -j port show dev d0 | jq -c '.[0] | [.to, .to_ifindex, .to_state, .attached]')" \
		"[null,$A1,\"gone\",true]" "$hook: target deleted: JSON to null, to_state gone"
	is "$(stats_of "$dut" d0 to_state)" '"gone"' "$hook: stats agrees"

	## the ingress device went with it: show names it by the name it had
	like "$(bpfwd_ns "$dut" port show | grep "^a0")" "^a0 \\(gone\\) to d1 .*\\(detached\\)$" \
		"$hook: ingress deleted: a0 (gone) ... (detached)"
	is "$(bpfwd_ns "$dut" -j port show | jq -c --argjson i "$A0" '.[] | select(.ifindex == $i) | [.dev, .name, .attached]')" \
		'[null,"a0",false]' "$hook: ingress deleted: JSON dev null, name a0, attached false"

	## made again with the same name: another ifindex, the port stays detached
	veth "$dut" a0 "$dut" a1
	is "$(bpfwd_ns "$dut" -j port show | jq -c --argjson i "$A0" '.[] | select(.ifindex == $i) | [.dev, .name, .attached]')" \
		'[null,"a0",false]' "$hook: a0 made again: the old port is detached (not the new a0's)"
	out=$(bpfwd_ns "$dut" port del dev a0 2>&1)
	is "$?:$out" "0:" "$hook: port del dev a0 takes the port a0 had"
	is "$(bpfwd_ns "$dut" -j port show | jq length)" 1 "$hook: d0's port is left"
	[ "$hook" = tcx ] && is "$(find /sys/fs/bpf/bpfwd -name "link_${A0}_*" | wc -l)" 0 \
		"$hook: the old link's pin went with it"

	## by ifindex, and its errors
	out=$(bpfwd_ns "$dut" port del dev a0 2>&1)
	is "$?:$out" "1:bpfwd: port del a0: not a port" "$hook: a0 again: not a port"
	out=$(bpfwd_ns "$dut" port del dev nosuch0 2>&1)
	is "$?:$out" "1:bpfwd: port del nosuch0: no such device, and no port was made on a device of that name" \
		"$hook: a name no port had"
	out=$(bpfwd_ns "$dut" port del dev d0 ifindex "$D0" 2>&1)
	is "$?:$out" '2:bpfwd: port del give one of "dev IN" and "ifindex N"' "$hook: dev and ifindex: usage"
	check "$hook: port del ifindex $D0" bpfwd_ns "$dut" port del ifindex "$D0"
	is "$(bpfwd_ns "$dut" -j port show | jq length)" 0 "$hook: no port left"
	is "$(pins_left)" 0 "$hook: no pin left"
	out=$(bpfwd_ns "$dut" port del ifindex "$D0" 2>&1)
	is "$?:$out" "1:bpfwd: port del ifindex $D0: not a port" "$hook: ifindex of no port"
	topo_del
done
has_tcx || skip "tcx: this kernel has no tcx (needs 6.6)"

done_testing
