// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * XDP fast paths for bpfwd ports, driven by the same table as the tc
 * programs (bpfwd_ports, keyed by the ingress ifindex) so that `bpfwd
 * port show` and `bpfwd stats` treat every hook alike:
 *
 *   xdp_redirect  bpf_redirect() to the port's target
 *   xdp_devmap    bpf_redirect_map() through bpfwd_devmap at the port's
 *                 slot: the kernel bulks frames per target device
 *   xdp_cpumap    to one of the port's CPUs (flow hash) through
 *                 bpfwd_cpumap; its kthread builds skbs there, in bulk
 *   xdp_cpu_then  the cpumap program on that CPU: on to the target, or
 *                 XDP_PASS to the stack when the port has no target (or
 *                 BPFWD_F_CPU_PASS: a tc program of redirect.o on the
 *                 port sends the skbs to the target)
 *   xdp_flood     broadcast to every port of bpfwd_flood but the ingress
 *   flood_egress  the devmap program of those ports: only to ports of
 *                 the ingress port's group (bpfwd_groups)
 *   kthread_tp    counts the xdp_cpumap_kthread tracepoint for this
 *                 namespace's cpumap (processed, drops, sched per CPU)
 *
 * Only bpfwd loads this object (it sets the cpumap size and the cpumap
 * id itself); a frame whose port has no entry passes untouched.
 *
 * Every program declares multi-buffer support (xdp.frags): frames larger
 * than a page (jumbo MTU, GRO'd veth traffic) arrive as a head and
 * fragments and are forwarded whole; without it the kernel refuses the
 * program on such a device or drops those frames.  The programs read
 * only the headers, which are in the head, and count the whole length.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "tables.bpf.h"

#ifndef ETH_ZLEN
#define ETH_ZLEN 60
#endif
#ifndef BPF_F_BROADCAST
#define BPF_F_BROADCAST		(1ULL << 3)
#define BPF_F_EXCLUDE_INGRESS	(1ULL << 4)
#endif

/* The devmaps are pinned by bpfwd, not by libbpf: the kernel adds
 * BPF_F_RDONLY_PROG to a devmap's flags, which libbpf 1.1 then takes for
 * a mismatch when it reuses the pin.
 */
struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, BPFWD_MAX_SLOTS);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} bpfwd_devmap SEC(".maps");

/* max_entries is set to the number of possible CPUs by the loader */
struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct bpf_cpumap_val);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_cpumap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BPFWD_MAX_SLOTS);
	__type(key, __u32);
	__type(value, struct bpfwd_cpus);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_cpus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BPFWD_MAX_SLOTS);
	__type(key, __u32);
	__type(value, struct bpfwd_cpustat);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_cpustat SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfwd_kthread);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_kthread SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, BPFWD_MAX_PORTS);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} bpfwd_flood SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFWD_MAX_PORTS);
	__type(key, __u32);
	__type(value, __u32);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_groups SEC(".maps");

/* id of bpfwd_cpumap, set by the loader for kthread_tp */
const volatile __u32 cpumap_id;

/* Set by the loader when it loads a copy of this object for one port:
 * that port's ingress ifindex, slot and target, so that xdp_redirect
 * and xdp_devmap skip the bpfwd_ports lookup, most of the table's cost
 * per frame.  The entry stays in the table (show and stats read it), and
 * a replace loads a new copy.  0 (the default) looks every frame up.
 */
const volatile __u32 fixed_ifindex;
const volatile __u32 fixed_slot;
const volatile __u32 fixed_target;

/* The frame's length, fragments included. */
static __always_inline __u64 frame_len(struct xdp_md *ctx)
{
	return bpf_xdp_get_buff_len(ctx);
}

static __always_inline void count_frame(struct bpfwd_stats *s,
					struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;

	if (end - data < ETH_ZLEN)
		s->runt++;
	if ((void *)(eth + 1) <= end &&
	    (eth->h_proto == bpf_htons(ETH_P_8021Q) ||
	     eth->h_proto == bpf_htons(ETH_P_8021AD)))
		s->vlan++;
}

