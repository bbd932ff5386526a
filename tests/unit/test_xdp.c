// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Runs the XDP programs of xdp.o with BPF_PROG_TEST_RUN on crafted
 * frames, as if they arrived on IN_DEV, and checks each verdict and how
 * the port's counters move: no entry (passed, slot 0), redirect with and
 * without a target, an empty and a filled devmap slot, a cpumap port
 * without CPUs, with a CPU that has no queue and with one that has, the
 * flood broadcast, and the runt and VLAN counters.  It also pins down
 * the layout of the XDP maps that bpfwd.h documents for bpftool users.
 *
 * Then the copy the loader specialises for one port (fixed_ifindex,
 * fixed_slot, fixed_target): it redirects without the table entry, or
 * against what a different entry says, and a frame run live
 * (BPF_F_TEST_XDP_LIVE_FRAMES) really leaves through fixed_target, to
 * arrive at its veth peer, while the entry names another device.
 *
 *   test_xdp PIN_DIR IN_DEV OUT_DEV     (tests/unit/test_xdp.t makes both)
 *   test_xdp foreign DEV                attach a trivial XDP program
 *                                       that is not bpfwd's (for the
 *                                       netns trap tests)
 *
 * Output is TAP.
 */
#include <errno.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "unit_test.h"
#include "lib/netdev.h"
#include "lib/util.h"
#include "bpfwd.h"	/* the ABI, bpf/bpfwd.h */
#include "xdp.skel.h"

#define SLOT	7

struct env {
	struct xdp *skel;
	__u32 in, out;
	int ncpus;
};

/* Sum of one field (by offset) of a per-CPU stats value. */
static __u64 sum(struct env *e, struct bpf_map *map, __u32 key,
		 size_t value_size, size_t off)
{
	char *v = calloc(e->ncpus, value_size);
	__u64 s = 0;
	int i;

	if (v && !bpf_map_lookup_elem(bpf_map__fd(map), &key, v))
		for (i = 0; i < e->ncpus; i++)
			s += *(__u64 *)(v + i * value_size + off);
	free(v);
	return s;
}

#define STAT(e, slot, f) \
	sum(e, (e)->skel->maps.bpfwd_stats, slot, sizeof(struct bpfwd_stats), \
	    offsetof(struct bpfwd_stats, f))
#define CPUSTAT(e, slot, f) \
	sum(e, (e)->skel->maps.bpfwd_cpustat, slot, \
	    sizeof(struct bpfwd_cpustat), offsetof(struct bpfwd_cpustat, f))

/* One check, one TAP line */
static bool same(const char *name, unsigned long long got,
		 unsigned long long want)
{
	bool pass = ASSERT_EQ(name, "", got, want);

	tap(pass, "%s", name);
	return pass;
}

static int run(struct env *e, struct bpf_program *prog,
	       const struct frame *f, __u32 *verdict)
{
	__u8 out[256];
	__u32 len = sizeof(out);

	return xdp_run_frame(bpf_program__fd(prog), e->in, f, verdict, out,
			     &len);
}

static void put_port(struct env *e, __u32 target, __u32 mode)
{
	struct bpfwd_port p = { .target = target, .mode = mode,
				.hook = BPFWD_HOOK_XDP, .slot = SLOT };

	bpf_map_update_elem(bpf_map__fd(e->skel->maps.bpfwd_ports), &e->in,
			    &p, 0);
}

/* Runs @prog once on @f; checks the verdict and that the counter @read
 * returns moved by @moved.
 */
static void expect(struct env *e, const char *name, struct bpf_program *prog,
		   const struct frame *f, __u32 want,
		   __u64 (*read)(struct env *),
		   __u64 moved)
{
	__u64 before = read(e);
	__u32 verdict = ~0U;
	char what[160];
	int err = run(e, prog, f, &verdict);

	snprintf(what, sizeof(what), "%s: test run", name);
	tap(ASSERT_OK(what, "", err), "%s", what);
	snprintf(what, sizeof(what), "%s: verdict", name);
	same(what, verdict, want);
	snprintf(what, sizeof(what), "%s: counter", name);
	same(what, read(e) - before, moved);
}

