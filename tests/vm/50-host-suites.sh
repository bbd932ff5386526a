#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The host's own suites (tests/netns, tests/cli), run again inside the
# guest kernel: one result per .t file, its TAP shown as a subtest. prove
# is not in the guest, so this is a small runner of its own.
# VMTEST_HOST_SUITES picks the files: "all", or comma-separated paths
# under tests/ (the vmtest lane passes a short default: under TCG the
# whole suite takes longer than the lane's budget).
source "$(dirname "$0")/../lib.sh"
need_bpfwd
# bridge_vlan.t under TCG: the vlan_filtering cases (the others run on
# the host) on tc, xdp and xdp generic, within the lane's budget
export BR_VLAN_CASES=${BR_VLAN_CASES:-vf} BR_VLAN_HOOKS=${BR_VLAN_HOOKS:-tc xdp xdp-generic}

if [ "${VMTEST_HOST_SUITES:-all}" = all ]; then
	files=("$TOP"/tests/netns/*.t "$TOP"/tests/cli/*.t)
else
	IFS=, read -ra files <<<"$VMTEST_HOST_SUITES"
	files=("${files[@]/#/$TOP/tests/}")
fi
for t in "${files[@]}"; do
	[ -f "$t" ] || continue
	name=${t#"$TOP"/tests/}
	echo "# Subtest: $name"
	out=$(BPFWD_UNSHARED= timeout 180 bash "$t" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed 's/^/    /'
	if printf '%s\n' "$out" | grep -q '^1\.\.0 *# *SKIP'; then
		skip "$name: $(printf '%s\n' "$out" | sed -n 's/^1\.\.0 *# *SKIP *//p')"
	elif [ $rc = 0 ] && ! printf '%s\n' "$out" | grep -q '^not ok'; then
		ok "$name"
	else
		not_ok "$name (exit $rc)"
	fi
done
done_testing
