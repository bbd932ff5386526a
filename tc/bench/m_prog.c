// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench rows of its own programs (benchsink.o): the fixed-target
 * tc and XDP redirects (redirect-fixed, xdp-fixed), the drop rows
 * (tc-drop, xdp-drop), the xdp-loop row,
 * and the sink port's counter every forwarding row is counted with.
 * Each load takes one program of the object, the others not loaded.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "lib/nl.h"
#include "lib/nsrun.h"
#include "lib/util.h"
#include "benchsink.skel.h"

enum sink_prog {
	P_FIXED, P_TC_DROP, P_TC_CONSUME, P_XDP_DROP, P_XDP_FIXED, P_XDP_GEN,
	P_XDP_MAP_FIXED,
};

static struct bpf_program *prog_of(struct benchsink *s, enum sink_prog p)
{
	switch (p) {
	case P_FIXED:
		return s->progs.fixed_redir;
	case P_TC_DROP:
		return s->progs.cnt_tc_drop;
	case P_TC_CONSUME:
		return s->progs.cnt_tc_consume;
	case P_XDP_FIXED:
		return s->progs.fixed_xdp_redir;
	case P_XDP_GEN:
		return s->progs.cnt_xdp_gen;
	case P_XDP_MAP_FIXED:
		return s->progs.fixed_xdp_map;
	case P_XDP_DROP:
		break;
	}
	return s->progs.cnt_xdp_drop;
}

/* Loads program @p of benchsink.o with a fixed target into *@out. */
static int sink_load(struct bench *b, enum sink_prog p, uint32_t target,
		     struct benchsink **out)
{
	struct bpf_program *prog, *want;
	struct benchsink *s = benchsink__open();
	int err;

	if (!s) {
		err = -errno;
		snprintf(b->err, sizeof(b->err), "open benchsink.o: %s",
			 strerror(-err));
		return err;
	}
	want = prog_of(s, p);
	s->rodata->fixed_target = target;
	bpf_object__for_each_program(prog, s->obj)
		bpf_program__set_autoload(prog, prog == want);
	err = benchsink__load(s);
	if (err) {
		snprintf(b->err, sizeof(b->err), "load benchsink.o %s: %s",
			 bpf_program__name(want), strerror(-err));
		benchsink__destroy(s);
		return err;
	}
	*out = s;
	return 0;
}

/* Program @p at the tc ingress of @dev in namespace @ns. */
static int tc_prog_add(struct bench *b, int ns, const char *dev,
		       enum sink_prog p, struct benchsink **out)
{
	struct bpf_program *prog;
	int err, in, to = 0;
	bool created;

	err = ns_enter(b->ns[ns]);
	if (err) {
		snprintf(b->err, sizeof(b->err), "setns: %s", strerror(-err));
		return err;
	}
	in = if_nametoindex(dev);
	if (p == P_FIXED)
		to = if_nametoindex(b->out_dev);
	if (!in || (p == P_FIXED && !to)) {
		snprintf(b->err, sizeof(b->err), "%s: no such device", dev);
		err = -ENODEV;
		goto out;
	}
	err = sink_load(b, p, to, out);
	if (err)
		goto out;
	prog = prog_of(*out, p);
	err = nl_clsact_add(in, &created);
	if (!err)
		err = nl_bpf_filter_set(in, false, 1, bpf_program__fd(prog),
					bpf_program__name(prog), false);
	if (err) {
		snprintf(b->err, sizeof(b->err), "tc filter on %s: %s%s%s", dev,
			 strerror(-err), nl_extack()[0] ? ": " : "", nl_extack());
		benchsink__destroy(*out);
		*out = NULL;
	}
out:
	ns_leave();
	return err;
}

/* XDP program @p (cnt_xdp_drop, or fixed_xdp_redir to the dut's OUT),
 * native, on @dev in namespace @ns.
 */