static __u64 r_unmatched(struct env *e) { return STAT(e, 0, packets); }
static __u64 r_packets(struct env *e) { return STAT(e, SLOT, packets); }
static __u64 r_no_target(struct env *e) { return STAT(e, SLOT, no_target); }
static __u64 r_err(struct env *e) { return STAT(e, SLOT, err_redirect); }
static __u64 r_runt(struct env *e) { return STAT(e, SLOT, runt); }
static __u64 r_vlan(struct env *e) { return STAT(e, SLOT, vlan); }
static __u64 r_no_cpu(struct env *e) { return CPUSTAT(e, SLOT, no_cpu); }

static void check_layout(struct env *e)
{
	static const struct {
		const char *name;
		__u32 value;
	} maps[] = {
		{ BPFWD_MAP_DEVMAP, sizeof(struct bpf_devmap_val) },
		{ BPFWD_MAP_CPUMAP, sizeof(struct bpf_cpumap_val) },
		{ BPFWD_MAP_CPUS, sizeof(struct bpfwd_cpus) },
		{ BPFWD_MAP_CPUSTAT, sizeof(struct bpfwd_cpustat) },
		{ BPFWD_MAP_KTHREAD, sizeof(struct bpfwd_kthread) },
		{ BPFWD_MAP_FLOOD, sizeof(struct bpf_devmap_val) },
		{ BPFWD_MAP_GROUPS, sizeof(__u32) },
	};
	char name[96];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(maps); i++) {
		struct bpf_map *m;

		m = bpf_object__find_map_by_name(e->skel->obj, maps[i].name);

		snprintf(name, sizeof(name), "%s: value is %u bytes",
			 maps[i].name, maps[i].value);
		same(name, m ? bpf_map__value_size(m) : 0, maps[i].value);
	}
}

static int foreign(const char *dev)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0,
		  .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int ifindex = if_nametoindex(dev), fd, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "foreign", "GPL", insns, 2,
			   NULL);
	if (!ifindex || fd < 0) {
		fprintf(stderr, "foreign: %s: %s\n", dev, strerror(errno));
		return 1;
	}
	err = bpf_xdp_attach(ifindex, fd, XDP_FLAGS_DRV_MODE, NULL);
	if (err)
		fprintf(stderr, "foreign: attach %s: %s\n", dev, strerror(-err));
	return !!err;
}

/* Runs @prog live on @f @n times: redirected frames really go out. */
static int run_live(struct env *e, struct bpf_program *prog,
		    const struct frame *f, __u32 n)
{
	struct xdp_md ctx = { .data_end = f->len, .ingress_ifindex = e->in };
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = f->data,
		.data_size_in = f->len,
		.ctx_in = &ctx,
		.ctx_size_in = sizeof(ctx),
		.repeat = n,
		.flags = BPF_F_TEST_XDP_LIVE_FRAMES,
	);

	return bpf_prog_test_run_opts(bpf_program__fd(prog), &o);
}

static __u64 rx_of(__u32 ifindex)
{
	struct link_info l;

	return netdev_link(ifindex, &l) ? 0 : l.rx_packets;
}

/* A frame sent to OUT arrives at its veth peer IN when IN has an XDP
 * program (that gives IN's queue the NAPI that takes XDP frames).
 */
static void check_fixed_live(struct env *e, struct xdp *f,
			     const struct frame *udp)
{
	struct bpf_insn pass[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0,
		  .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_xdp_attach_opts, xo);
	__u64 before, i;
	int fd, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "pass", "GPL", pass, 2, NULL);
	err = fd < 0 ? -errno : bpf_xdp_attach(e->in, fd, XDP_FLAGS_DRV_MODE,
						&xo);
	if (!ASSERT_OK("fixed live", "XDP_PASS on IN", err)) {
		tap(false, "fixed: a live frame leaves through fixed_target");
		goto out;
	}
	before = rx_of(e->in);
	err = run_live(e, f->progs.xdp_redirect, udp, 8);
	tap(ASSERT_OK("fixed live", "test run", err),
	    "fixed: live test run");
	for (i = 0; i < 20 && rx_of(e->in) - before < 8; i++)
		usleep(50000);
	same("fixed: 8 live frames left through fixed_target (its peer got them), not the entry's target",
	     rx_of(e->in) - before, 8);
	bpf_xdp_detach(e->in, XDP_FLAGS_DRV_MODE, NULL);
