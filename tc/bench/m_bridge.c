// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench rows of topology bridge (topo_bridge.c): the bridge with
 * bpfwd's fast path, `bpfwd bridge add BENCH_BR hook H` in the dut, and
 * `bpfwd daemon` running there for the row, as an operator runs them
 * (this bpfwd, executed).  The window opens once the mirror is in sync:
 * the bridge and every port filled in by the daemon and every station
 * (and gen) in the mirror's fdb; before that the program passes frames
 * to the bridge and the row would measure the bridge.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "bench.h"
#include "lib/brmaps.h"
#include "lib/nsrun.h"
#include "lib/util.h"

#define SYNC_WAIT_S	120	/* 100000 stations take a while */

/* Whether the mirror of BENCH_BR is complete: the bridge in sync, its
 * ports filled in, the stations and gen in its fdb.  In the dut.
 */
static bool mirror_synced(struct bench *b)
{
	uint32_t br = if_nametoindex(BENCH_BR), ifi[TOPO_PORTS_MAX];
	struct bpfwd_br_port p[TOPO_PORTS_MAX];
	struct brmaps m;
	struct bpfwd_br v;
	bool ok = false;
	int n, i;

	if (!br || brmaps_open(&m, false))
		return false;
	if (br_get(&m, br, &v) || !(v.flags & BPFWD_BR_F_SYNC))
		goto out;
	n = brport_list(&m, br, ifi, p, TOPO_PORTS_MAX);
	if (n != (int)b->tp.ports)
		goto out;
	for (i = 0; i < n; i++)
		if (!(p[i].flags & BPFWD_BRP_SYNCED))
			goto out;
	ok = brfdb_list(&m, br, NULL, NULL, 0) >= (int)b->tp.stations + 1;
out:
	brmaps_close(&m);
	return ok;
}

/* The last line the daemon wrote into @log, into b->err. */
static void daemon_said(struct bench *b, int log, const char *what)
{
	char buf[ERRLEN] = "";
	ssize_t n = pread(log, buf, sizeof(buf) - 1, 0);
	char *nl;

	buf[n > 0 ? n : 0] = '\0';
	while ((nl = strrchr(buf, '\n')) && !nl[1])
		*nl = '\0';
	nl = strrchr(buf, '\n');
	snprintf(b->err, sizeof(b->err), "bpfwd daemon %s%s%s", what,
		 buf[0] ? ": " : "", nl ? nl + 1 : buf);
}

/* Waits for the mirror, the daemon alive; 0 once in sync. */
static int wait_sync(struct bench *b, int log)
{
	double t0 = now();
	int status, err;

	while (now() - t0 < SYNC_WAIT_S && !stop_signal) {
		if (waitpid(b->tp.daemon, &status, WNOHANG) == b->tp.daemon) {
			b->tp.daemon = 0;
			daemon_said(b, log, "exited");
			return -EIO;
		}
		err = ns_enter(b->ns[NS_DUT]);
		if (err)
			return err;
		err = mirror_synced(b) ? 0 : -EAGAIN;
		ns_leave();
		if (!err)
			return 0;
		usleep(100000);
	}
	if (stop_signal)
		return -EINTR;
	daemon_said(b, log, "did not sync");
	return -ETIMEDOUT;
}

/* What the fast path did in the row: a line when it passed more than
 * 1% of the frames to the bridge (then the row measured the bridge as
 * much as the fast path), with the first reason.
 */
static void fast_share(struct bench *b, const struct method *m)
{
	static const char *const why[__BPFWD_BRC_MAX] = {
		[BPFWD_BRC_NOT_PORT] = "not_port", [BPFWD_BRC_STALE] = "stale",
		[BPFWD_BRC_VLAN] = "vlan", [BPFWD_BRC_LINK_LOCAL] = "link_local",
		[BPFWD_BRC_MULTICAST] = "multicast",
		[BPFWD_BRC_PORT_STATE] = "port_state",
		[BPFWD_BRC_UNKNOWN_SRC] = "unknown_src",
		[BPFWD_BRC_MOVED_SRC] = "moved_src", [BPFWD_BRC_LOCAL] = "local",
		[BPFWD_BRC_UNKNOWN_DST] = "unknown_dst",
		[BPFWD_BRC_EGRESS] = "egress", [BPFWD_BRC_ISOLATION] = "isolation",
		[BPFWD_BRC_MTU] = "mtu", [BPFWD_BRC_MALFORMED] = "malformed",
	};
	struct bpfwd_br_stats st;
	uint64_t passed = 0;
	struct brmaps bm;
	int i, top = 0;

	if (ns_enter(b->ns[NS_DUT]))
		return;
	if (!brmaps_open(&bm, false)) {
		if (!brstats_read(&bm, if_nametoindex(BENCH_BR), &st)) {
			for (i = BPFWD_BRC_NOT_PORT; i < __BPFWD_BRC_MAX; i++) {
				passed += st.c[i];
				if (st.c[i] > st.c[top] || !top)
					top = st.c[i] ? i : top;
			}
			if (passed * 100 > st.c[BPFWD_BRC_FORWARDED] + passed)
				pr_warn("bench: %s: the fast path forwarded %llu frames, passed %llu to the bridge (mostly %s)",
					m->name,
					(unsigned long long)st.c[BPFWD_BRC_FORWARDED],
					(unsigned long long)passed,
					top ? why[top] : "-");
		}
		brmaps_close(&bm);
	}
	ns_leave();
}

int br_fast_setup(struct bench *b, const struct method *m)
{
	char log[] = "/tmp/bpfwd-bench-daemon-XXXXXX";
	int fd, err;

	if (RUN(b, NS_DUT, BENCH_SELF, "bridge", "add", BENCH_BR, "hook", (char *)m->hook))
		return -EIO;
	b->tp.fast_on = true;
	fd = mkstemp(log);
	if (fd < 0)
		return -errno;
	unlink(log);
	b->tp.daemon = bench_spawn(b, NS_DUT,
				   (char *const[]){ BENCH_SELF, "daemon", NULL }, fd);
	err = b->tp.daemon < 0 ? b->tp.daemon : wait_sync(b, fd);
	close(fd);
	return err;
}

void br_fast_teardown(struct bench *b, const struct method *m)
{
	char err[ERRLEN];

	if (b->tp.fast_on) {
		fast_share(b, m);
		if (ns_exec(b->ns[NS_DUT], (char *const[]){ BENCH_SELF, "bridge",
			    "del", BENCH_BR, NULL }, err, sizeof(err)))
			pr_warn("bench: bpfwd bridge del %s: %s", BENCH_BR, err);
	}
	b->tp.fast_on = false;
	if (b->tp.daemon > 0)
		bench_reap(b->tp.daemon, SIGTERM);
	b->tp.daemon = 0;
}