static int xdp_prog_add(struct bench *b, int ns, const char *dev,
			enum sink_prog p, struct benchsink **out)
{
	int err, idx, to = 0;
	uint32_t key = 0;
	bool fixed;

	err = ns_enter(b->ns[ns]);
	if (err) {
		snprintf(b->err, sizeof(b->err), "setns: %s", strerror(-err));
		return err;
	}
	idx = if_nametoindex(dev);
	fixed = p == P_XDP_FIXED || p == P_XDP_MAP_FIXED;
	if (fixed)
		to = if_nametoindex(b->out_dev);
	if (!idx || (fixed && !to)) {
		snprintf(b->err, sizeof(b->err), "%s: no such device", dev);
		ns_leave();
		return -ENODEV;
	}
	err = sink_load(b, p, to, out);
	if (!err && p == P_XDP_MAP_FIXED) {
		err = bpf_map__update_elem((*out)->maps.fixed_devmap, &key,
					   sizeof(key), &to, sizeof(to), 0);
		if (err)
			snprintf(b->err, sizeof(b->err), "devmap slot 0 = %s: %s",
				 b->out_dev, strerror(-err));
	}
	if (!err) {
		err = bpf_xdp_attach(idx, bpf_program__fd(prog_of(*out, p)),
				     XDP_FLAGS_DRV_MODE, NULL);
		if (err)
			snprintf(b->err, sizeof(b->err), "native XDP on %s: %s",
				 dev, strerror(-err));
	}
	ns_leave();
	return err;
}

int fixed_setup(struct bench *b, const struct method *m)
{
	return tc_prog_add(b, NS_DUT, b->in_dev, P_FIXED, &b->dut_prog);
}

int tc_drop_setup(struct bench *b, const struct method *m)
{
	int err = tc_prog_add(b, NS_DUT, b->in_dev, P_TC_DROP, &b->dut_prog);

	if (!err)
		b->count_fd = bpf_map__fd(b->dut_prog->maps.bench_cnt);
	return err;
}

void tc_prog_teardown(struct bench *b, const struct method *m)
{
	RUN(b, NS_DUT, "tc", "qdisc", "del", "dev", b->in_dev, "clsact");
	benchsink__destroy(b->dut_prog);
	b->dut_prog = NULL;
}

int xdp_fixed_setup(struct bench *b, const struct method *m)
{
	return xdp_prog_add(b, NS_DUT, b->in_dev, P_XDP_FIXED, &b->dut_prog);
}

int xdp_map_fixed_setup(struct bench *b, const struct method *m)
{
	return xdp_prog_add(b, NS_DUT, b->in_dev, P_XDP_MAP_FIXED,
			    &b->dut_prog);
}

int xdp_drop_setup(struct bench *b, const struct method *m)
{
	int err = xdp_prog_add(b, NS_DUT, b->in_dev, P_XDP_DROP, &b->dut_prog);

	if (!err)
		b->count_fd = bpf_map__fd(b->dut_prog->maps.bench_cnt);
	return err;
}

void xdp_prog_teardown(struct bench *b, const struct method *m)
{
	if (!ns_enter(b->ns[NS_DUT])) {
		bpf_xdp_detach(if_nametoindex(b->in_dev), XDP_FLAGS_DRV_MODE, NULL);
		ns_leave();
	}
	benchsink__destroy(b->dut_prog);
	b->dut_prog = NULL;
}

/* xdp-loop rows: the setting of the 2017 tracepoint measurement, one
 * CPU doing nothing but XDP redirects.  gen's live frames go through
 * xdp_do_redirect() into the dut's ingress veth, whose NAPI is taken
 * off its thread so that it runs in softirq on gen's CPU, right after
 * gen's own flush, and drops them there.  No second CPU, no cross-CPU
 * ring or page return: per frame, the CPU time of gen (and its CPU's
 * ksoftirqd) is the cost of one redirect plus one drop, steady enough
 * to show a few ns a tracepoint probe adds.
 */
