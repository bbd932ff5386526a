#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Two namespaces run XDP cpumap ports at the same time on the same CPU,
# with the same device names and ifindex numbers: each one's counters,
# cpumap figures and kthread figures (the tracepoint is global, bpfwd
# keeps only its own cpumap's) count its own frames only, and deleting
# one namespace's port leaves the other forwarding.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

N=30
M=50

xtopo a || { not_ok "topology a"; done_testing; }
xtopo b || { not_ok "topology b"; done_testing; }
in_ns "$sinka" ip route add blackhole 192.0.2.1/32
in_ns "$sinkb" ip route add blackhole 192.0.2.1/32
is "$(ifindex_of "$duta" d0)" "$(ifindex_of "$dutb" d0)" "both d0 have one ifindex"

for d in "$duta" "$dutb"; do
	check "cpumap port in ${d%-*}" bpfwd_ns "$d" port add dev d0 hook xdp cpus 0 to d1
done

# both sends before either count: a frame of one reaching the other's
# sink would show
ua=$(udp_noports "$sinka")
ub=$(udp_noports "$sinkb")
send_udp "$gena" 192.0.2.2 $N
send_udp "$genb" 192.0.2.2 $M
wait_for $((ua + N)) udp_noports "$sinka"
wait_for $((ub + M)) udp_noports "$sinkb"
is "$(($(udp_noports "$sinka") - ua))" $N "a: $N reach sink a"
is "$(($(udp_noports "$sinkb") - ub))" $M "b: $M reach sink b"

figures() {	# NS: "packets redirected kthread-processed" of d0 on cpu 0
	bpfwd_ns "$1" -j stats dev d0 |
		jq -r '.[0] | "\(.packets) \(.cpumap[] | select(.cpu == 0) | "\(.redirected) \(.kthread.processed)")"'
}
is "$(figures "$duta")" "$N $N $N" "a counts its $N only (port, cpumap, kthread)"
is "$(figures "$dutb")" "$M $M $M" "b counts its $M only (port, cpumap, kthread)"

check "a: port del" bpfwd_ns "$duta" port del dev d0
is "$(delivered "$sinkb" $M 192.0.2.2 "$genb")" $M "b still forwards after a's port went"
is "$(bpfwd_ns "$dutb" -j port show | jq -r '.[0].attached')" true "b's port still attached"
check "b: port del" bpfwd_ns "$dutb" port del dev d0
is "$(pins_left)" 0 "no pin left"

done_testing
