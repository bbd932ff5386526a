// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench rows that bpfwd port sets up on the dut: the tc, tcx,
 * act, xdp, devmap and cpumap rows.  Each names the port it adds in its
 * port_spec (methods.c); bench_port() is the one place that drives the
 * port code, through its library entries (port.h).
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <bpf/bpf.h>

#include "bench.h"
#include "hook.h"
#include "lib/attach.h"
#include "lib/nl.h"
#include "lib/nsrun.h"
#include "lib/pins.h"
#include "lib/ports.h"
#include "lib/util.h"
#include "lib/xdp_attach.h"
#include "port.h"

struct port_call {
	struct port_cfg cfg;	/* add */
	const char *dev;	/* del */
};

static int port_child(void *arg)
{
	struct port_call *pc = arg;

	opts.json = opts.pretty = false;
	opts.cmd = pc->dev ? "port del" : "port add";
	if (pc->dev)
		return port_del_dev(pc->dev, false) ? BPFWD_EXIT_FAIL : 0;
	return port_add_cfg(&pc->cfg) ? BPFWD_EXIT_FAIL : 0;
}

/* The port_cfg of the row's port_spec @p, on the dut's devices. */
static int port_cfg_of(struct bench *b, const struct port_spec *p, int cpu,
		       struct port_cfg *c)
{
	const struct hook_ops *h = hook_by_name(p->hook);
	char cpus[16];
	uint32_t m;

	memset(c, 0, sizeof(*c));
	c->dev = b->in_dev;
	c->to = b->out_dev;
	if (!h)
		return -EINVAL;
	c->hook = h->id;
	c->has_hook = true;
	for (m = 0; p->mode && m < __BPFWD_MODE_MAX; m++) {
		const char *name = port_mode_name(m);

		if (name && !strcmp(name, p->mode)) {
			c->mode = m;
			c->has_mode = true;
		}
	}
	if (p->mode && !c->has_mode)
		return -EINVAL;
	if (p->cpumap) {
		snprintf(cpus, sizeof(cpus), "%d", cpu);
		if (parse_cpu_list(cpus, &c->xdp.cpus))
			return -EINVAL;
	}
	if (p->then && !strcmp(p->then, "pass"))
		c->xdp.then = PORT_THEN_PASS;
	/* gen's live frames carry full checksums, but its veth offers tx
	 * checksumming, which port add refuses for an XDP port on its
	 * peer: in bench's own namespaces, take the fix.  With devices of
	 * the operator's (dev ...), the refusal says what to change.
	 */
	c->xdp.fix_offload = b->own_ns;
	return 0;
}

/* What bpfwd port add dev IN to OUT [ mode M ] hook H [ cpus C ]
 * [ then T ] does with @p (@cpu for a cpumap row), or with @p NULL
 * bpfwd port del dev IN, through the port library, in the dut, in a
 * child so that its messages become the row's reason (in @err).
 */
static int bench_port(struct bench *b, const struct port_spec *p, int cpu,
		      char *err, size_t errlen)
{
	struct port_call pc = { .dev = p ? NULL : b->in_dev };

	if (p && port_cfg_of(b, p, cpu, &pc.cfg)) {
		snprintf(err, errlen, "bench: bad port spec of the row");
		return -EINVAL;
	}
	return ns_call(b->ns[NS_DUT], port_child, &pc, err, errlen) ? -EIO : 0;
}

/* The cpumap kthread of the dut's bpfwd_cpumap on @cpu gets nice -20,
 * as the NAPI threads have (at nice 0 it would get ~1% of a CPU next to
 * them), and counts as ours, not as noise.  Its name is
 * "cpumap/CPU/map:ID" cut to 15 characters.
 */
static void cpumap_kthread_pin(struct bench *b, int cpu)
{
	struct bpf_map_info info = { 0 };
	uint32_t len = sizeof(info);
	char path[PATH_MAX], name[16];
	pid_t pids[4];
	int fd, n, i;

	snprintf(path, sizeof(path), "%s/bpfwd/%llu/%s", bpffs_root(),
		 (unsigned long long)b->cookie, BPFWD_MAP_CPUMAP);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return;
	if (!bpf_obj_get_info_by_fd(fd, &info, &len)) {
		snprintf(name, sizeof(name), "cpumap/%d/map:%u", cpu, info.id);
		n = kthreads_find(name, pids, ARRAY_SIZE(pids));
		for (i = 0; i < n; i++) {
			setpriority(PRIO_PROCESS, pids[i], -20);
			if (b->nkth < (int)ARRAY_SIZE(b->kth))
				b->kth[b->nkth++] = pids[i];
		}
		if (n <= 0)
			pr_info("bench: no cpumap kthread %s found", name);
	}
	close(fd);
}

/* cpumap rows: the queue goes to a CPU neither gen nor the dut's NAPI
 * runs on, where there is one; else to the dut's CPU (gen's, at nice
 * -20 and always busy, would starve the cpumap kthread).
 */
int port_setup(struct bench *b, const struct method *m)
{
	int cpu = nr_cpus() > 2 ? 2 : b->dut_cpu >= 0 ? b->dut_cpu : 0;
	int err;

	err = bench_port(b, &m->port, cpu, b->err, sizeof(b->err));
	if (!err && m->port.cpumap)
		cpumap_kthread_pin(b, cpu);
	return err;
}

void port_teardown(struct bench *b, const struct method *m)
{
	char err[ERRLEN] = "";

	/* a port left behind fails the next row on that device: say why */
	if (bench_port(b, NULL, 0, err, sizeof(err)))
		pr_warn("bench: %s: port del dev %s: %s", m->name, b->in_dev,
			err[0] ? err : "failed");
}

const char *need_tcx(struct bench *b, const struct method *m)
{
	return kernel_has_tcx() ? NULL : "kernel has no tcx (Linux >= 6.6)";
}

/* act_bpf: tried in a throwaway namespace of a child, as probe does. */
static int act_fn(void *arg)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	bool created;
	int fd;

	if (unshare(CLONE_NEWNET))
		return 1;
	fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_ACT, "bpfwd_probe", "GPL",
			   insns, 2, NULL);
	if (fd < 0 || nl_clsact_add(1, &created))
		return 1;
	return nl_act_filter_add(1, false, 1, fd, "probe") ? 2 : 0;
}

const char *need_act_bpf(struct bench *b, const struct method *m)
{
	static int have = -1;
	char err[ERRLEN];

	if (have < 0)
		have = !ns_call(-1, act_fn, NULL, err, sizeof(err));
	return have ? NULL :
		"kernel has no act_bpf (CONFIG_NET_ACT_BPF): u32 + act_bpf cannot run here";
}
