// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Runs br_xdp of bridge.o with BPF_PROG_TEST_RUN on crafted frames, as
 * if they arrived on IN_DEV, a port of a bridge whose other port is
 * OUT_DEV, with the maps filled as the daemon fills them: the VLAN rule
 * of net/bridge/br_vlan.c, which needs no bridge VLAN filtering in this
 * kernel to be checked.  Each case checks the verdict, the frame that
 * would leave (tag popped, pushed, kept, PCP and DEI kept, priority tag
 * given the pvid) and the reason counter.  Cases: trunk to access and
 * back, trunk to trunk, priority-tagged, stacked tags, a VID not on the
 * ingress or the egress port, no pvid, a VLAN blocking or learning, the
 * other TPID, an 802.1ad bridge, vlan_tunnel, a device that strips tags,
 * the VLANs not mirrored, and without vlan_filtering a tag kept as is.
 *
 *   test_bridge PIN_DIR IN_DEV OUT_DEV   (tests/unit/test_bridge.t)
 *
 * Output is TAP.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "unit_test.h"
#include "bpfwd.h"	/* the ABI, bpf/bpfwd.h */
#include "bridge.skel.h"

#define BR	1000		/* the bridge's ifindex: only a key here */
#define SLOT	1
/* the ports' slots in bpfwd_br_pslots; br_xdp is loaded as IN's copy */
#define IN_PSLOT	1
#define OUT_PSLOT	2

struct env {
	struct bridge *skel;
	__u32 in, out;
	int ncpus;
	__u32 br_flags;
};

static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static __u64 counter(struct env *e, int c)
{
	struct bpfwd_br_stats *v = calloc(e->ncpus, sizeof(*v));
	__u32 slot = SLOT;
	__u64 s = 0;
	int i;

	if (v && !bpf_map_lookup_elem(bpf_map__fd(e->skel->maps.bpfwd_br_stats),
				      &slot, v))
		for (i = 0; i < e->ncpus; i++)
			s += v[i].c[c];
	free(v);
	return s;
}

/* The bridge entry, fresh heartbeat */
static void put_bridge(struct env *e, __u32 flags)
{
	struct bpfwd_br b = { .heartbeat = mono_ns(), .slot = SLOT,
			      .flags = BPFWD_BR_F_SYNC | flags };
	__u32 slot = SLOT;

	e->br_flags = flags;
	bpf_map_update_elem(bpf_map__fd(e->skel->maps.bpfwd_br_slots), &slot,
			    &b, 0);
}

static __u32 pslot_of(struct env *e, __u32 ifindex)
{
	return ifindex == e->in ? IN_PSLOT : OUT_PSLOT;
}

/* The port's entry and its copy by slot, as the daemon writes them */
static void put_port(struct env *e, __u32 ifindex, __u32 flags)
{
	struct bpfwd_br_port p = {
		.bridge = BR, .state = BPFWD_BR_STATE_FORWARDING, .mtu = 1500,
		.hook = BPFWD_HOOK_XDP, .slot = SLOT,
		.flags = BPFWD_BRP_SYNCED | BPFWD_BRP_LEARNING |
			 BPFWD_BRP_XDP_TX | flags,
		.ifindex = ifindex, .pslot = pslot_of(e, ifindex),
	};

	bpf_map_update_elem(bpf_map__fd(e->skel->maps.bpfwd_br_ports),
			    &ifindex, &p, 0);
	bpf_map_update_elem(bpf_map__fd(e->skel->maps.bpfwd_br_pslots),
			    &p.pslot, &p, 0);
}

/* eth_start()'s stations: 02:..:01 behind IN, 02:..:02 behind OUT */
static void put_fdb(struct env *e, __u32 vid)
{
	struct bpfwd_br_fdb_key k = { .bridge = BR, .vlan = vid };
	struct bpfwd_br_fdb v = { 0 };
	__u8 mac[8] = { 0x02, 0, 0, 0, 0, 0x01 };
	int fd = bpf_map__fd(e->skel->maps.bpfwd_br_fdb);

	memcpy(&k.mac, mac, 8);
	v.port = e->in;
	v.pslot = IN_PSLOT;
	bpf_map_update_elem(fd, &k, &v, 0);
	mac[5] = 0x02;
	memcpy(&k.mac, mac, 8);
	v.port = e->out;
	v.pslot = OUT_PSLOT;
	bpf_map_update_elem(fd, &k, &v, 0);
}