/* Whether this copy was loaded for the frame's ingress port; then *st
 * gets (and has counted the frame in) that port's stats.  Otherwise the
 * table decides.  Such a copy does not read the frame: the first read
 * of a line that gen's CPU has just written is a cache miss that costs
 * more than the rest of the program (bpfwd bench: xdp_redirect took
 * 72-94 ns a frame with it, 26 without, a hard-coded redirect 22), so
 * it counts runts, from the lengths alone, but no vlan.
 */
static __always_inline int fixed_port(struct xdp_md *ctx,
				       struct bpfwd_stats **st)
{
	__u32 slot = fixed_slot;

	if (!fixed_ifindex || ctx->ingress_ifindex != fixed_ifindex)
		return 0;
	*st = bpf_map_lookup_elem(&bpfwd_stats, &slot);
	if (*st && ctx->data_end - ctx->data < ETH_ZLEN)
		(*st)->runt++;
	return 1;
}

/* Looks the ingress port up and accounts what the tc programs account.
 * Returns the entry, or NULL when the frame must pass.
 */
static __always_inline const struct bpfwd_port *
port_lookup(struct xdp_md *ctx, struct bpfwd_stats **st)
{
	__u32 ifindex = ctx->ingress_ifindex, slot;
	const struct bpfwd_port *p;
	struct bpfwd_stats *s;

	p = bpf_map_lookup_elem(&bpfwd_ports, &ifindex);
	slot = p ? p->slot : BPFWD_SLOT_UNMATCHED;
	s = bpf_map_lookup_elem(&bpfwd_stats, &slot);
	*st = s;
	if (!p) {
		if (s) {
			s->packets++;
			s->bytes += frame_len(ctx);
		}
		return NULL;
	}
	if (s)
		count_frame(s, ctx);
	return p;
}

static __always_inline int account(struct bpfwd_stats *s, struct xdp_md *ctx,
				   long ret)
{
	if (!s)
		return ret;
	if (ret == XDP_REDIRECT) {
		s->packets++;
		s->bytes += frame_len(ctx);
		return ret;
	}
	s->err_redirect++;
	return XDP_PASS;
}

SEC("xdp.frags")
int xdp_redirect(struct xdp_md *ctx)
{
	struct bpfwd_stats *s = NULL;
	const struct bpfwd_port *p;

	if (fixed_port(ctx, &s))
		return account(s, ctx, bpf_redirect(fixed_target, 0));
	p = port_lookup(ctx, &s);
	if (!p)
		return XDP_PASS;
	if (!p->target) {
		if (s)
			s->no_target++;
		return XDP_PASS;
	}
	return account(s, ctx, bpf_redirect(p->target, 0));
}

SEC("xdp.frags")
int xdp_devmap(struct xdp_md *ctx)
{
	struct bpfwd_stats *s = NULL;
	const struct bpfwd_port *p;

	if (fixed_port(ctx, &s))
		return account(s, ctx, bpf_redirect_map(&bpfwd_devmap,
							fixed_slot, XDP_PASS));
	p = port_lookup(ctx, &s);
	if (!p)
		return XDP_PASS;
	/* an empty slot returns the low flag bits: XDP_PASS, counted */
	return account(s, ctx, bpf_redirect_map(&bpfwd_devmap, p->slot,
						XDP_PASS));
}

SEC("xdp.frags")
int xdp_flood(struct xdp_md *ctx)
{
	struct bpfwd_stats *s = NULL;
	const struct bpfwd_port *p = port_lookup(ctx, &s);

	if (!p)
		return XDP_PASS;
	return account(s, ctx, bpf_redirect_map(&bpfwd_flood, 0,
						BPF_F_BROADCAST |
						BPF_F_EXCLUDE_INGRESS));
}

/* The devmap program of every bpfwd_flood entry: a broadcast copy goes
 * out only to a port of the ingress port's group.
 */
SEC("xdp.frags/devmap")
int flood_egress(struct xdp_md *ctx)
{
	__u32 in = ctx->ingress_ifindex, out = ctx->egress_ifindex;
	__u32 *gi = bpf_map_lookup_elem(&bpfwd_groups, &in);
	__u32 *go = bpf_map_lookup_elem(&bpfwd_groups, &out);

	return gi && go && *gi == *go ? XDP_PASS : XDP_DROP;
}

static __always_inline __u32 mix(__u32 h, __u32 v)
{
	h ^= v;
	h *= 0x9e3779b1;
	return h ^ (h >> 15);
}

