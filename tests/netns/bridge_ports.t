#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# The bridge fast path while the bridge changes, under traffic: a port
# joins (the daemon attaches it, the fast path reaches it), a port leaves
# (detached, nothing of bpfwd left on it), a port whose entries were
# mirrored before the daemon attached it, the fdb is flushed, 10000
# stations are learnt (mirrored one for one), the bridge is deleted (the
# daemon forgets it and removes the pins); and two namespaces with a
# bridge of the same name and the same ifindexes stay apart.
source "$(dirname "$0")/../lib.sh"
source "$TESTS_DIR/bridge_lib.sh"
need_bpfwd
command -v python3 >/dev/null || skip_all "python3 missing (the frame player)"

FRAMES="$TESTS_DIR/bridge_frames.py"
MACS="--mac bcast=ff:ff:ff:ff:ff:ff --mac m1=02:00:00:00:00:01
      --mac m2=02:00:00:00:00:02 --mac m3=02:00:00:00:00:03
      --mac m4=02:00:00:00:00:04"

# play NAME SCRIPT [TAG]: the frame player on 4 hosts, output in
# $TMPDIR_T/NAME
play() {
	mkdir -p "$TMPDIR_T/$1"
	# shellcheck disable=SC2046,SC2086
	python3 "$FRAMES" $(br_hosts 4 "${3:-}") $MACS --out "$TMPDIR_T/$1" "$2"
}

script() {
	local f=$TMPDIR_T/script.$RANDOM
	cat >"$f"
	echo "$f"
}

# under_traffic: waits until the fast path has carried a frame of the
# player started last (then the change comes while it sends)
under_traffic() {
	wait_for $(($(br_counter "$brdut" br0 forwarded) + 1)) \
		br_counter "$brdut" br0 forwarded || diag "no traffic on the fast path yet"
}

got() {
	wc -l <"$TMPDIR_T/$1/$2"
}

ports_of() {
	bpfwd_ns "$1" -j bridge show br0 |
		jq -r '[.[0].ports[] | select(.attached and .synced) | .dev] | sort | join(" ")'
}

# ports_are NS LIST: 1 when ports_of NS is LIST, else 0 (for wait_for)
ports_are() {
	[ "$(ports_of "$1")" = "$2" ] && echo 1 || echo 0
}

br_topo 4 || { not_ok topology; done_testing; }
ip -n "$brdut" link set p4 nomaster
br_daemon_start "$brdut"
check "bridge add" bpfwd_ns "$brdut" bridge add br0
br_wait_sync "$brdut" br0
is "$(ports_of "$brdut")" "p1 p2 p3" "three ports carry the fast path"

learn=$(script <<'EOF'
send h1 bcast m1 0806
send h2 bcast m2 0806
send h3 bcast m3 0806
send h4 bcast m4 0806
sleep 0.3
EOF
)

# ---- a port joins ----
ip -n "$brdut" link set p4 master br0
check "the daemon attaches the joining port" wait_for 1 \
	bash -c "[ \"\$(BPFWD=$BPFWD; \"$BPFWD\" -n $brdut -j bridge show br0 |
		jq '[.[0].ports[] | select(.dev == \"p4\" and .attached and .synced)] | length')\" = 1 ] && echo 1"
is "$(ports_of "$brdut")" "p1 p2 p3 p4" "four ports carry the fast path"
play join0 "$learn"
f0=$(br_counter "$brdut" br0 forwarded)
play join "$(script <<'EOF'
send h1 m4 m1 0800 20
send h4 m1 m4 0800 20
EOF
)"
is "$(got join h4) $(got join h1)" "20 20" "joined port: every frame arrives"
is "$(($(br_counter "$brdut" br0 forwarded) - f0))" 40 "joined port: on the fast path"

# ---- a port leaves under traffic ----
steady=$(script <<'EOF'
send h1 m2 m1 0800 50
sleep 0.3
send h1 m2 m1 0800 50
sleep 0.3
send h1 m2 m1 0800 50
sleep 0.3
send h1 m2 m1 0800 50
EOF
)
long=$(for ((i = 0; i < 8; i++)); do echo "send h1 m2 m1 0800 20"; echo "sleep 0.2"; done | script)
play leave0 "$learn"
play leave "$steady" &
player=$!
under_traffic
ip -n "$brdut" link set p3 nomaster
wait $player
is "$(got leave h2)" 200 "a port left under traffic: all 200 frames arrive"
is "$(got leave h3)$(got leave h4)" 00 "nothing reaches another host"
sleep 0.5
is "$(ports_of "$brdut")" "p1 p2 p4" "the leaving port is no longer listed"
is "$(in_ns "$brdut" tc filter show dev p3 ingress)" "" "no filter left on the leaving port"
ip -n "$brdut" link set p3 master br0
check "it joins again" wait_for 1 bash -c \
	"[ \"\$(\"$BPFWD\" -n $brdut -j bridge show br0 | jq '.[0].ports | length')\" = 4 ] && echo 1"

