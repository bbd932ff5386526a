#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The bridge fast path, differentially: one scripted frame set (known and
# unknown unicast, broadcast, multicast, ARP, IPv6 ND, STP BPDU and other
# 01:80:c2 frames, frames for the bridge itself, a station that moves, an
# fdb entry deleted, static entries, ports disabled and learning,
# isolated ports, hairpin, learning and flooding off, a smaller MTU, an
# IPv4 header br_netfilter drops, an fdb flush) goes
# through a 4-port bridge without bpfwd, then with `bpfwd bridge add` on
# tc, tcx and xdp.  Every host must receive the same frames in the same
# order, and the counters must show that the known unicast took the fast
# path.  Then: the daemon killed under traffic (nothing lost, nothing
# misforwarded, the bridge forwards), restarted (fast path again), and
# ageing (ageing_time 10 s, fast-path traffic longer than that: the
# kernel's entries stay, nothing is flooded).  BPFWD_LONG=1 makes the
# ageing run 30 s instead of 14 s.
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/bridge_lib.sh"
need_bpfwd
command -v python3 >/dev/null || skip_all "python3 missing (the frame player)"

N=4
FRAMES="$TESTS_DIR/bridge_frames.py"
SCRIPT=$TMPDIR_T/script
MACS="--mac bcast=ff:ff:ff:ff:ff:ff --mac br=$BR_MAC --mac a2=02:00:00:00:0a:02
      --mac m1=02:00:00:00:00:01 --mac m2=02:00:00:00:00:02
      --mac m3=02:00:00:00:00:03 --mac m4=02:00:00:00:00:04
      --mac m1b=02:00:00:00:01:01 --mac m5=02:00:00:00:01:03
      --mac m6=02:00:00:00:01:06 --mac m55=02:00:00:00:00:55
      --mac mx=02:00:00:00:00:99"

