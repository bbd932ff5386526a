#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The bridge fast path with VLANs, differentially (as tests/netns/bridge.t):
# the same frames through a 4-port bridge without bpfwd, then with `bpfwd
# bridge add` on tc, tcx, xdp and xdp generic; every host must receive the
# same frames, tags (TPID, VID, PCP) included, and the counters must show
# that the known unicast took the fast path.
#
#  - vlan_filtering 0: tagged frames (802.1Q, 802.1ad, stacked, priority-
#    tagged) are forwarded by MAC in VLAN 0, tags as they came.  Runs on any
#    kernel: the tags are written by a raw socket, no 8021q needed.
#  - vlan_filtering 1 (needs bridge VLAN filtering, the VM lane has it):
#    p1 a trunk (10, 20 tagged, no pvid), p2 access 10, p3 access 20, p4
#    hybrid (pvid 20 untagged, 10 tagged); frames untagged, tagged with
#    allowed and other VIDs, priority-tagged, 802.1ad on an 802.1Q bridge,
#    stacked tags, to known and unknown stations per VLAN, one MAC in two
#    VLANs on two ports; then VLAN changes under way (a VLAN's STP state,
#    untagged flag, a VLAN removed, the pvid moved) that the mirror follows.
#
# BR_VLAN_HOOKS picks the hooks (default "tc tcx xdp xdp-generic"; tcx
# only where the kernel has it), BR_VLAN_CASES the parts (default "novf
# vf"); the VM lane trims both under TCG (tests/vm/50-host-suites.sh).
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/bridge_lib.sh"
need_bpfwd
command -v python3 >/dev/null || skip_all "python3 missing (the frame player)"

N=4
FRAMES="$TESTS_DIR/bridge_frames.py"
MACS="--mac bcast=ff:ff:ff:ff:ff:ff --mac br=$BR_MAC
      --mac m1=02:00:00:00:00:01 --mac m2=02:00:00:00:00:02
      --mac m3=02:00:00:00:00:03 --mac m4=02:00:00:00:00:04
      --mac ms=02:00:00:00:02:22 --mac mx=02:00:00:00:00:99"

# ---- the frame sets ----

# vlan_filtering 0: a tag is payload
cat >"$TMPDIR_T/novf" <<'EOF'
send h1 bcast m1 0806
send h2 bcast m2 0806
send h3 bcast m3 0806
send h4 bcast m4 0806
sleep 0.3
# known unicast, tagged: 802.1Q, priority-tagged, 802.1ad, stacked
send h1 m2 m1 8100:10 4
send h2 m1 m2 8100:20:3 4
send h3 m4 m3 8100:0:5 4
send h4 m3 m4 88a8:100 4
send h1 m4 m1 88a8:100+8100:10 4
send h2 m3 m2 8100:10+8100:20 4
# the same stations untagged
send h1 m2 m1 0800 2
# unknown and broadcast, tagged: flooded
send h1 mx m1 8100:10 2
send h2 bcast m2 8100:10 1
EOF

