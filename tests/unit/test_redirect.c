// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Runs every section of redirect.o with BPF_PROG_TEST_RUN on crafted
 * frames and checks the verdict, that the frame comes back unchanged,
 * and how far every counter of the port's slot and of slot 0 (frames
 * without entry) moves in the pinned per-CPU bpfwd_stats map.  Frames:
 * UDP over IPv4 and IPv6, one of exactly ETH_ZLEN bytes, runts (UDP,
 * ARP, a bare Ethernet header), 802.1Q and 802.1ad tagged UDP.  Table
 * states: a target, no entry, an entry without target, a target no
 * device has (clone), a slot outside bpfwd_stats, and repeated runs.
 * For clones it also watches the target with a packet socket: the copy
 * must leave it (xmit) or arrive on it (recv).  Before that it checks
 * that the maps have the layout of bpfwd.h, field by field through the
 * object's BTF, and that every section loaded through the project's
 * loader shares the maps pinned under PIN_DIR.
 *
 * The program runs with ctx->ifindex set to a port, which makes the
 * kernel build the test skb on that device, so skb->ifindex is the
 * table key.  bpf_clone_redirect() really transmits its clone, so this
 * binary refuses to run in a namespace holding more than lo and the two
 * devices: tests/unit/test_redirect.t makes one with a veth pair and runs
 *
 *   test_redirect PIN_DIR IN_DEV OUT_DEV
 *
 * there.  IN_DEV gets the table entries, OUT_DEV (its peer) is the
 * target and the port without entry.  Output is TAP.
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "unit_test.h"
#include "lib/loader.h"
#include "lib/util.h"
#include "bpfwd.h"	/* the ABI, bpf/bpfwd.h */
#include "redirect.skel.h"

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* kernel-internal, seen by user space */
#endif

#define SLOT		7	/* the slot the test entries count into */
#define REPEAT		8	/* runs of the repeat cases */
#define WAIT_MS		2000	/* longest wait for a clone to show up */

/* The fields of the shared structs as bpfwd.h declares them; the BTF
 * check and the counter comparisons walk these tables.
 */
struct field {
	const char *name;
	size_t off;
	size_t size;
};