/* A VLAN on a port (flags BPFWD_BRV_*; vid 0: the port's pvid @state) */
static void put_vlan(struct env *e, __u32 port, __u32 vid, __u32 flags,
		     __u32 state)
{
	struct bpfwd_br_vlan_key k = { .port = port, .vid = vid };
	struct bpfwd_br_vlan v = { .flags = flags, .state = state };
	int fd = bpf_map__fd(e->skel->maps.bpfwd_br_vlan);

	if (!vid)
		v.pvid = state;
	if (!vid && !state)
		bpf_map_delete_elem(fd, &k);
	else
		bpf_map_update_elem(fd, &k, &v, 0);
}

static void del_vlan(struct env *e, __u32 port, __u32 vid)
{
	struct bpfwd_br_vlan_key k = { .port = port, .vid = vid };

	bpf_map_delete_elem(bpf_map__fd(e->skel->maps.bpfwd_br_vlan), &k);
}

/* The outer tag's TCI of @f set to @tci (it has one) */
static void tci(struct frame *f, __u16 v)
{
	put16(f->data + 14, v);
}

/* @f without its outer tag: what a pop must leave */
static void untagged_of(const struct frame *f, struct frame *u)
{
	*u = *f;
	memmove(u->data + 12, u->data + 16, f->len - 16);
	u->len = f->len - 4;
}

/* @f with an outer tag @tpid/@tci pushed */
static void tagged_of(const struct frame *f, __u16 tpid, __u16 v,
		      struct frame *t)
{
	*t = *f;
	memmove(t->data + 16, t->data + 12, f->len - 12);
	put16(t->data + 12, tpid);
	put16(t->data + 14, v);
	t->len = f->len + 4;
}

/* Runs br_xdp on @f: the verdict @want, the frame out equal to @want_f
 * (NULL: unchanged), counter @c moved by one.
 */
static void expect(struct env *e, const char *name, const struct frame *f,
		   __u32 want, const struct frame *want_f, int c)
{
	__u8 out[256];
	__u32 verdict, len = sizeof(out);
	__u64 before = counter(e, c);
	bool pass;
	int err;

	if (!want_f)
		want_f = f;
	put_bridge(e, e->br_flags);	/* a fresh heartbeat */
	err = xdp_run_frame(bpf_program__fd(e->skel->progs.br_xdp), e->in, f,
			    &verdict, out, &len);
	pass = ASSERT_OK(name, "test run", err) &&
	       ASSERT_EQ(name, "verdict", verdict, want) &&
	       ASSERT_EQ(name, "counter", counter(e, c) - before, 1);
	if (pass && want == XDP_REDIRECT)
		pass = ASSERT_EQ(name, "length out", len,
				 want_f->len) &&
		       ASSERT_TRUE(name, "frame out as the bridge sends it",
				   !memcmp(out, want_f->data, want_f->len));
	if (!pass) {
		int i;

		for (i = 0; i < __BPFWD_BRC_MAX; i++)
			if (counter(e, i))
				printf("#   counter %d: %llu\n", i,
				       (unsigned long long)counter(e, i));
	}
	tap(pass, "%s", name);
}