out:
	if (fd >= 0)
		close(fd);
}

/* The copy of xdp.o for one port: xdp_redirect and xdp_devmap without
 * the lookup, so the entry can be absent or say something else.
 */
static void check_fixed(struct env *e, const char *pin_root,
			const struct frame *udp)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = pin_root);
	struct bpf_devmap_val d = { .ifindex = e->out };
	int ports = bpf_map__fd(e->skel->maps.bpfwd_ports);
	__u32 slot = SLOT;
	struct xdp *f;

	f = xdp__open_opts(&oo);
	if (!f) {
		tap(false, "fixed: xdp.o opens");
		return;
	}
	f->rodata->fixed_ifindex = e->in;
	f->rodata->fixed_slot = SLOT;
	f->rodata->fixed_target = e->out;
	bpf_map__set_max_entries(f->maps.bpfwd_cpumap, e->ncpus);
	if (!ASSERT_OK("fixed", "load", xdp__load(f))) {
		tap(false, "fixed: the specialised copy loads");
		xdp__destroy(f);
		return;
	}
	tap(true, "fixed: the specialised copy loads");
	bpf_map_delete_elem(ports, &e->in);
	expect(e, "fixed redirect: no entry, redirects anyway",
	       f->progs.xdp_redirect, udp, XDP_REDIRECT, r_packets, 1);
	expect(e, "table redirect: no entry passes (the same frame)",
	       e->skel->progs.xdp_redirect, udp, XDP_PASS, r_unmatched, 1);
	put_port(e, 0, BPFWD_MODE_REDIRECT);
	expect(e, "fixed redirect: an entry without target, redirects anyway",
	       f->progs.xdp_redirect, udp, XDP_REDIRECT, r_packets, 1);
	bpf_map_update_elem(bpf_map__fd(f->maps.bpfwd_devmap), &slot, &d, 0);
	bpf_map_delete_elem(ports, &e->in);
	expect(e, "fixed devmap: no entry, redirects through fixed_slot",
	       f->progs.xdp_devmap, udp, XDP_REDIRECT, r_packets, 1);
	bpf_map_delete_elem(bpf_map__fd(f->maps.bpfwd_devmap), &slot);
	expect(e, "fixed devmap: an empty fixed_slot passes, counted as error",
	       f->progs.xdp_devmap, udp, XDP_PASS, r_err, 1);
	/* the entry names lo (no ndo_xdp_xmit): only fixed_target works */
	put_port(e, 1, BPFWD_MODE_REDIRECT);
	check_fixed_live(e, f, udp);
	bpf_map_delete_elem(ports, &e->in);
	xdp__destroy(f);
}

