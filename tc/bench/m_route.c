// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench rows of topology router (topo_router.c): `bpfwd route add
 * dev IN dev OUT hook H` in the dut (this bpfwd, executed).  The
 * topology's xdp-forward rows are peer rows (m_peer.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "bench.h"
#include "lib/nsrun.h"
#include "lib/util.h"
#include "route_attach.h"
#include "route_maps.h"

int route_setup(struct bench *b, const struct method *m)
{
	int err = RUN(b, NS_DUT, BENCH_SELF, "route", "add", "dev", b->in_dev,
		      "dev", b->out_dev, "hook", (char *)m->hook);

	b->tp.fast_on = !err;
	return err;
}

/* What the fast path did in the row: a line when it passed more than
 * 1% of gen's frames to the stack (then the row measured the kernel as
 * much as the fast path), with the main reason.
 */
static void fast_share(struct bench *b, const struct method *m)
{
	struct bpfwd_route_stats st;
	struct bpfwd_route_cfg c;
	uint64_t passed = 0;
	int i, top = 0;
	struct rt r;

	if (ns_enter(b->ns[NS_DUT]))
		return;
	if (!rt_open(&r, false)) {
		if (!rt_get(&r, if_nametoindex(b->in_dev), &c) &&
		    !rt_stats_read(&r, c.slot, &st)) {
			for (i = 0; i < BPFWD_RT_REASONS; i++) {
				passed += st.passed[i];
				if (st.passed[i] > st.passed[top])
					top = i;
			}
			if (passed * 100 > st.forwarded + passed)
				pr_warn("bench: %s: the fast path forwarded %llu frames, passed %llu to the stack (mostly %s)",
					m->name, (unsigned long long)st.forwarded,
					(unsigned long long)passed,
					rt_reason_name(top) ?: "-");
		}
		rt_close(&r);
	}
	ns_leave();
}

/* With kernel.bpf_stats_enabled = 1, what the row's program cost a
 * run (the row loaded it, so its counts are the row's), a line.
 */
static void prog_cost(struct bench *b, const struct method *m)
{
	struct route_att a = { .dev = b->in_dev };
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info), id;
	int fd;

	a.hook = !strcmp(m->hook, "xdp") ? BPFWD_HOOK_XDP :
		 !strcmp(m->hook, "tcx") ? BPFWD_HOOK_TCX : BPFWD_HOOK_TC;
	if (ns_enter(b->ns[NS_DUT]))
		return;
	a.ifindex = if_nametoindex(b->in_dev);
	id = a.ifindex ? route_prog_id(&a) : 0;
	fd = id ? bpf_prog_get_fd_by_id(id) : -1;
	if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len) &&
	    info.run_cnt)
		fprintf(stderr, "bench: %s: %s ran %llu times, %.0f ns a run (kernel.bpf_stats_enabled)\n",
			m->name, info.name, (unsigned long long)info.run_cnt,
			(double)info.run_time_ns / info.run_cnt);
	if (fd >= 0)
		close(fd);
	ns_leave();
}

void route_teardown(struct bench *b, const struct method *m)
{
	const char *dev[] = { b->in_dev, b->out_dev };
	char err[ERRLEN];
	int i;

	if (!b->tp.fast_on)
		return;
	b->tp.fast_on = false;
	fast_share(b, m);
	prog_cost(b, m);
	for (i = 0; i < 2; i++)
		if (ns_exec(b->ns[NS_DUT], (char *const[]){ BENCH_SELF, "route",
			    "del", "dev", (char *)dev[i], NULL }, err, sizeof(err)))
			pr_warn("bench: bpfwd route del dev %s: %s", dev[i], err);
}