#define FIELD(type, m) \
	{ #m, offsetof(struct type, m), sizeof(((struct type *)0)->m) }

static const struct field port_fields[] = {
	FIELD(bpfwd_port, target),
	FIELD(bpfwd_port, flags),
	FIELD(bpfwd_port, mode),
	FIELD(bpfwd_port, hook),
	FIELD(bpfwd_port, slot),
	FIELD(bpfwd_port, prio),
	FIELD(bpfwd_port, netns),
};

static const struct field stats_fields[] = {
	FIELD(bpfwd_stats, packets),
	FIELD(bpfwd_stats, bytes),
	FIELD(bpfwd_stats, dropped),
	FIELD(bpfwd_stats, err_clone),
	FIELD(bpfwd_stats, err_redirect),
	FIELD(bpfwd_stats, no_target),
	FIELD(bpfwd_stats, runt),
	FIELD(bpfwd_stats, vlan),
};

static __u64 stat_get(const struct bpfwd_stats *s, const struct field *f)
{
	return *(const __u64 *)((const char *)s + f->off);
}

/* What the test works with: the two veth ends, the maps (through the
 * maps-only skeleton that created the pins) and a packet socket that
 * watches OUT for clones.
 */
struct env {
	const char *pin_dir;
	__u32 in;		/* has the table entries */
	__u32 out;		/* IN's peer: target, and a port without entry */
	__u32 nowhere;		/* an ifindex no device has */
	int ncpus;
	struct redirect *maps;	/* skeleton loaded without programs */
	int ports_fd;
	int stats_fd;
	__u32 ports_id;
	__u32 stats_id;
	int pkt_fd;		/* AF_PACKET on OUT, -1 when it failed */
	bool no_test_run;	/* BPF_PROG_TEST_RUN refused: skip the rest */
};

enum {
	F_UDP, F_UDP6, F_ZLEN, F_RUNT, F_ARP, F_HDR, F_DOT1Q, F_QINQ,
	NR_FRAMES
};
static struct frame frames[NR_FRAMES];

static void build_frames(void)
{
	build_udp(&frames[F_UDP], "udp 78 bytes", 0, 36);
	build_udp6(&frames[F_UDP6], "udp/ipv6 98 bytes", 36);
	build_udp(&frames[F_ZLEN], "udp 60 bytes (ETH_ZLEN, no runt)", 0, 18);
	build_udp(&frames[F_RUNT], "udp runt 42 bytes", 0, 0);
	build_arp(&frames[F_ARP], "arp runt 42 bytes");
	build_udp(&frames[F_DOT1Q], "802.1Q udp 82 bytes", 1, 36);
	build_udp(&frames[F_QINQ], "802.1ad udp 86 bytes", 2, 36);

	build_eth_only(&frames[F_HDR], "runt 14 bytes (header only)");
}

/* Sums slot @slot of bpfwd_stats over the possible CPUs. */
static int stats_sum(struct env *e, __u32 slot, struct bpfwd_stats *sum)
{
	struct bpfwd_stats *v;
	size_t i, j;
	int err = 0;

	v = calloc(e->ncpus, sizeof(*v));
	if (!v)
		return -ENOMEM;
	memset(sum, 0, sizeof(*sum));
	if (bpf_map_lookup_elem(e->stats_fd, &slot, v)) {
		err = -errno;
		goto out;
	}
	for (i = 0; i < (size_t)e->ncpus; i++)
		for (j = 0; j < ARRAY_SIZE(stats_fields); j++)
			*(__u64 *)((char *)sum + stats_fields[j].off) +=
				stat_get(&v[i], &stats_fields[j]);
out:
	free(v);
	return err;
}

/* Checks that every counter of @slot moved from @before to @after by
 * exactly @want.
 */
static bool stats_moved(const char *ctx, __u32 slot,
			const struct bpfwd_stats *before,
			const struct bpfwd_stats *after,
			const struct bpfwd_stats *want)
{
	bool pass = true;
	char what[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(stats_fields); i++) {
		const struct field *f = &stats_fields[i];

		snprintf(what, sizeof(what), "slot %u %s", slot, f->name);
		pass &= ASSERT_EQ(ctx, what,
				  stat_get(after, f) - stat_get(before, f),
				  stat_get(want, f));
	}
	return pass;
}

static int port_set(struct env *e, __u32 ifindex, __u32 target, __u32 slot,
		    __u32 mode)
{
	struct bpfwd_port p = {
		.target = target,
		.mode = mode,
		.hook = BPFWD_HOOK_NONE,
		.slot = slot,
	};

	if (bpf_map_update_elem(e->ports_fd, &ifindex, &p, BPF_ANY))
		return -errno;
	return 0;
}

static int port_unset(struct env *e, __u32 ifindex)
{
	if (bpf_map_delete_elem(e->ports_fd, &ifindex) && errno != ENOENT)
		return -errno;
	return 0;
}

/* Runs @prog_fd @repeat times on @f as if it arrived on @ifindex. */
static int run_prog(int prog_fd, __u32 ifindex, const struct frame *f,
		    __u32 repeat, __u32 *retval, __u8 *out, __u32 *out_len)
{
	struct __sk_buff ctx = { .ifindex = ifindex };
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = f->data,
		.data_size_in = f->len,
		.data_out = out,
		.data_size_out = FRAME_MAX,
		.ctx_in = &ctx,
		.ctx_size_in = sizeof(ctx),
		.repeat = repeat,
	);
	int err;

	err = bpf_prog_test_run_opts(prog_fd, &o);
	if (err)
		return err;
	*retval = o.retval;
	*out_len = o.data_size_out;
	return 0;
}

/* Reads what is queued on the packet socket, so that a later wait sees
 * only what the next run sends.
 */
