#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd stats shows the state of each port's target beside its counters:
# a tc program cannot see a redirect fail (bpf_redirect() succeeds, the
# kernel drops the frame later), so a port whose target is down keeps
# counting frames that never arrive.  For each tc hook: the target up,
# without carrier (its veth peer down), set down (frames counted, none
# delivered, and stats says so and where the failures are counted), then
# deleted (gone, with its old ifindex), in text and JSON, once and as
# rates.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

N=10

# state_of: d0's target state in bpfwd -j stats
state_of() {
	bpfwd_ns "$dut" -j stats dev d0 | jq -r '.[0].to_state'
}

# text_of: d0's line of bpfwd stats text and the note under the table
text_of() {
	bpfwd_ns "$dut" stats dev d0
}

for hook in $(tc_hooks); do
	topo "$hook" || die "$hook: topology"
	eval "gen=\$gen$hook dut=\$dut$hook sink=\$sink$hook"
	bpfwd_ns "$dut" port add dev d0 to d1 hook "$hook" || die "$hook: port add"
	to=$(ifindex_of "$dut" d1)

	is "$(delivered "$sink" $N)" $N "$hook: target up: $N delivered"
	is "$(state_of)" up "$hook: target up: to_state up"
	txt=$(text_of)
	is "$(awk '$1 == "d0" { print $(NF - 1), $NF }' <<<"$txt")" "d1 up" \
		"$hook: target up: text TO d1, STATE up"
	is "$(grep -c 'not delivered' <<<"$txt")" 0 "$hook: target up: no note"

	ip -n "$sink" link set s0 down
	is "$(state_of)" no-carrier "$hook: peer down: to_state no-carrier"
	ip -n "$sink" link set s0 up

	ip -n "$dut" link set d1 down
	before=$(stats_of "$dut" d0 packets)
	is "$(delivered "$sink" $N)" 0 "$hook: target down: nothing delivered"
	ge "$(($(stats_of "$dut" d0 packets) - before))" $N \
		"$hook: target down: the program still counts $N packets"
	is "$(state_of)" down "$hook: target down: to_state down"
	txt=$(text_of)
	is "$(awk '$1 == "d0" { print $(NF - 1), $NF }' <<<"$txt")" "d1 down" \
		"$hook: target down: text STATE down"
	like "$txt" "d0: target d1 down: frames counted for it are not delivered \(bpfwd monitor counts the failures\)" \
		"$hook: target down: the note says where the failures are counted"
	is "$(bpfwd_ns "$dut" -j stats dev d0 interval 1 count 1 | jq -r '.rates[0].to_state')" \
		down "$hook: target down: stats interval says so too"

	ip -n "$dut" link del d1
	doc=$(bpfwd_ns "$dut" -j stats dev d0)
	is "$(jq -c '.[0] | [.to, .to_ifindex, .to_state]' <<<"$doc")" \
		"[null,$to,\"gone\"]" "$hook: target deleted: to null, its old ifindex, gone"
	txt=$(text_of)
	is "$(awk '$1 == "d0" { print $(NF - 1), $NF }' <<<"$txt")" "if$to gone" \
		"$hook: target deleted: text if$to gone"
	like "$txt" "d0: target if$to gone: .*bpfwd monitor" \
		"$hook: target deleted: the note"
	check "$hook: port del" bpfwd_ns "$dut" port del dev d0
	topo_del
done

done_testing
