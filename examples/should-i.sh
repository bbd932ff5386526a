#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Should this box use bpfwd?  Measures, on this machine and in network
# namespaces of its own (no traffic leaves them), what an operator runs:
# the Linux bridge against the bridge with bpfwd's fast path, and the
# kernel's forwarding against bpfwd route, each on tc, tcx and XDP, as
# per-round ratios in one run of bpfwd bench:
#
#   bpfwd bench topology bridge stations 1000 method br-linux,br-tc,...
#   bpfwd bench topology router routes 1000 method kernel-forward,...
#
# Run it:
#   examples/should-i.sh             both, 3 rounds of 2 s each
#   examples/should-i.sh bridge      only the bridge (or: router)
# Environment: BPFWD (default: ../build/bpfwd next to this script, then
# $PATH), ROUNDS (3), DURATION (seconds, 2), STATIONS (1000), ROUTES
# (1000).  Takes about a minute a topology; the ratios of a busy
# machine move by a tenth or two, so run it when the box is quiet.
# Needs root, iproute2, jq; bpfwd's example-lib.sh next to this script.
source "$(dirname "${BASH_SOURCE[0]}")/example-lib.sh"

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-2}

# verdict JSON: one line a row that ran, its median of the per-round
# ratios to the reference row of its topology, and the dut's CPU time
verdict() {
	jq -r '.methods[] | select(.status == "ok")
		| "  \(.name): \(.ratio_to_bridge * 100 | round / 100)x, \(.dut_cpu_ns_per_packet | round) ns of CPU a frame"' "$1"
}

bench() {
	local topo=$1 methods=$2 sizes=$3 out="$EX_TMP/$1.json"

	echo "== $topo: $methods"
	# shellcheck disable=SC2086
	"$BPFWD" bench topology "$topo" $sizes method "$methods" \
		rounds "$ROUNDS" duration "$DURATION" save "$out" ||
		die "bpfwd bench topology $topo failed"
	echo "$topo: median of the per-round ratios to ${methods%%,*}:"
	verdict "$out"
}

find_tools
EX_TMP=$(mktemp -d)
trap 'rm -rf "$EX_TMP"' EXIT
which=${1:-both}
case $which in
bridge|router|both) ;;
*) die "usage: $EX_NAME [ bridge | router ]" ;;
esac
if [ "$which" != router ]; then
	bench bridge br-linux,br-tc,br-tcx,br-xdp "stations ${STATIONS:-1000}"
fi
if [ "$which" != bridge ]; then
	bench router kernel-forward,route-tc,route-tcx,route-xdp "routes ${ROUTES:-1000}"
fi