const char *need_loop(struct bench *b, const struct method *m)
{
	if (!b->own_ns)
		return "needs the bench's own namespaces (no dev)";
	return b->napi_threaded ? NULL : "needs threaded NAPI and two CPUs";
}

int loop_setup(struct bench *b, const struct method *m)
{
	char name[32];
	pid_t pid;

	if (ns_sysfs_write(b->ns[NS_DUT], b->in_dev, "threaded", "0")) {
		snprintf(b->err, sizeof(b->err), "%s: cannot turn threaded NAPI off",
			 b->in_dev);
		return -EIO;
	}
	b->loop = true;
	snprintf(name, sizeof(name), "ksoftirqd/%d", b->gen_cpu);
	b->ksoftirqd = kthreads_find(name, &pid, 1) == 1 ? pid : 0;
	return xdp_drop_setup(b, m);
}

void loop_teardown(struct bench *b, const struct method *m)
{
	xdp_prog_teardown(b, m);
	if (ns_sysfs_write(b->ns[NS_DUT], b->in_dev, "threaded", "1"))
		pr_warn("bench: %s: threaded NAPI not back on", b->in_dev);
	b->loop = false;
	b->ksoftirqd = 0;
}

/* The sink's counter: tc ingress (count tc) or XDP (count xdp, the
 * default).  Neither is neutral: frames that come as XDP frames must
 * become skbs for tc, and skbs may be copied for XDP.
 */
int sink_counter_add(struct bench *b)
{
	if (!b->count_xdp)
		return tc_prog_add(b, NS_SINK, b->sink_dev, P_TC_CONSUME,
				   &b->sink_cnt);
	return xdp_prog_add(b, NS_SINK, b->sink_dev, P_XDP_DROP, &b->sink_cnt);
}

int sink_counter_fd(struct bench *b)
{
	return bpf_map__fd(b->sink_cnt->maps.bench_cnt);
}

/* The tcp and rtt rows' sink (count xdp, own namespaces only): no XDP
 * program (SINK_NONE), cnt_xdp_gen (SINK_GEN, whose counter the row
 * reads), or the counter back (SINK_BACK).
 */
int sink_counter_swap(struct bench *b, enum sink_swap how)
{
	int err = 0, idx;

	if (how == SINK_GEN) {
		err = xdp_prog_add(b, NS_SINK, b->sink_dev, P_XDP_GEN,
				   &b->sink_gen);
		if (!err)
			b->count_fd = bpf_map__fd(b->sink_gen->maps.bench_cnt);
		return err;
	}
	err = ns_enter(b->ns[NS_SINK]);
	if (err)
		return err;
	idx = if_nametoindex(b->sink_dev);
	if (how == SINK_NONE)
		err = bpf_xdp_detach(idx, XDP_FLAGS_DRV_MODE, NULL);
	else
		err = bpf_xdp_attach(idx, bpf_program__fd(b->sink_cnt->progs.cnt_xdp_drop),
				     XDP_FLAGS_DRV_MODE, NULL);
	ns_leave();
	benchsink__destroy(b->sink_gen);
	b->sink_gen = NULL;
	if (err)
		snprintf(b->err, sizeof(b->err), "XDP on the sink's %s: %s",
			 b->sink_dev, strerror(-err));
	return err;
}

/* In device mode the sink port is the caller's: the counter comes off
 * (in namespace mode it goes with the namespace).
 */
void sink_counter_del(struct bench *b)
{
	if (!b->sink_cnt)
		return;
	if (!b->own_ns && b->count_xdp)
		bpf_xdp_detach(if_nametoindex(b->sink_dev), XDP_FLAGS_DRV_MODE,
			       NULL);
	else if (!b->own_ns)
		RUN(b, NS_SINK, "tc", "qdisc", "del", "dev", b->sink_dev,
		    "clsact");
	benchsink__destroy(b->sink_cnt);
	b->sink_cnt = NULL;
}