# The frame set.  "sleep 0.3" after each change of the kernel's state
# gives the daemon time to mirror it (the same sleeps run without bpfwd).
cat >"$SCRIPT" <<'EOF'
# every host announces itself: broadcast ARP, the bridge learns
send h1 bcast m1 0806
send h2 bcast m2 0806
send h3 bcast m3 0806
send h4 bcast m4 0806
sleep 0.3
# known unicast, both ways: IPv4, IPv6 (an ND advertisement), ARP
send h1 m2 m1 0800 10
send h2 m1 m2 0800 10
send h3 m4 m3 0800 10
send h4 m1 m4 86dd 10
send h1 m3 m1 0806 5
# unknown unicast: flooded
send h2 mx m2 0800 3
# tagged frames: without vlan_filtering forwarded by MAC, tag and all
send h1 m2 m1 8100:10 3
send h3 m4 m3 8100:20 2
send h2 bcast m2 8100:10 1
# an IPv4 header br_netfilter drops (bad checksum), known stations
send h1 m2 m1 0800bad 2
# multicast, IPv6 ND solicitation, broadcast
send h1 01:00:5e:00:00:01 m1 0800 3
send h2 33:33:ff:00:00:03 m2 86dd 3
send h3 33:33:00:00:00:01 m3 86dd 2
send h4 bcast m4 0806 2
# link-local: STP BPDU (802.3 length), LLDP, LACP, 802.1X
send h1 01:80:c2:00:00:00 m1 0026 2
send h1 01:80:c2:00:00:0e m1 88cc 2
send h2 01:80:c2:00:00:02 m2 8809 2
send h2 01:80:c2:00:00:03 m2 888e 2
# for the bridge itself: its address, a port's address
send h1 br m1 0800 3
send h1 a2 m1 0800 3
# a new station: to the bridge first, then known
send h3 m1 m5 0800 2
sleep 0.3
send h1 m5 m1 0800 3
# a station moves to p3 and back
send h3 m2 m1 0800 2
sleep 0.3
send h2 m1 m2 0800 3
send h1 m2 m1 0800 2
sleep 0.3
send h2 m1 m2 0800 3
# an fdb entry deleted: flooded until learnt again
sh bridge -n "$DUT" fdb del 02:00:00:00:00:04 dev p4 master
sleep 0.3
send h1 m4 m1 0800 3
send h4 m1 m4 0800 1
sleep 0.3
send h1 m4 m1 0800 3
# a static entry: a destination, a source, a source elsewhere
sh bridge -n "$DUT" fdb add 02:00:00:00:00:55 dev p2 master static
sleep 0.3
send h1 m55 m1 0800 3
send h2 m1 m55 0800 3
send h3 m1 m55 0800 2
sleep 0.3
send h1 m55 m1 0800 2
# port states: disabled, learning, forwarding (blocking does not stay
# without STP: the bridge makes such a port forwarding again at once)
sh bridge -n "$DUT" link set dev p4 state 0
sleep 0.3
send h1 m4 m1 0800 3
send h4 m1 m4 0800 3
sh bridge -n "$DUT" link set dev p4 state 2
sleep 0.3
send h1 m4 m1 0800 3
send h4 m1 m4 0800 3
sh bridge -n "$DUT" link set dev p4 state 3
sleep 0.3
send h1 m4 m1 0800 3
send h4 m1 m4 0800 3
# isolated ports
sh bridge -n "$DUT" link set dev p1 isolated on && bridge -n "$DUT" link set dev p2 isolated on
sleep 0.3
send h1 m2 m1 0800 3
send h2 m1 m2 0800 3
send h1 m3 m1 0800 3
send h2 bcast m2 0806 1
sh bridge -n "$DUT" link set dev p1 isolated off && bridge -n "$DUT" link set dev p2 isolated off
sleep 0.3
send h1 m2 m1 0800 3
# hairpin: two stations behind p1
send h1 bcast m1b 0806 1
sleep 0.3
send h1 m1b m1 0800 2
sh bridge -n "$DUT" link set dev p1 hairpin on
sleep 0.3
send h1 m1b m1 0800 2
send h2 m1b m2 0800 2
sh bridge -n "$DUT" link set dev p1 hairpin off
sleep 0.3
send h1 m1b m1 0800 2
# learning off: known stations forwarded, a new one not learnt
sh bridge -n "$DUT" link set dev p3 learning off
sleep 0.3
send h3 m1 m3 0800 2
send h3 m1 m6 0800 2
sleep 0.3
send h1 m6 m1 0800 2
sh bridge -n "$DUT" link set dev p3 learning on
# flooding off on a port: unknown unicast skips it, known still arrives
sh bridge -n "$DUT" link set dev p4 flood off
sleep 0.3
send h1 mx m1 0800 2
send h1 m4 m1 0800 2
sh bridge -n "$DUT" link set dev p4 flood on
# a port with a smaller MTU: the bridge drops what does not fit
sh ip -n "$DUT" link set p4 mtu 200
sleep 0.3
send h1 m4 m1 0800 2 150
send h1 m4 m1 0800 2 400
send h1 m4 m1 86dd 2 400
sh ip -n "$DUT" link set p4 mtu 1500
sleep 0.3
send h1 m4 m1 0800 2 400
# fdb flush: everything unknown again
sh ip -n "$DUT" link set br0 type bridge fdb_flush
sleep 0.3
send h1 m2 m1 0800 2
send h2 m1 m2 0800 2
EOF

# vf_on: the vlan_filtering runs' setup
vf_on() { ip -n "$brdut" link set br0 type bridge vlan_filtering 1; }

check "plain bridge: frame set played" br_play plain none "$SCRIPT"
total=$(cat "$TMPDIR_T"/plain/h* | wc -l)
ge "$total" 150 "plain bridge: the hosts received $total frames"