int main(int argc, char **argv)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo);
	struct bpf_cpumap_val q = { .qsize = 64 };
	struct bpf_devmap_val d = { 0 };
	struct bpfwd_cpus cpus = { 0 };
	struct frame udp, runt, vlan;
	struct env e = { 0 };
	__u32 key = 0, slot = SLOT;
	struct xdp *s;
	int err;

	if (argc == 3 && !strcmp(argv[1], "foreign"))
		return foreign(argv[2]);
	err = unit_args(argc, argv, " | foreign DEV", &oo.pin_root_path,
			&e.in, &e.out);
	if (err)
		return err;
	e.ncpus = libbpf_num_possible_cpus();
	if (e.ncpus <= 0) {
		fprintf(stderr, "%s: cannot count CPUs\n", argv[0]);
		return 1;
	}
	e.skel = s = xdp__open_opts(&oo);
	if (!s || bpf_map__set_max_entries(s->maps.bpfwd_cpumap, e.ncpus) ||
	    xdp__load(s)) {
		tap(ASSERT_OK("xdp.o", "open and load", -errno),
		    "xdp.o opens and loads");
		return tap_done();
	}
	tap(true, "xdp.o opens and loads (every program verifies)");
	check_layout(&e);

	build_udp(&udp, "udp 106 bytes", 0, 64);
	build_udp(&runt, "udp runt 44 bytes", 0, 2);
	build_udp(&vlan, "802.1Q udp 110 bytes", 1, 64);

	expect(&e, "no entry passes, counted in slot 0", s->progs.xdp_redirect,
	       &udp, XDP_PASS, r_unmatched, 1);

	put_port(&e, e.out, BPFWD_MODE_REDIRECT);
	expect(&e, "redirect", s->progs.xdp_redirect, &udp, XDP_REDIRECT,
	       r_packets, 1);
	expect(&e, "redirect: runt counted", s->progs.xdp_redirect, &runt,
	       XDP_REDIRECT, r_runt, 1);
	expect(&e, "redirect: 802.1Q counted", s->progs.xdp_redirect, &vlan,
	       XDP_REDIRECT, r_vlan, 1);
	put_port(&e, 0, BPFWD_MODE_REDIRECT);
	expect(&e, "redirect without target passes", s->progs.xdp_redirect,
	       &udp, XDP_PASS, r_no_target, 1);

	put_port(&e, e.out, BPFWD_MODE_MAP);
	expect(&e, "devmap: empty slot passes, counted as error",
	       s->progs.xdp_devmap, &udp, XDP_PASS, r_err, 1);
	d.ifindex = e.out;
	bpf_map_update_elem(bpf_map__fd(s->maps.bpfwd_devmap), &slot, &d, 0);
	expect(&e, "devmap: filled slot redirects", s->progs.xdp_devmap, &udp,
	       XDP_REDIRECT, r_packets, 1);

	put_port(&e, e.out, BPFWD_MODE_CPUMAP);
	expect(&e, "cpumap: no CPU list passes", s->progs.xdp_cpumap, &udp,
	       XDP_PASS, r_no_cpu, 1);
	cpus.count = 1;
	cpus.qsize = q.qsize;
	cpus.cpu[0] = e.ncpus - 1;
	bpf_map_update_elem(bpf_map__fd(s->maps.bpfwd_cpus), &slot, &cpus, 0);
	expect(&e, "cpumap: a CPU without queue passes, counted as error",
	       s->progs.xdp_cpumap, &udp, XDP_PASS, r_err, 1);
	key = cpus.cpu[0];
	err = bpf_map_update_elem(bpf_map__fd(s->maps.bpfwd_cpumap), &key, &q, 0);
	tap(ASSERT_OK("cpumap", "queue on the last CPU", err ? -errno : 0),
	    "cpumap: queue on the last CPU");
	expect(&e, "cpumap: redirects to the queue", s->progs.xdp_cpumap, &udp,
	       XDP_REDIRECT, r_packets, 1);
	{
		struct bpfwd_port p = { .target = e.out,
					.mode = BPFWD_MODE_CPUMAP,
					.flags = BPFWD_F_CPU_PASS,
					.hook = BPFWD_HOOK_XDP, .slot = SLOT };

		bpf_map_update_elem(bpf_map__fd(s->maps.bpfwd_ports), &e.in,
				    &p, 0);
		expect(&e, "cpumap then pass to OUT: queued, counted by tc only",
		       s->progs.xdp_cpumap, &udp, XDP_REDIRECT, r_packets, 0);
	}
	cpus.count = BPFWD_MAX_CPU_LIST + 1;
	bpf_map_update_elem(bpf_map__fd(s->maps.bpfwd_cpus), &slot, &cpus, 0);
	expect(&e, "cpumap: a list longer than the ABI allows passes",
	       s->progs.xdp_cpumap, &udp, XDP_PASS, r_no_cpu, 1);
	bpf_map_delete_elem(bpf_map__fd(s->maps.bpfwd_cpumap), &key);

	put_port(&e, 0, BPFWD_MODE_FLOOD);
	expect(&e, "flood broadcasts", s->progs.xdp_flood, &udp, XDP_REDIRECT,
	       r_packets, 1);

	bpf_map_delete_elem(bpf_map__fd(s->maps.bpfwd_ports), &e.in);
	check_fixed(&e, oo.pin_root_path, &udp);
	xdp__destroy(s);
	return tap_done();
}