static void vlan_cases(struct env *e)
{
	struct frame t10, u, t, p, q, qq;
	const __u32 F = BPFWD_BR_STATE_FORWARDING;
	const int FWD = BPFWD_BRC_FORWARDED, VLAN = BPFWD_BRC_VLAN;

	build_udp(&t10, "802.1Q VID 10", 1, 32);
	build_udp(&u, "untagged", 0, 32);
	build_udp(&qq, "802.1ad 10 over 802.1Q 11", 2, 32);
	put_bridge(e, BPFWD_BR_F_VLAN_FILTERING | BPFWD_BR_F_VLAN_SYNC);
	put_fdb(e, 10);
	put_vlan(e, e->in, 10, 0, F);		/* IN: trunk, no pvid */
	put_vlan(e, e->out, 10, BPFWD_BRV_UNTAGGED | BPFWD_BRV_PVID, F);
	put_vlan(e, e->out, 0, 0, 10);		/* OUT: access 10 */

	untagged_of(&t10, &t);
	expect(e, "trunk to access: the tag popped", &t10, XDP_REDIRECT, &t, FWD);
	p = t10;
	tci(&p, 0xa000 | 0x1000 | 10);		/* PCP 5, DEI */
	expect(e, "trunk to access: PCP and DEI go with the tag", &p,
	       XDP_REDIRECT, &t, FWD);
	untagged_of(&qq, &t);
	expect(e, "802.1ad outer tag on an 802.1Q bridge: to the bridge", &qq,
	       XDP_PASS, NULL, VLAN);
	expect(e, "untagged on a port without pvid: to the bridge", &u,
	       XDP_PASS, NULL, VLAN);
	p = t10;
	tci(&p, 30);
	expect(e, "VID 30, not on the port: to the bridge", &p, XDP_PASS, NULL,
	       VLAN);
	p = t10;
	tci(&p, 0x6000);			/* priority-tagged, PCP 3 */
	expect(e, "priority-tagged without pvid: to the bridge", &p, XDP_PASS,
	       NULL, VLAN);

	/* IN: pvid 10 untagged too; OUT: 10 tagged */
	put_vlan(e, e->in, 10, BPFWD_BRV_PVID | BPFWD_BRV_UNTAGGED, F);
	put_vlan(e, e->in, 0, 0, 10);
	put_vlan(e, e->out, 10, 0, F);
	put_vlan(e, e->out, 0, 0, 0);
	tagged_of(&u, ETH_P_8021Q, 10, &t);
	expect(e, "access to trunk: the pvid's tag pushed", &u, XDP_REDIRECT,
	       &t, FWD);
	p = t10;
	tci(&p, 0xa000 | 10);
	expect(e, "trunk to trunk: the tag kept, PCP 5 too", &p, XDP_REDIRECT,
	       NULL, FWD);
	p = t10;
	tci(&p, 0x6000);
	q = p;
	tci(&q, 0x6000 | 10);
	expect(e, "priority-tagged: the pvid, PCP 3 kept", &p, XDP_REDIRECT, &q,
	       FWD);
	put_vlan(e, e->out, 10, BPFWD_BRV_UNTAGGED, F);
	untagged_of(&p, &t);
	expect(e, "priority-tagged to an untagged port: popped", &p,
	       XDP_REDIRECT, &t, FWD);
	put_vlan(e, e->out, 10, 0, F);

	/* the VLAN's STP state, on either side */
	put_vlan(e, e->out, 10, 0, BPFWD_BR_STATE_LEARNING);
	expect(e, "egress VLAN learning: to the bridge", &t10, XDP_PASS, NULL,
	       VLAN);
	put_vlan(e, e->out, 10, 0, F);
	put_vlan(e, e->in, 10, BPFWD_BRV_PVID | BPFWD_BRV_UNTAGGED, 4);
	expect(e, "ingress VLAN blocking: to the bridge", &t10, XDP_PASS, NULL,
	       VLAN);
	put_vlan(e, e->in, 10, BPFWD_BRV_PVID | BPFWD_BRV_UNTAGGED, F);
	del_vlan(e, e->out, 10);
	expect(e, "egress port without the VLAN: to the bridge", &t10, XDP_PASS,
	       NULL, VLAN);
	put_vlan(e, e->out, 10, BPFWD_BRV_TUNNEL, F);
	expect(e, "egress VLAN with a tunnel id: to the bridge", &t10, XDP_PASS,
	       NULL, VLAN);
	put_vlan(e, e->out, 10, 0, F);
	expect(e, "back to forwarding: the fast path", &t10, XDP_REDIRECT, NULL,
	       FWD);

	/* the fdb is per VLAN: the stations are not known in VLAN 20 */
	put_vlan(e, e->in, 20, 0, F);
	put_vlan(e, e->out, 20, 0, F);
	p = t10;
	tci(&p, 20);
	expect(e, "VLAN 20: the stations of VLAN 10 unknown there", &p,
	       XDP_PASS, NULL, BPFWD_BRC_UNKNOWN_SRC);

	put_port(e, e->in, BPFWD_BRP_RX_VLAN_HW);
	expect(e, "a device that strips tags: XDP passes", &u, XDP_PASS, NULL,
	       VLAN);
	put_port(e, e->in, 0);

	put_bridge(e, BPFWD_BR_F_VLAN_FILTERING);
	expect(e, "VLANs not mirrored: to the bridge", &t10, XDP_PASS, NULL,
	       VLAN);

	/* an 802.1ad bridge: its outer tag is 88a8, the 802.1Q one inside
	 * is payload
	 */
	put_bridge(e, BPFWD_BR_F_VLAN_FILTERING | BPFWD_BR_F_VLAN_SYNC |
		      BPFWD_BR_F_8021AD);
	put_vlan(e, e->out, 10, BPFWD_BRV_UNTAGGED, F);
	untagged_of(&qq, &t);
	expect(e, "802.1ad bridge: its tag popped, the inner one kept", &qq,
	       XDP_REDIRECT, &t, FWD);
	expect(e, "802.1ad bridge: an 802.1Q tag is not its own", &t10,
	       XDP_PASS, NULL, VLAN);
	put_vlan(e, e->out, 10, 0, F);
	tagged_of(&u, ETH_P_8021AD, 10, &t);
	expect(e, "802.1ad bridge: its tag pushed", &u, XDP_REDIRECT, &t, FWD);
}