static void pkt_drain(struct env *e)
{
	__u8 buf[256];

	if (e->pkt_fd < 0)
		return;
	while (recv(e->pkt_fd, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Waits (at most WAIT_MS) for @f on OUT's packet socket and returns
 * its packet type (PACKET_OUTGOING when OUT sent it), or -1 when it
 * did not show up.
 */
static int pkt_wait(struct env *e, const struct frame *f)
{
	long long end = now_ms() + WAIT_MS;
	struct sockaddr_ll sll;
	struct pollfd pfd = { .fd = e->pkt_fd, .events = POLLIN };
	__u8 buf[256];
	socklen_t alen;
	ssize_t n;

	for (;;) {
		long long left = end - now_ms();

		if (left <= 0 || poll(&pfd, 1, left) <= 0)
			return -1;
		alen = sizeof(sll);
		n = recvfrom(e->pkt_fd, buf, sizeof(buf), MSG_DONTWAIT,
			     (struct sockaddr *)&sll, &alen);
		if (n == (ssize_t)f->len && !memcmp(buf, f->data, f->len))
			return sll.sll_pkttype;
	}
}

/* The table states a case can set up for IN. */
enum port_state {
	P_TARGET,	/* IN -> OUT, slot SLOT */
	P_NO_ENTRY,	/* the frame arrives on OUT, which has no entry */
	P_NO_TARGET,	/* IN -> 0 */
	P_NOWHERE,	/* IN -> an ifindex without device (clone only) */
	P_NO_SLOT,	/* IN -> OUT, slot outside bpfwd_stats */
};

struct tcase {
	const char *what;
	int frame;
	enum port_state port;
	__u32 repeat;
};

static const struct tcase cases[] = {
	{ "forwarded",		F_UDP,	 P_TARGET,    1 },
	{ "forwarded",		F_UDP6,	 P_TARGET,    1 },
	{ "forwarded",		F_ZLEN,	 P_TARGET,    1 },
	{ "forwarded",		F_RUNT,	 P_TARGET,    1 },
	{ "forwarded",		F_ARP,	 P_TARGET,    1 },
	{ "forwarded",		F_HDR,	 P_TARGET,    1 },
	{ "forwarded",		F_DOT1Q, P_TARGET,    1 },
	{ "forwarded",		F_QINQ,	 P_TARGET,    1 },
	{ "forwarded x8",	F_UDP,	 P_TARGET,    REPEAT },
	{ "port without entry",	F_UDP,	 P_NO_ENTRY,  1 },
	{ "port without entry",	F_DOT1Q, P_NO_ENTRY,  1 },
	{ "entry without target", F_UDP, P_NO_TARGET, 1 },
	{ "entry without target", F_RUNT, P_NO_TARGET, 1 },
	{ "target without device", F_UDP, P_NOWHERE,  1 },
	{ "slot without counters", F_UDP, P_NO_SLOT,  1 },
};

struct section {
	const char *name;
	bool clone;
	bool ingress;		/* BPF_F_INGRESS: clone seen coming in */
	bool ip_only;		/* passes what is not IPv4/IPv6 (slot 0) */
	__u32 mode;
	enum bpf_func_id helper;
	const char *helper_name;
	bool mirror;		/* the original goes on: TC_ACT_UNSPEC */
};

static const struct section sections[] = {
	{ "redirect_xmit", false, false, false, BPFWD_MODE_REDIRECT,
	  BPF_FUNC_redirect, "bpf_redirect", false },
	{ "redirect_recv", false, true, false, BPFWD_MODE_REDIRECT,
	  BPF_FUNC_redirect, "bpf_redirect", false },
	{ "clone_redirect_xmit", true, false, false, BPFWD_MODE_CLONE,
	  BPF_FUNC_clone_redirect, "bpf_clone_redirect", false },
	{ "clone_redirect_recv", true, true, false, BPFWD_MODE_CLONE,
	  BPF_FUNC_clone_redirect, "bpf_clone_redirect", false },
	{ "redirect_peer", false, false, false, BPFWD_MODE_PEER,
	  BPF_FUNC_redirect_peer, "bpf_redirect_peer", false },
	{ "mirror_xmit", true, false, false, BPFWD_MODE_MIRROR,
	  BPF_FUNC_clone_redirect, "bpf_clone_redirect", true },
	{ "mirror_recv", true, true, false, BPFWD_MODE_MIRROR,
	  BPF_FUNC_clone_redirect, "bpf_clone_redirect", true },
	/* bpf_redirect_neigh() resolves IPv4/IPv6 only */
	{ "redirect_neigh", false, false, true, BPFWD_MODE_NEIGH,
	  BPF_FUNC_redirect_neigh, "bpf_redirect_neigh", false },
};

/* What the program must do with @c, from the contract in bpfwd.h and
 * redirect.bpf.c: the verdict and how far each counter of SLOT and of
 * slot 0 moves.
 */
static void expect(const struct section *s, const struct tcase *c,
		   const struct frame *f, __u32 *verdict,
		   struct bpfwd_stats *port, struct bpfwd_stats *unmatched)
{
	__u64 r = c->repeat;

	memset(port, 0, sizeof(*port));
	memset(unmatched, 0, sizeof(*unmatched));

	if (s->ip_only && f->proto != ETH_P_IP && f->proto != ETH_P_IPV6) {
		/* passed to the stack before the table lookup: slot 0
		 * counts it (a tagged frame too: in a test run the tag is
		 * still inline)
		 */
		*verdict = TC_ACT_OK;
		unmatched->packets = r;
		unmatched->bytes = r * f->len;
		return;
	}
	if (c->port == P_NO_ENTRY) {
		/* passes; only slot 0 counts it */
		*verdict = s->mirror ? (__u32)TC_ACT_UNSPEC : TC_ACT_OK;
		unmatched->packets = r;
		unmatched->bytes = r * f->len;
		return;
	}

	/* an entry exists: its slot sees runts and tags whatever follows */
	if (f->len < ETH_ZLEN)
		port->runt = r;
	if (f->vlan)
		port->vlan = r;

	switch (c->port) {
	case P_NO_TARGET:
		*verdict = TC_ACT_OK;
		port->no_target = r;
		break;
	case P_NOWHERE:
		/* bpf_clone_redirect() fails, the original still goes */
		*verdict = TC_ACT_SHOT;
		port->err_clone = r;
		port->dropped = r;
		break;
	default:
		*verdict = s->clone ? TC_ACT_SHOT : TC_ACT_REDIRECT;
		port->packets = r;
		port->bytes = r * f->len;
		if (s->clone)
			port->dropped = r;
		break;
	}
	if (c->port == P_NO_SLOT) {
		/* forwarded, but there is nothing to count it in */
		memset(port, 0, sizeof(*port));
	}
	if (s->mirror) {
		/* a tap never drops or ends the chain, whatever happened */
		*verdict = (__u32)TC_ACT_UNSPEC;
		port->dropped = 0;
	}
}

static int case_setup(struct env *e, const struct section *s,
		      const struct tcase *c, __u32 *ingress)
{
	int err;

	err = port_unset(e, e->out);
	if (err)
		return err;
	*ingress = e->in;
	switch (c->port) {
	case P_TARGET:
		return port_set(e, e->in, e->out, SLOT, s->mode);
	case P_NO_ENTRY:
		*ingress = e->out;
		return port_set(e, e->in, e->out, SLOT, s->mode);
	case P_NO_TARGET:
		return port_set(e, e->in, 0, SLOT, s->mode);
	case P_NOWHERE:
		return port_set(e, e->in, e->nowhere, SLOT, s->mode);
	case P_NO_SLOT:
		return port_set(e, e->in, e->out, BPFWD_MAX_SLOTS, s->mode);
	}
	return -EINVAL;
}

static void run_case(struct env *e, const struct section *s, int prog_fd,
		     const struct tcase *c)
{
	const struct frame *f = &frames[c->frame];
	struct bpfwd_stats b_port, b_un, a_port, a_un, w_port, w_un;
	__u32 verdict, want_verdict, ingress, out_len;
	__u8 out[FRAME_MAX];
	bool watch, pass = true;
	char ctx[128];
	int err, type;

	snprintf(ctx, sizeof(ctx), "%s: %s: %s", s->name, c->what, f->name);
	if (e->no_test_run) {
		tap_skip(ctx, "kernel refuses BPF_PROG_TEST_RUN for tc programs");
		return;
	}
	err = case_setup(e, s, c, &ingress);
	if (!ASSERT_OK(ctx, "write bpfwd_ports", err))
		goto report;
	err = stats_sum(e, SLOT, &b_port);
	err = err ?: stats_sum(e, BPFWD_SLOT_UNMATCHED, &b_un);
	if (!ASSERT_OK(ctx, "read bpfwd_stats", err))
		goto report;

	/* a clone that really left: watch OUT for it */
	watch = s->clone && c->port == P_TARGET && c->repeat == 1 &&
		!f->vlan && e->pkt_fd >= 0;
	if (watch)
		pkt_drain(e);

	err = run_prog(prog_fd, ingress, f, c->repeat, &verdict, out, &out_len);
	if (err == -EOPNOTSUPP || err == -ENOTSUPP) {
		e->no_test_run = true;
		tap_skip(ctx, "kernel refuses BPF_PROG_TEST_RUN for tc programs");
		return;
	}
	if (!ASSERT_OK(ctx, "BPF_PROG_TEST_RUN", err))
		goto report;

	expect(s, c, f, &want_verdict, &w_port, &w_un);
	pass &= ASSERT_EQ(ctx, "verdict", verdict, want_verdict);
	pass &= ASSERT_EQ(ctx, "frame length after", out_len, f->len);
	pass &= ASSERT_TRUE(ctx, "frame unchanged",
			    out_len == f->len && !memcmp(out, f->data, f->len));

	err = stats_sum(e, SLOT, &a_port);
	err = err ?: stats_sum(e, BPFWD_SLOT_UNMATCHED, &a_un);
	if (!ASSERT_OK(ctx, "read bpfwd_stats", err))
		goto report;
	pass &= stats_moved(ctx, SLOT, &b_port, &a_port, &w_port);
	pass &= stats_moved(ctx, BPFWD_SLOT_UNMATCHED, &b_un, &a_un, &w_un);

	if (watch) {
		type = pkt_wait(e, f);
		pass &= ASSERT_TRUE(ctx, "clone seen on the target", type >= 0);
		if (type >= 0 && s->ingress)
			pass &= ASSERT_TRUE(ctx, "clone received by the target",
					    type != PACKET_OUTGOING);
		else if (type >= 0)
			pass &= ASSERT_TRUE(ctx, "clone sent by the target",
					    type == PACKET_OUTGOING);
	}
	tap(pass, "%s", ctx);
	return;
report:
	tap(false, "%s", ctx);
}

static int map_id(int fd, __u32 *id)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	*id = info.id;
	return 0;
}

static void test_section(struct env *e, const struct section *s)
{
	const char *prog_name = NULL;
	struct redirect *skel = NULL;
	__u32 ports_id = 0, stats_id = 0;
	int prog_fd = -1, err;
	bool pass;
	size_t i;

	if (libbpf_probe_bpf_helper(BPF_PROG_TYPE_SCHED_CLS, s->helper,
				    NULL) <= 0) {
		char reason[96];

		snprintf(reason, sizeof(reason), "kernel lacks %s",
			 s->helper_name);
		tap_skip(s->name, reason);
		return;
	}

	err = loader_load(e->pin_dir, s->name, BPF_PROG_TYPE_SCHED_CLS, &skel,
			  &prog_fd, &prog_name);
	pass = ASSERT_OK(s->name, "loader_load", err) &&
	       ASSERT_TRUE(s->name, "program fd", prog_fd >= 0);
	tap(pass, "%s: loads as a tc program through the loader", s->name);
	if (!pass)
		goto out;

	err = map_id(bpf_map__fd(skel->maps.bpfwd_ports), &ports_id);
	err = err ?: map_id(bpf_map__fd(skel->maps.bpfwd_stats), &stats_id);
	pass = ASSERT_OK(s->name, "map info", err) &&
	       ASSERT_EQ(s->name, "bpfwd_ports id", ports_id, e->ports_id) &&
	       ASSERT_EQ(s->name, "bpfwd_stats id", stats_id, e->stats_id);
	tap(pass, "%s: uses the pinned bpfwd_ports and bpfwd_stats", s->name);

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (cases[i].port == P_NOWHERE && !s->clone)
			continue;	/* only clone sees a missing target */
		run_case(e, s, prog_fd, &cases[i]);
	}
out:
	if (skel)
		loader_free(skel);
}

/* The struct @name in the object's BTF has exactly the fields, offsets
 * and sizes of bpfwd.h.
 */
static bool btf_matches(const struct btf *btf, const char *name, size_t size,
			const struct field *fields, size_t nr)
{
	const struct btf_member *m;
	const struct btf_type *t;
	char what[96];
	bool pass = true;
	size_t i;
	int id;

	id = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);
	if (!ASSERT_TRUE(name, "struct in the object's BTF", id > 0))
		return false;
	t = btf__type_by_id(btf, id);
	pass &= ASSERT_EQ(name, "BTF size", btf__resolve_size(btf, id), size);
	if (!ASSERT_EQ(name, "BTF members", btf_vlen(t), nr))
		return false;
	m = btf_members(t);
	for (i = 0; i < nr; i++, m++) {
		const char *mname = btf__name_by_offset(btf, m->name_off);

		snprintf(what, sizeof(what), "member %zu is %s", i,
			 fields[i].name);
		pass &= ASSERT_TRUE(name, what,
				    mname && !strcmp(mname, fields[i].name));
		snprintf(what, sizeof(what), "%s offset", fields[i].name);
		pass &= ASSERT_EQ(name, what, btf_member_bit_offset(t, i) / 8,
				  fields[i].off);
		snprintf(what, sizeof(what), "%s size", fields[i].name);
		pass &= ASSERT_EQ(name, what, btf__resolve_size(btf, m->type),
				  fields[i].size);
	}
	return pass;
}