# ---- a port's entries mirrored before it is attached ----
# The daemon held while p4 joins and gets a static station: it reads the
# fdb events before the link event that attaches p4, so those entries
# name a port with no slot yet; the resync the join makes gives it them.
ip -n "$brdut" link set p4 nomaster
check "p4 leaves" wait_for 1 ports_are "$brdut" "p1 p2 p3"
kill -STOP "$BR_DAEMON"
ip -n "$brdut" link set p4 master br0
bridge -n "$brdut" fdb replace 02:00:00:00:00:04 dev p4 master static
kill -CONT "$BR_DAEMON"
check "p4 is attached again" wait_for 1 ports_are "$brdut" "p1 p2 p3 p4"
play early0 "$learn"
f0=$(br_counter "$brdut" br0 forwarded)
play early "$(script <<'EOF'
send h1 m4 m1 0800 20
EOF
)"
is "$(got early h4)" 20 "entry before attach: every frame arrives"
is "$(($(br_counter "$brdut" br0 forwarded) - f0))" 20 \
	"entry before attach: on the fast path"
bridge -n "$brdut" fdb del 02:00:00:00:00:04 dev p4 master static

# ---- fdb flushed under traffic ----
play flush0 "$learn"
play flush "$steady" &
player=$!
under_traffic
ip -n "$brdut" link set br0 type bridge fdb_flush
wait $player
is "$(got flush h2)" 200 "fdb flushed under traffic: all 200 frames arrive"
is "$(got flush h3)" "$(got flush h4)" "what was flooded reached h3 and h4 alike"
sleep 0.5
is "$(bpfwd_ns "$brdut" -j bridge fdb show br0 | jq '[.[] | select(.match | not)] | length')" 0 \
	"after the flush, the mirror matches the kernel's fdb"

# ---- 10000 stations ----
play many "$(script <<'EOF'
stations h1 10000
EOF
)"
kern=$(bridge -n "$brdut" fdb show br br0 | grep -c '^02:10:00:00')
check "10000 stations: mirrored" wait_for 10000 bash -c \
	"\"$BPFWD\" -n $brdut -j bridge fdb show br0 | jq '[.[] | select(.mirror != null and (.mac | startswith(\"02:10:00:00\")))] | length'"
is "$kern" 10000 "10000 stations: the kernel learnt them all"
is "$(bpfwd_ns "$brdut" -j bridge fdb show br0 | jq '[.[] | select(.match | not)] | length')" 0 \
	"10000 stations: the mirror matches the kernel's fdb entry for entry"

# ---- the bridge deleted under traffic ----
play del0 "$learn"
play del "$long" &
player=$!
under_traffic
ip -n "$brdut" link del br0
wait $player
ge "$(got del h2)" 1 "frames arrived until the bridge went"
is "$(got del h3)$(got del h4)" 00 "none went elsewhere"
check "the daemon forgets the bridge" wait_for 1 bash -c \
	"[ \"\$(\"$BPFWD\" -n $brdut -j bridge show | jq length)\" = 0 ] && echo 1"
is "$(for p in p1 p2 p3 p4; do in_ns "$brdut" tc filter show dev $p ingress; done)" "" \
	"no filter left on the former ports"
check "the pins are gone" wait_for 1 bash -c \
	"[ -z \"\$(find /sys/fs/bpf -path '*bpfwd/*/bridge*')\" ] && echo 1"
like "$(cat "$TMPDIR_T/daemon.log")" "bridge if[0-9]+ is gone" "the daemon logged it"
br_daemon_stop
topo_del

# ---- two namespaces, same bridge name, same ifindexes ----
br_topo 4 a || { not_ok "topology a"; done_testing; }
br_topo 4 b || { not_ok "topology b"; done_testing; }
ia=$(ip -n "$brduta" -j link show br0 | jq '.[0].ifindex')
ib=$(ip -n "$brdutb" -j link show br0 | jq '.[0].ifindex')
is "$ia" "$ib" "both namespaces number br0 alike ($ia)"
br_daemon_start "$brduta"
da=$BR_DAEMON
br_daemon_start "$brdutb"
db=$BR_DAEMON
check "bridge add in A" bpfwd_ns "$brduta" bridge add br0 hook tc
check "bridge add in B" bpfwd_ns "$brdutb" bridge add br0 hook tcx
is "$(bpfwd_ns "$brduta" -j bridge show | jq -r '[.[] | .hook] | join(" ")')" tc "A shows its bridge only"
is "$(bpfwd_ns "$brdutb" -j bridge show | jq -r '[.[] | .hook] | join(" ")')" tcx "B shows its bridge only"
play a0 "$learn" a
play b0 "$learn" b
play a "$steady" a
is "$(got a h2)" 200 "A forwards its own traffic"
is "$(br_counter "$brduta" br0 forwarded)" 200 "A's counter has A's frames"
is "$(br_counter "$brdutb" br0 forwarded)" 0 "B's counter has none of them"
check "bridge del in A" bpfwd_ns "$brduta" bridge del br0
play b "$steady" b
is "$(br_counter "$brdutb" br0 forwarded)" 200 "B goes on after A's del"
is "$(br_synced "$brdutb" br0)" true "B stays in sync"
kill "$da" "$db" 2>/dev/null
wait "$da" "$db" 2>/dev/null

done_testing