static void novlan_cases(struct env *e)
{
	struct frame t10, qq;

	build_udp(&t10, "802.1Q VID 10", 1, 32);
	build_udp(&qq, "802.1ad over 802.1Q", 2, 32);
	put_bridge(e, 0);
	put_fdb(e, 0);
	expect(e, "no vlan_filtering: 802.1Q frame forwarded as is", &t10,
	       XDP_REDIRECT, NULL, BPFWD_BRC_FORWARDED);
	expect(e, "no vlan_filtering: stacked tags forwarded as is", &qq,
	       XDP_REDIRECT, NULL, BPFWD_BRC_FORWARDED);
	put_bridge(e, BPFWD_BR_F_NF_IP4 | BPFWD_BR_F_NF_VLAN);
	expect(e, "bridge-nf-filter-vlan-tagged: tagged IP to the bridge",
	       &t10, XDP_PASS, NULL, BPFWD_BRC_VLAN);
	put_bridge(e, BPFWD_BR_F_NF_IP4);
	expect(e, "bridge-nf-call-iptables alone: tagged IP not looked at",
	       &t10, XDP_REDIRECT, NULL, BPFWD_BRC_FORWARDED);
}

int main(int argc, char **argv)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo);
	struct env e = { 0 };
	int err;

	err = unit_args(argc, argv, "", &oo.pin_root_path, &e.in, &e.out);
	if (err)
		return err;
	e.ncpus = libbpf_num_possible_cpus();
	if (e.ncpus <= 0) {
		fprintf(stderr, "%s: cannot count CPUs\n", argv[0]);
		return 1;
	}
	e.skel = bridge__open_opts(&oo);
	if (e.skel)
		e.skel->rodata->in_pslot = IN_PSLOT;	/* as brmaps_prog() */
	if (!e.skel ||
	    bpf_program__set_type(e.skel->progs.br_tc, BPF_PROG_TYPE_SCHED_CLS) ||
	    bpf_program__set_type(e.skel->progs.br_xdp, BPF_PROG_TYPE_XDP) ||
	    bridge__load(e.skel)) {
		tap(ASSERT_OK("bridge.o", "open and load", -errno),
		    "bridge.o opens and loads");
		return tap_done();
	}
	tap(true, "bridge.o opens and loads (both programs verify)");
	put_port(&e, e.in, 0);
	put_port(&e, e.out, 0);
	novlan_cases(&e);
	vlan_cases(&e);
	bridge__destroy(e.skel);
	return tap_done();
}