static bool map_matches(struct env *e, const struct bpf_map *map,
			const char *name, enum bpf_map_type type,
			size_t value_size, __u32 max_entries, __u32 *id)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	char path[PATH_MAX];
	bool pass = true;
	int fd, err;
	__u32 pin_id = 0;

	pass &= ASSERT_TRUE(name, "map name",
			    !strcmp(bpf_map__name(map), name));
	pass &= ASSERT_EQ(name, "key size", bpf_map__key_size(map),
			  sizeof(__u32));
	pass &= ASSERT_EQ(name, "value size", bpf_map__value_size(map),
			  value_size);
	pass &= ASSERT_EQ(name, "max entries", bpf_map__max_entries(map),
			  max_entries);
	pass &= ASSERT_EQ(name, "type", bpf_map__type(map), type);

	/* what the kernel made of it */
	err = bpf_obj_get_info_by_fd(bpf_map__fd(map), &info, &len) ? -errno : 0;
	if (!ASSERT_OK(name, "map info", err))
		return false;
	pass &= ASSERT_EQ(name, "kernel value size", info.value_size,
			  value_size);
	pass &= ASSERT_EQ(name, "kernel key size", info.key_size,
			  sizeof(__u32));
	pass &= ASSERT_EQ(name, "kernel BTF value type id",
			  info.btf_value_type_id != 0, 1);
	*id = info.id;

	/* pinned by name under the pin dir */
	snprintf(path, sizeof(path), "%s/%s", e->pin_dir, name);
	fd = bpf_obj_get(path);
	err = fd < 0 ? -errno : map_id(fd, &pin_id);
	if (fd >= 0)
		close(fd);
	pass &= ASSERT_OK(name, "pinned by name", err) &&
		ASSERT_EQ(name, "pinned map id", pin_id, info.id);
	return pass;
}