for hook in ${BR_HOOKS:-tc tcx xdp}; do
	if ! br_play "$hook" "$hook" "$SCRIPT"; then
		not_ok "$hook: frame set played"
		continue
	fi
	ok "$hook: frame set played"
	diag "$hook: $(jq -c . "$TMPDIR_T/$hook.stats")"
	br_same "$hook" plain
	# 10+10+10+10+5 known unicast at the start, and more later
	ge "$(br_stat $hook forwarded)" 45 "$hook: known unicast took the fast path"
	ge "$(br_stat $hook unknown_dst)" 3 "$hook: unknown unicast went to the bridge"
	ge "$(br_stat $hook multicast)" 10 "$hook: broadcast and multicast went to the bridge"
	ge "$(br_stat $hook link_local)" 8 "$hook: 01:80:c2 frames went to the bridge"
	ge "$(br_stat $hook local)" 6 "$hook: frames for the bridge went to it"
	ge "$(br_stat $hook moved_src)" 2 "$hook: a moved station went to the bridge"
	ge "$(br_stat $hook port_state)" 6 "$hook: frames of a disabled or learning port went to the bridge"
	ge "$(br_stat $hook isolation)" 3 "$hook: isolated and hairpin frames went to the bridge"
	is "$(br_stat $hook mtu)" 4 "$hook: frames larger than the egress MTU went to the bridge"
	is "$(br_stat $hook malformed)" 2 "$hook: the bad IPv4 checksum went to the bridge"
	is "$(br_stat $hook stale)" 0 "$hook: no frame met a stale mirror"
	is "$(br_stat $hook vlan)" 0 "$hook: tagged frames took the fast path too (no vlan_filtering)"
done

tagged=$(grep -c '^.\{24\}8100000a' "$TMPDIR_T/plain/h2")
is "$tagged" 3 "plain bridge: tagged frames arrive with their tag (VLAN 10 to h2)"

# vlan_filtering 1 with every port in the default VLAN 1 (pvid,
# untagged): the same frame set in VLAN 1, the tagged frames (VLANs the
# ports are not in) left to the bridge; tests/netns/bridge_vlan.t has the
# VLAN cases
if ! in_ns "$brdut" ip link add bpfwdvf type bridge vlan_filtering 1 2>/dev/null; then
	skip "vlan_filtering: this kernel has no bridge VLAN filtering (vlan_filtering 1: Operation not supported)"
else
	in_ns "$brdut" ip link del bpfwdvf
	if br_play vplain none "$SCRIPT" vf_on && br_play vtc tc "$SCRIPT" vf_on; then
		br_same vtc vplain
		ge "$(br_stat vtc forwarded)" 45 "vlan_filtering: known unicast in VLAN 1 took the fast path"
		ge "$(br_stat vtc vlan)" 6 "vlan_filtering: frames tagged with VLANs of no port went to the bridge"
	else
		not_ok "vlan_filtering: frame set played"
	fi
fi

# ---- the daemon killed under traffic, then restarted ----
topo_del
br_topo $N
br_daemon_start "$brdut"
bpfwd_ns "$brdut" bridge add br0 hook tc
br_wait_sync "$brdut" br0
cat >"$TMPDIR_T/learn" <<'EOF'
send h1 bcast m1 0806
send h2 bcast m2 0806
EOF
mkdir -p "$TMPDIR_T/k0" "$TMPDIR_T/k1" "$TMPDIR_T/k2"
# shellcheck disable=SC2046,SC2086
python3 "$FRAMES" $(br_hosts $N) $MACS --out "$TMPDIR_T/k0" "$TMPDIR_T/learn"
sleep 0.3
cat >"$TMPDIR_T/steady" <<'EOF'
send h1 m2 m1 0800 50
sleep 0.2
send h1 m2 m1 0800 50
sleep 0.2
send h1 m2 m1 0800 50
sleep 0.2
send h1 m2 m1 0800 50
EOF
f0=$(br_counter "$brdut" br0 forwarded)
# shellcheck disable=SC2046,SC2086
python3 "$FRAMES" $(br_hosts $N) $MACS --out "$TMPDIR_T/k1" "$TMPDIR_T/steady" &
player=$!
# the kill comes once the fast path carries the traffic
check "the fast path forwards before the kill" \
	wait_for $((f0 + 1)) br_counter "$brdut" br0 forwarded
