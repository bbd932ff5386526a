/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * The daemon's mirror of the kernel's bridges (`bpfwd daemon`): for
 * every bridge `bpfwd bridge add` configured in this namespace it dumps,
 * then follows over rtnetlink, the fdb, the ports (membership, STP
 * state, flags, MTU) and vlan_filtering, and writes them into the pinned
 * maps; attaches the fast path to ports that join and detaches it from
 * ports that leave; writes the heartbeat every second; and refreshes the
 * kernel's fdb entries of stations the fast path saw (NTF_USE), so that
 * ageing does not remove stations whose frames bypass the bridge.
 */
#ifndef __BPFWD_BRMIRROR_H
#define __BPFWD_BRMIRROR_H

#include <stdbool.h>
#include <linux/netlink.h>

/* What else the daemon follows (tc/daemon_ports.c: the ports table),
 * called from brmirror_run()'s loop.
 */
struct daemon_follower {
	/* every RTM_NEWLINK and RTM_DELLINK of the namespace, as it comes
	 * (the bridge maps' lock may be held: read, log, change nothing)
	 */
	void (*link_event)(const struct nlmsghdr *nlh);
	/* once per turn of the loop (after events, and at least once a
	 * second), no lock held; @overflow: events were lost since
	 */
	void (*tick)(bool overflow);
};

/* Runs until stop_signal is set; on the way out marks its bridges out of
 * sync, so the programs pass everything at once.  @f, if not NULL, is
 * called along.  Returns 0 or -errno.
 */
int brmirror_run(const struct daemon_follower *f);

/* One line of the daemon's log on stderr: "bpfwd daemon HH:MM:SS: ...". */
void daemon_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whether a daemon runs in this namespace (it holds an abstract unix
 * socket named after bpfwd's, one per network namespace).
 */
bool brmirror_running(void);

#endif /* __BPFWD_BRMIRROR_H */