# vlan_filtering 1
cat >"$TMPDIR_T/vf" <<'EOF'
# learning: h1 (trunk) in 10 and 20, h2 in 10, h3 in 20, h4 in 20 and 10;
# ms lives in VLAN 10 behind p2 and in VLAN 20 behind p3
send h1 bcast m1 8100:10
send h1 bcast m1 8100:20
send h2 bcast m2 0806
send h3 bcast m3 0806
send h4 bcast m4 0806
send h4 bcast m4 8100:10
send h2 bcast ms 0806
send h3 bcast ms 0806
sleep 0.3
# trunk to access: the tag goes (pop); access to trunk: it comes (push)
send h1 m2 m1 8100:10 4
send h2 m1 m2 0800 4
send h1 m3 m1 8100:20 4
send h3 m1 m3 0800 4
# trunk to trunk, tag kept, PCP and DEI too
send h1 m4 m1 8100:10:6 4
send h4 m1 m4 8100:10:2 4
# untagged to untagged, same VLAN (pvid 20 on p3 and p4)
send h4 m3 m4 0800 4
send h3 m4 m3 0800 4
# priority-tagged: the pvid, the PCP kept where the tag stays
send h4 m1 m4 8100:0:5 4
send h2 m1 m2 8100:0:3 4
send h4 m3 m4 8100:0:7 4
# an access port's own VLAN tagged: allowed
send h2 m1 m2 8100:10 3
# one MAC in two VLANs: each VLAN to its own port
send h1 ms m1 8100:10 3
send h1 ms m1 8100:20 3
send h4 ms m4 0800 3
send h4 ms m4 8100:10 3
# stacked: the outer tag is the bridge's, the inner one payload
send h1 m2 m1 8100:10+8100:77 3
send h1 m4 m1 8100:10+88a8:77 3
# not allowed: a VID not on the port, untagged without a pvid, a VID
# the destination is not in, 802.1ad on an 802.1Q bridge (untagged to it)
send h1 m2 m1 8100:30 2
send h2 m1 m2 8100:20 2
send h1 m2 m1 0800 2
send h1 m3 m1 8100:10 2
send h1 m2 m1 88a8:10 2
send h4 m3 m4 88a8:10 2
# unknown unicast and broadcast per VLAN: flooded in that VLAN only
send h1 mx m1 8100:10 2
send h4 mx m4 0800 2
send h3 bcast m3 0800 1
# a VLAN's STP state on a port (kernels with per-VLAN state)
sh bridge -n "$DUT" vlan set dev p4 vid 10 state blocking
sleep 0.3
send h1 m4 m1 8100:10 3
send h4 m1 m4 8100:10 3
sh bridge -n "$DUT" vlan set dev p4 vid 10 state learning
sleep 0.3
send h1 m4 m1 8100:10 3
send h4 m1 m4 8100:10 3
sh bridge -n "$DUT" vlan set dev p4 vid 10 state forwarding
sleep 0.3
send h1 m4 m1 8100:10 3
# p4's VLAN 10 becomes untagged: the tag goes on the way out
sh bridge -n "$DUT" vlan add dev p4 vid 10 untagged
sleep 0.3
send h1 m4 m1 8100:10 3
# VLAN 10 removed from p4: its stations there are gone
sh bridge -n "$DUT" vlan del dev p4 vid 10
sleep 0.3
send h1 m4 m1 8100:10 3
send h4 m1 m4 8100:10 3
# p4's pvid moves to 10: its untagged frames now are VLAN 10
sh bridge -n "$DUT" vlan add dev p4 vid 10 pvid untagged
sleep 0.3
send h4 m1 m4 0800 3
sleep 0.3
send h1 m4 m1 8100:10 3
send h4 m3 m4 0800 3
EOF

# vlans_setup: the VLANs of the vlan_filtering runs
vlans_setup() {
	local d=$brdut
	ip -n "$d" link set br0 type bridge vlan_filtering 1 || return 1
	bridge -n "$d" vlan del dev p1 vid 1 &&
	bridge -n "$d" vlan add dev p1 vid 10 &&
	bridge -n "$d" vlan add dev p1 vid 20 &&
	bridge -n "$d" vlan del dev p2 vid 1 &&
	bridge -n "$d" vlan add dev p2 vid 10 pvid untagged &&
	bridge -n "$d" vlan del dev p3 vid 1 &&
	bridge -n "$d" vlan add dev p3 vid 20 pvid untagged &&
	bridge -n "$d" vlan del dev p4 vid 1 &&
	bridge -n "$d" vlan add dev p4 vid 20 pvid untagged &&
	bridge -n "$d" vlan add dev p4 vid 10
}

# frames NAME HOST HEX: how many frames HOST got in run NAME that start
# with HEX after the two addresses (a tag, an ethertype)
frames() {
	grep -c "^.\{24\}$3" "$TMPDIR_T/$1/$2"
}

