#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# Ports that come back after a reboot.  bpfwd's ports live in pins on a
# bpffs, which is in RAM: a reboot loses them.  The operator keeps them
# in a file, /etc/bpfwd/bpfwd.conf, one `port add` line a port, and the
# systemd unit bpfwd.service runs `bpfwd apply` on it at boot.  apply
# adds what is missing, replaces what differs and leaves alone what is
# as the file says, so it can run again at any time (systemctl reload
# bpfwd) and only changes what changed.
#
# Devices that are deleted and made again under a port (a container's
# veth when it restarts, a re-plugged USB NIC) are bpfwd daemon's: it
# runs after apply (bpfwd-daemon.service) and re-attaches a port when a
# device with the name of its ingress or target comes back.
#
# This script installs a new configuration the careful way: it applies
# FILE first, and only when every line applied does it copy FILE to
# /etc/bpfwd/bpfwd.conf (the old one kept as bpfwd.conf.old) and enable
# the unit; a FILE that fails is not installed, and the installed one
# is applied again (apply stops at the failing line: the ports of the
# lines before it were changed already).
#
# Run it:
#   examples/apply-at-boot.sh FILE [prune]   applies FILE on this host (prune:
#                                            also deletes the ports it does not
#                                            name), installs it, enables the unit
#   examples/apply-at-boot.sh                builds gen - dut - sink namespaces,
#                                            applies a file in the dut, sends
#                                            counted UDP through, then loses
#                                            the ports as a reboot does and
#                                            applies the file again, twice;
#                                            then runs the daemon and makes
#                                            the sink's veth again, as a
#                                            container restart does, and
#                                            removes everything
# Environment: BPFWD (default: ../build/bpfwd next to this script, then
# the installed one), CONF (default /etc/bpfwd/bpfwd.conf), N (datagrams
# of the namespace run, default 100).
# Needs root, iproute2, jq; bpfwd's example-lib.sh next to this script.
source "$(dirname "${BASH_SOURCE[0]}")/example-lib.sh"

CONF=${CONF:-/etc/bpfwd/bpfwd.conf}
N=${N:-100}
DAEMON=

# install_conf FILE: FILE becomes $CONF, the old one $CONF.old
install_conf() {
	mkdir -p "$(dirname "$CONF")" || return 1
	if [ -e "$CONF" ] && ! cmp -s "$1" "$CONF"; then
		cp -p "$CONF" "$CONF.old" || return 1
	fi
	cp "$1" "$CONF.new" && mv "$CONF.new" "$CONF"
}

# enable_unit: bpfwd.service at boot, where systemd runs and has it
enable_unit() {
	if [ ! -d /run/systemd/system ]; then
		echo "no systemd here: run \"$BPFWD apply $CONF\" at boot, after the devices are up"
	elif ! systemctl cat bpfwd.service >/dev/null 2>&1; then
		echo "bpfwd.service is not installed (make install puts it in place); not enabled"
	else
		systemctl enable bpfwd.service
	fi
}

real_file() {
	local file=$1

	[ -r "$file" ] || die "$file: cannot read it"
	shift
	echo "# bpfwd apply $file $*"
	if ! "$BPFWD" apply "$file" "$@"; then
		# the lines before the failing one were applied: back to
		# what the installed file says
		[ -r "$CONF" ] && echo "# bpfwd apply $CONF" &&
			"$BPFWD" apply "$CONF"
		die "$file did not apply (see above); $CONF not changed"
	fi
	install_conf "$file" || die "cannot install $file as $CONF"
	echo "installed $file as $CONF"
	enable_unit
}

# stops the daemon before the namespaces go
daemon_cleanup() {
	local rc=$?

	if [ -n "$DAEMON" ]; then
		kill "$DAEMON" 2>/dev/null
		wait "$DAEMON" 2>/dev/null
	fi
	ex_cleanup "$rc"
}

# port_marks NS: the ports of NS that are (detached) or (target gone)
port_marks() {
	bp "$1" port show | grep -c '(detached)\|(target gone)'
}

# replug LOG: bpfwd daemon in the dut (its log in LOG), then the sink's
# veth d1/s0 deleted and made again with the same names, as a container
# restart does; the daemon points d0's port at the new d1
replug() {
	local log=$1 i

	trap daemon_cleanup EXIT
	echo "# bpfwd -n $dut daemon &    (bpfwd-daemon.service, after apply)"
	"$BPFWD" -n "$dut" daemon 2>"$log" &
	DAEMON=$!
	sleep 0.5
	echo "# ip link del d1    (the sink's container stops)"
	ip -n "$dut" link del d1
	show "$dut" port show
	echo "# ip link add d1 type veth peer s0 ...    (it starts again)"
	veth "$dut" d1 "$sink" s0
	ip -n "$sink" addr add 192.0.2.2/24 dev s0
	ip -n "$gen" neigh replace 192.0.2.2 dev g0 nud permanent \
		lladdr "$(ip -n "$sink" -j link show s0 | jq -r '.[0].address')"
	for ((i = 0; i < 50; i++)); do
		[ "$(port_marks "$dut")" = 0 ] && break
		sleep 0.1
	done
	echo "# (the daemon's log)"
	grep 'port d' "$log"
	show "$dut" port show
}

namespaces() {
	local dir got ok=0

	ns gen dut sink
	veth "$dut" d0 "$gen" g0
	veth "$dut" d1 "$sink" s0
	ip -n "$gen" addr add 192.0.2.1/24 dev g0
	ip -n "$sink" addr add 192.0.2.2/24 dev s0
	ip -n "$gen" neigh replace 192.0.2.2 dev g0 nud permanent \
		lladdr "$(ip -n "$sink" -j link show s0 | jq -r '.[0].address')"
	dir=$(mktemp -d)
	cat >"$dir/bpfwd.conf" <<-EOF
		# the dut's ports
		port add dev d0 to d1
		port add dev d1 to d0
	EOF
	echo "# cat bpfwd.conf"
	cat "$dir/bpfwd.conf"
	show "$dut" apply "$dir/bpfwd.conf" || ok=1
	got=$(udp_through "$gen" 192.0.2.2 "$N" "$sink")
	echo "sink received $got of $N UDP datagrams"
	[ "$got" = "$N" ] || ok=1
	echo "# (a reboot: the bpffs and every port on it are gone)"
	bp "$dut" port flush
	show "$dut" port show
	show "$dut" apply "$dir/bpfwd.conf" || ok=1
	show "$dut" apply "$dir/bpfwd.conf" || ok=1
	got=$(udp_through "$gen" 192.0.2.2 "$N" "$sink")
	echo "sink received $got of $N UDP datagrams after the reboot"
	[ "$got" = "$N" ] || ok=1
	replug "$dir/daemon.log"
	[ "$(port_marks "$dut")" = 0 ] || ok=1
	got=$(udp_through "$gen" 192.0.2.2 "$N" "$sink")
	echo "sink received $got of $N UDP datagrams after the restart"
	[ "$got" = "$N" ] || ok=1
	rm -rf "$dir"
	return $ok
}

find_tools
ex_traps
if [ $# -gt 0 ]; then
	real_file "$@"
else
	namespaces
fi
