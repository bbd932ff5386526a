#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd commands that change state serialise per namespace.  50 `port
# add` of different ports start at once (the first ones race to create
# the table too), then 50 adds and dels of different ports at once,
# several rounds: every command succeeds, every port ends with a stats
# slot of its own, and the counters of a port that carried traffic are
# not zeroed by the del of another.  Unserialised, two adds took the
# same free slot, and the del of one zeroed the other's counters.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

M=49		# veth pairs besides d0/d1: 50 ports in all
ROUNDS=${ROUNDS:-3}
N=20
LOG=$TMPDIR_T/log

topo || { not_ok "topology"; done_testing; }
for ((i = 1; i <= M; i++)); do
	ip -n "$dut" link add "a$i" type veth peer "b$i" || break
	ip -n "$dut" link set "a$i" up
	ip -n "$dut" link set "b$i" up
done

# all CMD-LIST...: runs every "ARGS" of bpfwd -n dut port at once; prints
# how many failed (their messages go to $LOG)
all() {
	local a pids=() fails=0 p
	: >"$LOG"
	for a in "$@"; do
		# shellcheck disable=SC2086
		bpfwd_ns "$dut" port $a 2>>"$LOG" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p" || fails=$((fails + 1)); done
	echo "$fails"
}

# slots_ok N DESC: N ports, each with a slot of its own
slots_ok() {
	local js
	js=$(bpfwd_ns "$dut" -j port show)
	is "$(jq length <<<"$js")" "$1" "$2: $1 ports"
	is "$(jq '[.[].slot] | unique | length' <<<"$js")" "$1" \
		"$2: every port has a slot of its own"
}

for ((r = 1; r <= ROUNDS; r++)); do
	cmds=("add dev d0 to d1")
	for ((i = 1; i <= M; i++)); do cmds+=("add dev a$i to b$i"); done
	is "$(all "${cmds[@]}")" 0 "round $r: 50 adds at once all succeed"
	[ -s "$LOG" ] && diag "$(head -3 "$LOG")"
	slots_ok 50 "round $r, after the adds"

	before=$(udp_noports "$sink")
	send_udp "$gen" 192.0.2.2 $N
	is "$(($(udp_noports "$sink") - before))" $N "round $r: d0 forwards"
	wait_for $N stats_of "$dut" d0 packets
	is "$(stats_of "$dut" d0 packets)" $N "round $r: d0 counted $N frames"

	# adds of ports on b1..b25 and dels of a26..a49, all at once
	cmds=()
	for ((i = 1; i <= 25; i++)); do cmds+=("add dev b$i to a$i"); done
	for ((i = 26; i <= M; i++)); do cmds+=("del dev a$i"); done
	is "$(all "${cmds[@]}")" 0 "round $r: 25 adds and 24 dels at once all succeed"
	[ -s "$LOG" ] && diag "$(head -3 "$LOG")"
	slots_ok $((50 + 25 - 24)) "round $r, after adds and dels"
	is "$(stats_of "$dut" d0 packets)" $N \
		"round $r: d0's counters survive the dels of other ports"

	# the rest goes at once too; the table and its directory go with it
	cmds=("del dev d0")
	for ((i = 1; i <= 25; i++)); do cmds+=("del dev a$i" "del dev b$i"); done
	is "$(all "${cmds[@]}")" 0 "round $r: 51 dels at once all succeed"
	is "$(bpfwd_ns "$dut" -j port show | jq length)" 0 "round $r: no port left"
	check "round $r: no pin directory left" test ! -e /sys/fs/bpf/bpfwd
done

# one process that makes and removes the table again and again: each
# new directory is locked anew (and the old locks let go)
for ((i = 0; i < 40; i++)); do
	echo "port add dev a1 to b1"
	echo "port del dev a1"
done >"$TMPDIR_T/batch"
bpfwd_ns "$dut" -b "$TMPDIR_T/batch" 2>"$LOG"
is "$?" 0 "a batch of 40 adds and dels, the table made and removed each time"
[ -s "$LOG" ] && diag "$(head -3 "$LOG")"

done_testing