hooks=${BR_VLAN_HOOKS:-tc tcx xdp xdp-generic}
has_tcx || hooks=${hooks//tcx/}

# ---- vlan_filtering 0 ----
novf_part() {
	check "vlan_filtering 0: plain bridge" br_play nplain none "$TMPDIR_T/novf"
	is "$(frames nplain h2 8100000a)" 6 "vlan_filtering 0: h2 gets the 802.1Q frames, tag and all"
	is "$(frames nplain h4 88a8006481)" 4 "vlan_filtering 0: h4 gets the stacked 802.1ad+802.1Q frames"
	is "$(frames nplain h4 8100a000)" 4 "vlan_filtering 0: the priority tag (PCP 5) arrives as sent"
	for hook in $hooks; do
		if ! br_play "n$hook" "$hook" "$TMPDIR_T/novf"; then
			not_ok "vlan_filtering 0, $hook: frames played"
			continue
		fi
		diag "vlan_filtering 0, $hook: $(jq -c . "$TMPDIR_T/n$hook.stats")"
		br_same "n$hook" nplain
		ge "$(br_stat "n$hook" forwarded)" 26 \
			"vlan_filtering 0, $hook: the tagged known unicast took the fast path"
		is "$(br_stat "n$hook" vlan)" 0 "vlan_filtering 0, $hook: no frame passed for its tag"
	done
}

# ---- vlan_filtering 1 ----
vf_part() {
	setup_ns vfprobe || return 1
	# shellcheck disable=SC2154
	if ! in_ns "$vfprobe" ip link add bpfwdvf type bridge vlan_filtering 1 2>/dev/null; then
		skip "vlan_filtering 1: this kernel has no bridge VLAN filtering (vlan_filtering 1: Operation not supported)"
		return
	fi
	check "vlan_filtering 1: plain bridge" br_play vplain none "$TMPDIR_T/vf" vlans_setup
	diag "plain: h1 $(wc -l <"$TMPDIR_T/vplain/h1"), h2 $(wc -l <"$TMPDIR_T/vplain/h2"), h3 $(wc -l <"$TMPDIR_T/vplain/h3"), h4 $(wc -l <"$TMPDIR_T/vplain/h4") frames"
	# the plain bridge is the reference; a few checks that it is the
	# VLAN-aware bridge the script means
	ge "$(frames vplain h1 8100000a)" 10 "vlan_filtering 1: h1 (trunk) gets VLAN 10 tagged"
	ge "$(frames vplain h1 8100a014)" 4 "vlan_filtering 1: a priority tag from h4 reaches h1 as VLAN 20, PCP 5"
	is "$(frames vplain h2 8100000a)" 0 "vlan_filtering 1: h2 (access 10) gets no VLAN 10 tag"
	is "$(frames vplain h2 8100004d)" 3 "vlan_filtering 1: h2 gets the inner tag of the stacked frames"
	for hook in $hooks; do
		if ! br_play "v$hook" "$hook" "$TMPDIR_T/vf" vlans_setup; then
			not_ok "vlan_filtering 1, $hook: frames played"
			continue
		fi
		diag "vlan_filtering 1, $hook: $(jq -c . "$TMPDIR_T/v$hook.stats")"
		is "$(jq -c '.[0] | [.vlan_protocol, .vlans_synced, ([.ports[] | [.dev, .pvid, .vlans]] | sort)]' "$TMPDIR_T/v$hook.show")" \
			'["802.1Q",true,[["p1",null,2],["p2",10,1],["p3",20,1],["p4",20,2]]]' \
			"vlan_filtering 1, $hook: bridge show has the ports' VLANs and pvids"
		br_same "v$hook" vplain
		ge "$(br_stat "v$hook" forwarded)" 60 \
			"vlan_filtering 1, $hook: known unicast took the fast path (push, pop, keep, priority)"
		ge "$(br_stat "v$hook" vlan)" 20 \
			"vlan_filtering 1, $hook: disallowed VLANs, other TPIDs, non-forwarding VLANs went to the bridge"
		is "$(br_stat "v$hook" stale)" 0 "vlan_filtering 1, $hook: no frame met a stale mirror"
	done
}

for part in ${BR_VLAN_CASES:-novf vf}; do
	case $part in
	novf|vf) "${part}_part" ;;
	*) die "BR_VLAN_CASES: unknown part '$part' (novf, vf)" ;;
	esac
done
done_testing