/* A flow hash, so one flow stays on one CPU (in order): IPv4 addresses
 * and ports when there are, MAC addresses otherwise.
 */
static __always_inline __u32 flow_hash(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	__u32 h = 0, *l4;

	if ((void *)(eth + 1) > end)
		return 0;
	if (eth->h_proto != bpf_htons(ETH_P_IP) || (void *)(ip + 1) > end) {
		h = mix(h, *(__u32 *)&eth->h_source[2]);
		return mix(h, *(__u32 *)&eth->h_dest[2]);
	}
	h = mix(mix(h, ip->saddr), ip->daddr);
	h = mix(h, ip->protocol);
	if (ip->ihl != 5 || (ip->frag_off & bpf_htons(0x3fff)))
		return h;
	l4 = (void *)(ip + 1);
	if ((ip->protocol == IPPROTO_UDP || ip->protocol == IPPROTO_TCP) &&
	    (void *)(l4 + 1) <= end)
		h = mix(h, *l4);
	return h;
}

SEC("xdp.frags")
int xdp_cpumap(struct xdp_md *ctx)
{
	struct bpfwd_stats *s = NULL;
	const struct bpfwd_port *p = port_lookup(ctx, &s);
	struct bpfwd_cpustat *cs;
	struct bpfwd_cpus *c;
	__u32 slot, i, cpu;
	long ret;

	if (!p)
		return XDP_PASS;
	slot = p->slot;
	c = bpf_map_lookup_elem(&bpfwd_cpus, &slot);
	if (!c || !c->count || c->count > BPFWD_MAX_CPU_LIST)
		goto no_cpu;
	i = flow_hash(ctx) % c->count;
	barrier_var(i);	/* the verifier needs the bound check */
	if (i >= BPFWD_MAX_CPU_LIST)
		goto no_cpu;
	cpu = c->cpu[i];
	ret = bpf_redirect_map(&bpfwd_cpumap, cpu, XDP_PASS);
	/* then pass to OUT: the tc program counts what it sends on */
	if (ret == XDP_REDIRECT && (p->flags & BPFWD_F_CPU_PASS))
		return ret;
	return account(s, ctx, ret);
no_cpu:
	cs = bpf_map_lookup_elem(&bpfwd_cpustat, &slot);
	if (cs)
		cs->no_cpu++;
	return XDP_PASS;
}

/* Runs on the cpumap CPU, in its kthread, before the skb is built. */
SEC("xdp.frags/cpumap")
int xdp_cpu_then(struct xdp_md *ctx)
{
	__u32 ifindex = ctx->ingress_ifindex, slot;
	const struct bpfwd_port *p;
	struct bpfwd_cpustat *cs;
	long ret;

	p = bpf_map_lookup_elem(&bpfwd_ports, &ifindex);
	if (!p)
		return XDP_PASS;
	slot = p->slot;
	cs = bpf_map_lookup_elem(&bpfwd_cpustat, &slot);
	if (cs) {
		cs->packets++;
		cs->bytes += frame_len(ctx);
	}
	if (!p->target || (p->flags & BPFWD_F_CPU_PASS)) {
		if (cs)
			cs->passed++;
		return XDP_PASS;
	}
	ret = bpf_redirect(p->target, 0);
	if (cs) {
		if (ret == XDP_REDIRECT)
			cs->redirected++;
		else
			cs->err_redirect++;
	}
	return ret == XDP_REDIRECT ? XDP_REDIRECT : XDP_DROP;
}

/* xdp_cpumap_kthread(int map_id, unsigned int processed,
 *		      unsigned int drops, int sched, ...)
 */
SEC("raw_tp/xdp_cpumap_kthread")
int kthread_tp(__u64 *ctx)
{
	struct bpfwd_kthread *k;
	__u32 zero = 0;

	if ((__u32)ctx[0] != cpumap_id)
		return 0;
	k = bpf_map_lookup_elem(&bpfwd_kthread, &zero);
	if (!k)
		return 0;
	k->processed += (__u32)ctx[1];
	k->drops += (__u32)ctx[2];
	k->sched += (__u32)ctx[3] ? 1 : 0;
	k->runs++;
	return 0;
}

char _license[] SEC("license") = "GPL";
