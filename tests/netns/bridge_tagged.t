#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# VLAN tags outside the frame on a bridge port, differentially: h1 tags
# what its stack sends with VLAN 5 in the skb (tests/netns/vlan_push.bpf.c
# on eth0's egress) and its eth0 inserts tags on transmit (a veth's
# default), so the tag reaches p1 in the skb, not in the frame.  XDP does
# not see such a tag: bridge add flags p1 (rx_vlan_offload, with a
# warning naming the fix) and its frames go through the bridge, counted
# as vlan.  tc and tcx see the tag and forward with it.  With h1's tx VLAN
# insertion off, the tag is in the frame and XDP forwards it too.  h2
# must get h1's frames exactly as the bridge alone delivers them, tag
# included, in every run.
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/bridge_lib.sh"
need_bpfwd
command -v python3 >/dev/null || skip_all "python3 missing (the frame player)"
OBJ=$BUILD/tests/bpf/vlan_push.o
[ -f "$OBJ" ] || skip_all "$OBJ missing (make check builds it)"

N=2
FRAMES="$TESTS_DIR/bridge_frames.py"
SCRIPT=$TMPDIR_T/script
MACS="--mac bcast=ff:ff:ff:ff:ff:ff --mac m1=02:00:00:00:00:01
      --mac m2=02:00:00:00:00:02"
cat >"$SCRIPT" <<'EOF'
send h1 bcast m1 0806
send h2 bcast m2 0806
sleep 0.3
send h1 m2 m1 0800 10
send h1 m2 m1 86dd 5
send h2 m1 m2 0800 10
EOF

# tag_h1: h1's IPv4 and IPv6 leave with VLAN 5 in the skb, inserted
# outside the frame (TAG_INSIDE=1: inside it)
tag_h1() {
	if [ "${TAG_INSIDE:-0}" = 1 ]; then
		in_ns "$h1" ethtool -K eth0 txvlan off >/dev/null
	else
		in_ns "$h1" ethtool -K eth0 txvlan on >/dev/null
	fi
	in_ns "$h1" tc qdisc add dev eth0 clsact &&
		in_ns "$h1" tc filter add dev eth0 egress bpf da obj "$OBJ" sec tc
}

check "plain bridge: frame set played" br_play plain none "$SCRIPT" tag_h1
tagged=$(grep -c '^.\{24\}81000005' "$TMPDIR_T/plain/h2")
is "$tagged" 15 "plain bridge: h2 gets h1's 15 frames with their VLAN 5 tag"

# p1_flags NAME: p1's flags in run NAME's bridge show
p1_flags() {
	jq -r '[.[0].ports[] | select(.dev == "p1") | .flags[]] | join(",")' \
		"$TMPDIR_T/$1.show"
}

for hook in $(tc_hooks) xdp xdp-generic; do
	if ! br_play "$hook" "$hook" "$SCRIPT" tag_h1; then
		not_ok "$hook: frame set played"
		continue
	fi
	ok "$hook: frame set played"
	br_same "$hook" plain
	ge "$(br_stat "$hook" forwarded)" 10 "$hook: h2's unicast to h1 took the fast path"
	case $hook in
	tc | tcx)
		ge "$(br_stat "$hook" forwarded)" 25 "$hook: h1's tagged frames took it too"
		is "$(br_stat "$hook" vlan)" 0 "$hook: none passed as vlan"
		;;
	*)
		like "$(p1_flags "$hook")" rx_vlan_offload "$hook: p1 is flagged"
		is "$(br_stat "$hook" forwarded)" 10 "$hook: none of h1's frames took the fast path"
		ge "$(br_stat "$hook" vlan)" 15 "$hook: h1's frames went to the bridge as vlan"
		;;
	esac
done

# the warning of bridge add, one line, naming the fix
topo_del
br_topo $N || die "topology"
in_ns "$h1" ethtool -K eth0 txvlan on >/dev/null
out=$(bpfwd_ns "$brdut" bridge add br0 hook xdp 2>&1)
is "$?" 0 "xdp: bridge add with a port whose peer inserts tags succeeds"
like "$out" 'warning: p1: VLAN tags can reach it outside the frame, where XDP does not see them: its frames go through the bridge \(ethtool -K eth0 txvlan off tx-vlan-stag-hw-insert off in its namespace\)' \
	"xdp: warns and names the fix"