/* Loads only the maps (creating the pins) and checks their layout. */
static int test_abi(struct env *e)
{
	const struct btf *btf;
	bool pass;
	int err;

	err = loader_load(e->pin_dir, NULL, BPF_PROG_TYPE_UNSPEC, &e->maps,
			  NULL, NULL);
	tap(ASSERT_OK("maps", "loader_load", err),
	    "loader creates and pins the maps under the pin dir");
	if (err)
		return err;
	e->ports_fd = bpf_map__fd(e->maps->maps.bpfwd_ports);
	e->stats_fd = bpf_map__fd(e->maps->maps.bpfwd_stats);

	pass = map_matches(e, e->maps->maps.bpfwd_ports, BPFWD_MAP_PORTS,
			   BPF_MAP_TYPE_HASH, sizeof(struct bpfwd_port),
			   BPFWD_MAX_PORTS, &e->ports_id);
	tap(pass, "bpfwd_ports: hash of __u32 -> struct bpfwd_port (%zu bytes), %d entries",
	    sizeof(struct bpfwd_port), BPFWD_MAX_PORTS);
	pass = map_matches(e, e->maps->maps.bpfwd_stats, BPFWD_MAP_STATS,
			   BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(struct bpfwd_stats),
			   BPFWD_MAX_SLOTS, &e->stats_id);
	tap(pass, "bpfwd_stats: per-CPU array of struct bpfwd_stats (%zu bytes), %d slots",
	    sizeof(struct bpfwd_stats), BPFWD_MAX_SLOTS);

	btf = bpf_object__btf(e->maps->obj);
	pass = ASSERT_TRUE("btf", "object has BTF", btf != NULL) &&
	       btf_matches(btf, "bpfwd_port", sizeof(struct bpfwd_port),
			   port_fields, ARRAY_SIZE(port_fields));
	tap(pass, "BTF struct bpfwd_port matches bpfwd.h field by field");
	pass = btf && btf_matches(btf, "bpfwd_stats",
				  sizeof(struct bpfwd_stats), stats_fields,
				  ARRAY_SIZE(stats_fields));
	tap(pass, "BTF struct bpfwd_stats matches bpfwd.h field by field");
	return 0;
}