br_daemon_stop KILL
wait $player
is "$(wc -l <"$TMPDIR_T/k1/h2")" 200 "daemon killed under traffic: all 200 frames arrive"
is "$(cat "$TMPDIR_T"/k1/h1 "$TMPDIR_T"/k1/h3 "$TMPDIR_T"/k1/h4 | wc -l)" 0 \
	"daemon killed: nothing reaches another host"
sleep 3.2
is "$(br_synced "$brdut" br0)" false "the heartbeat went stale: not in sync"
s0=$(br_counter "$brdut" br0 stale)
# shellcheck disable=SC2046,SC2086
python3 "$FRAMES" $(br_hosts $N) $MACS --out "$TMPDIR_T/k2" "$TMPDIR_T/steady"
is "$(wc -l <"$TMPDIR_T/k2/h2")" 200 "stale mirror: the bridge forwards all 200"
is "$(($(br_counter "$brdut" br0 stale) - s0))" 200 "stale mirror: every frame passed as stale"
br_daemon_start "$brdut"
check "daemon restarted: in sync again" br_wait_sync "$brdut" br0
f0=$(br_counter "$brdut" br0 forwarded)
# shellcheck disable=SC2046,SC2086
python3 "$FRAMES" $(br_hosts $N) $MACS --out "$TMPDIR_T/k2" "$TMPDIR_T/steady"
is "$(($(br_counter "$brdut" br0 forwarded) - f0))" 200 "daemon restarted: the fast path again"
br_daemon_stop
like "$(cat "$TMPDIR_T/daemon.log")" "stopping on signal 15" "daemon stops cleanly on SIGTERM"
is "$BR_DAEMON_RC" 0 "daemon exit status 0 on SIGTERM"
is "$(br_synced "$brdut" br0)" false "after SIGTERM: out of sync at once"

# ---- ageing: stations on the fast path stay in the kernel's fdb ----
AGE_S=${BPFWD_LONG:+30}
AGE_S=${AGE_S:-14}
topo_del
br_topo $N
ip -n "$brdut" link set br0 type bridge ageing_time 1000
br_daemon_start "$brdut"
bpfwd_ns "$brdut" bridge add br0 hook tc
br_wait_sync "$brdut" br0
mkdir -p "$TMPDIR_T/a0" "$TMPDIR_T/a1"
# shellcheck disable=SC2046,SC2086
python3 "$FRAMES" $(br_hosts $N) $MACS --out "$TMPDIR_T/a0" "$TMPDIR_T/learn"
sleep 0.3
{
	for ((i = 0; i < AGE_S * 2; i++)); do
		echo "send h1 m2 m1 0800 2"
		echo "send h2 m1 m2 0800 2"
		echo "sleep 0.5"
	done
} >"$TMPDIR_T/age"
f0=$(br_counter "$brdut" br0 forwarded)
# shellcheck disable=SC2046,SC2086
python3 "$FRAMES" $(br_hosts $N) $MACS --out "$TMPDIR_T/a1" "$TMPDIR_T/age"
kfdb=$(bridge -n "$brdut" -j fdb show br br0 | jq -c '[.[] | select(.flags == [] and (.state // "") == "") | .mac] | sort')
diag "${AGE_S}s at ageing_time 10s, kernel's learnt entries: $kfdb"
is "$kfdb" '["02:00:00:00:00:01","02:00:00:00:00:02"]' "ageing: both stations still in the kernel's fdb"
is "$(cat "$TMPDIR_T"/a1/h3 "$TMPDIR_T"/a1/h4 | wc -l)" 0 "ageing: nothing flooded"
ge "$(($(br_counter "$brdut" br0 forwarded) - f0))" $((AGE_S * 8 * 9 / 10)) \
	"ageing: the traffic took the fast path"
br_daemon_stop

done_testing
