#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Two namespaces run bpfwd on one bpffs at the same time, with the same
# ifindex numbers (d0, d1 are 2 and 3 in both).  Each sees only its own
# ports and counters, and deleting or replacing a port in one leaves the
# other forwarding.
source "$(dirname "$0")/../lib.sh"
need_bpfwd

N=30
topo a
topo b
ia=$(ifindex_of "$duta" d0)
ib=$(ifindex_of "$dutb" d0)
is "$ia" "$ib" "both duts number d0 alike (ifindex $ia)"

check "port add in A" bpfwd_ns "$duta" port add dev d0 to d1 hook tc
check "port add in B (same ifindex)" bpfwd_ns "$dutb" port add dev d0 to d1 mode clone hook tc

is "$(bpfwd_ns "$duta" -j port show | jq -c '[.[] | [.dev, .mode]]')" '[["d0","redirect"]]' \
	"A shows only its own port"
is "$(bpfwd_ns "$dutb" -j port show | jq -c '[.[] | [.dev, .mode]]')" '[["d0","clone"]]' \
	"B shows only its own port"

# both sends before either count: a frame of one reaching the other's
# sink would show
ua=$(udp_noports "$sinka")
ub=$(udp_noports "$sinkb")
send_udp "$gena" 192.0.2.2 $N
send_udp "$genb" 192.0.2.2 $((N * 2))
is "$(($(udp_noports "$sinka") - ua))" $N "A forwards its own traffic"
is "$(($(udp_noports "$sinkb") - ub))" $((N * 2)) "B forwards its own traffic"
is "$(stats_of "$duta" d0 packets)" $N "A's counter has only A's frames"
is "$(stats_of "$dutb" d0 packets)" $((N * 2)) "B's counter has only B's frames"

check "port del in A" bpfwd_ns "$duta" port del dev d0
is "$(bpfwd_ns "$duta" -j port show | jq length)" 0 "A has no port left"
is "$(delivered "$sinkb" $N 192.0.2.2 "$genb")" $N "B still forwards after A's del"
is "$(bpfwd_ns "$dutb" -j port show | jq -r '.[0].mode')" clone "B's port untouched"

done_testing