static int pkt_open(__u32 ifindex)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = ifindex,
	};
	int fd;

	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

int main(int argc, char **argv)
{
	struct env e = { .pkt_fd = -1 };
	size_t i;
	int err;

	err = unit_args(argc, argv, " (run by tests/unit/test_redirect.t)",
			&e.pin_dir, &e.in, &e.out);
	if (err)
		return err;
	if (!unit_own_netns(e.in, e.out)) {
		fprintf(stderr, "%s: clones are really sent: run it in a namespace with only lo, %s and %s (tests/unit/test_redirect.t)\n",
			argv[0], argv[2], argv[3]);
		return 2;
	}
	/* an ifindex without device, for the failing clone */
	for (e.nowhere = 0x7ffffff0; e.nowhere; e.nowhere--) {
		char name[IF_NAMESIZE];

		if (!if_indextoname(e.nowhere, name))
			break;
	}
	e.ncpus = libbpf_num_possible_cpus();
	if (e.ncpus <= 0) {
		fprintf(stderr, "%s: cannot count CPUs\n", argv[0]);
		return 1;
	}
	loader_set_print();
	build_frames();

	if (test_abi(&e))
		goto done;

	e.pkt_fd = pkt_open(e.out);
	tap(ASSERT_OK(argv[3], "AF_PACKET socket", e.pkt_fd < 0 ? e.pkt_fd : 0),
	    "packet socket on %s watches for clones", argv[3]);

	for (i = 0; i < ARRAY_SIZE(sections); i++)
		test_section(&e, &sections[i]);

	port_unset(&e, e.in);
done:
	if (e.pkt_fd >= 0)
		close(e.pkt_fd);
	if (e.maps)
		loader_free(e.maps);
	return tap_done();
}