is "$(grep -c 'p2: VLAN' <<<"$out")" 0 "xdp: p2, whose peer sends tags inside the frame, is not flagged"
bpfwd_ns "$brdut" bridge del br0

# the fix: tags inside the frame, XDP sees them and forwards them
export TAG_INSIDE=1
for hook in xdp xdp-generic; do
	if ! br_play "fixed-$hook" "$hook" "$SCRIPT" tag_h1; then
		not_ok "fixed, $hook: frame set played"
		continue
	fi
	ok "fixed, $hook: frame set played"
	br_same "fixed-$hook" plain
	is "$(jq '[.[0].ports[] | select(.dev == "p1")] | length' \
		"$TMPDIR_T/fixed-$hook.show")" 1 "fixed, $hook: p1 is in bridge show"
	is "$(p1_flags "fixed-$hook" | grep -c rx_vlan_offload)" 0 \
		"fixed, $hook: p1 is not flagged"
	ge "$(br_stat "fixed-$hook" forwarded)" 25 "fixed, $hook: h1's tagged frames took the fast path"
done

# followed: the daemon asks again.  p1 is attached with its tags inside
# the frame; then h1's eth0 inserts them outside (as after an ethtool
# -K txvlan on there, which makes no event in the bridge's namespace):
# within its check interval the daemon flags p1 and h1's frames go to
# the bridge again, and off again it takes the flag back.
# p1_flagged WANT: waits (10 s at most) until p1's rx_vlan_offload flag
# is WANT (1 or 0)
p1_flagged() {
	local i n
	for ((i = 0; i < 100; i++)); do
		n=$(bpfwd_ns "$brdut" -j bridge show br0 |
			jq '[.[0].ports[] | select(.dev == "p1") | .flags[] |
			     select(. == "rx_vlan_offload")] | length')
		[ "$n" = "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
txvlan_on_later() {
	p1_flagged 0 || { diag "p1 flagged at attach"; return 1; }
	in_ns "$h1" ethtool -K eth0 txvlan on >/dev/null
	p1_flagged 1
}
: >"$TMPDIR_T/daemon.log"
for hook in xdp xdp-generic; do
	if ! br_play "later-$hook" "$hook" "$SCRIPT" tag_h1 txvlan_on_later; then
		not_ok "later, $hook: the daemon flags p1 once its peer inserts tags outside the frame"
		continue
	fi
	ok "later, $hook: the daemon flags p1 once its peer inserts tags outside the frame"
	br_same "later-$hook" plain
	is "$(br_stat "later-$hook" forwarded)" 10 "later, $hook: none of h1's frames took the fast path"
	ge "$(br_stat "later-$hook" vlan)" 15 "later, $hook: h1's frames went to the bridge as vlan"
done
like "$(cat "$TMPDIR_T/daemon.log")" 'p1: VLAN tags can reach it outside the frame now, where XDP does not see them: its frames go through the bridge \(ethtool -K eth0 txvlan off' \
	"the daemon says so, naming the fix"

# and back: txvlan off again gives p1 its fast path back
txvlan_off_later() {
	in_ns "$h1" ethtool -K eth0 txvlan on >/dev/null
	p1_flagged 1 || { diag "p1 not flagged"; return 1; }
	in_ns "$h1" ethtool -K eth0 txvlan off >/dev/null
	p1_flagged 0
}
if br_play "back-xdp" xdp "$SCRIPT" tag_h1 txvlan_off_later; then
	ok "back, xdp: the daemon takes the flag back once the tags are inside the frame"
	br_same "back-xdp" plain
	ge "$(br_stat "back-xdp" forwarded)" 25 "back, xdp: h1's tagged frames took the fast path"
else
	not_ok "back, xdp: the daemon takes the flag back once the tags are inside the frame"
fi
like "$(cat "$TMPDIR_T/daemon.log")" 'p1: VLAN tags reach it inside the frame: fast path again' \
	"the daemon says that too"

done_testing
