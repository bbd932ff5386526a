// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * The routing fast path of `bpfwd route`: the kernel's FIB and
 * neighbour table decide, through bpf_fib_lookup() (policy rules,
 * ECMP per flow with the kernel's multipath hash, the egress MTU, the
 * ingress device's forwarding switch), and a frame is forwarded here
 * only when the kernel would forward it unchanged apart from the hop
 * (ip_forward(), ip6_forward()): new MAC addresses, TTL or hop limit
 * one lower with the checksum updated, out of the route's device.
 * Everything else goes to the stack (TC_ACT_OK, XDP_PASS) untouched,
 * counted by reason, so that the kernel answers with its ICMP errors,
 * resolves neighbours, delivers locally, fragments or drops exactly as
 * it does without bpfwd.
 *
 *   route_tc   tc / tcx ingress: bpf_redirect(), or bpf_redirect_neigh()
 *              when the next hop's neighbour entry is not resolved
 *   route_xdp  XDP (multi-buffer capable: only the first buffer's
 *              headers are read): bpf_redirect_map() through
 *              bpfwd_rt_dev, the route devices (a miss passes,
 *              untouched); in generic mode bpf_redirect() to any device
 *
 * Both run route_frame().  Only bpfwd loads this object; a device
 * without an entry in bpfwd_rt_cfg passes everything, uncounted.  The
 * programs find the entry in bpfwd_rt_idx, its copy indexed by ifindex
 * (a hash lookup cost route_tc 2-3% of the dut's CPU time a frame in
 * perf), and in the hash only above BPFWD_RT_IDX_MAX.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "bpfwd.h"

#define AF_INET		2
#define AF_INET6	10
#define PACKET_HOST	0
#define IP_MF		0x2000
#define IP_OFFSET	0x1fff

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFWD_RT_MAX_DEVS);
	__type(key, __u32);
	__type(value, struct bpfwd_route_cfg);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_rt_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BPFWD_RT_IDX_MAX);
	__type(key, __u32);
	__type(value, struct bpfwd_route_cfg);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_rt_idx SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BPFWD_RT_MAX_DEVS);
	__type(key, __u32);
	__type(value, struct bpfwd_route_stats);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_rt_stats SEC(".maps");

/* Pinned by bpfwd, not libbpf (see the devmaps of xdp.bpf.c). */
struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, BPFWD_RT_MAX_DEVS);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} bpfwd_rt_dev SEC(".maps");

/* route_frame()'s verdicts besides a reason (>= 0) to pass */
#define RT_FWD		(-1)	/* rewritten: send to fib.ifindex */
#define RT_NEIGH	(-2)	/* TTL done: bpf_redirect_neigh() to the
				 * next hop in fib */

struct rt_frame {
	void *data;
	void *end;
	__u32 ifindex;		/* ingress */
	__u32 len;		/* the whole frame, every buffer */
	__u32 gso_size;		/* tc: segment payload of a GSO skb */
	__u32 ip_len;		/* out: the IP packet's length */
	__u32 pkt_type;		/* tc: skb->pkt_type */
	bool xdp;
};

static __always_inline bool mac_eq(const __u8 *a, const __u8 *b)
{
	return *(__u32 *)a == *(__u32 *)b &&
	       *(__u16 *)(a + 4) == *(__u16 *)(b + 4);
}

static __always_inline bool ip4_csum_ok(const struct iphdr *iph)
{
	const __u16 *w = (const __u16 *)iph;
	__u32 sum = 0;
	int i;

#pragma unroll
	for (i = 0; i < 10; i++)
		sum += w[i];
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return sum == 0xffff;
}

/* ip_rcv_core() and ip_route_input_slow() take these for martians */
static __always_inline bool ip4_martian_src(__be32 a)
{
	__u32 h = bpf_ntohl(a);

	return (h >> 28) == 0xe || h == 0xffffffff || (h >> 24) == 0 ||
	       (h >> 24) == 127;
}

static __always_inline bool ip4_martian_dst(__be32 a)
{
	__u32 h = bpf_ntohl(a);

	return (h >> 24) == 0 || (h >> 24) == 127;
}

static __always_inline bool ip4_mcast_dst(__be32 a)
{
	__u32 h = bpf_ntohl(a);

	return (h >> 28) == 0xe || h == 0xffffffff;
}

/* ip6_rcv_core() and ip6_forward(): unspecified, loopback, v4-mapped,
 * multicast or link-local sources; loopback, unspecified or link-local
 * destinations
 */
static __always_inline bool ip6_martian(const __u32 *a, bool src)
{
	__u32 w0 = bpf_ntohl(a[0]);

	if ((w0 & 0xffc00000) == 0xfe800000)	/* fe80::/10 */
		return true;
	if (src && (w0 >> 24) == 0xff)
		return true;
	if (w0 || a[1])
		return false;
	if (src && a[2] == bpf_htonl(0xffff))	/* ::ffff:0:0/96 */
		return true;
	return !a[2] && (!a[3] || a[3] == bpf_htonl(1));
}

static __always_inline bool ip6_ext_hdr(__u8 nh)
{
	return nh == 0 || nh == 43 || nh == 44 || nh == 51 /* AH */ ||
	       nh == 59 || nh == 60 || nh == 135 || nh == 139 || nh == 140 ||
	       nh == 253 || nh == 254;
}

static __always_inline bool has_ports(__u8 proto)
{
	return proto == IPPROTO_TCP || proto == IPPROTO_UDP ||
	       proto == IPPROTO_SCTP || proto == IPPROTO_UDPLITE ||
	       proto == IPPROTO_DCCP;
}

/* The L4 fields the kernel's multipath hash and FIB rules see: ports,
 * and whether an ICMP message is an error (hashed by its inner header).
 * Returns a reason to pass, or -1.
 */
static __always_inline int rt_l4(struct rt_frame *f, void *l4, __u8 proto,
				 struct bpf_fib_lookup *fib)
{
	__u8 *b = l4;

	fib->l4_protocol = proto;
	if (has_ports(proto)) {
		if ((void *)(b + 4) > f->end)
			return BPFWD_RT_UNSUPPORTED;	/* not in the linear part */
		fib->sport = *(__be16 *)b;
		fib->dport = *(__be16 *)(b + 2);
		return -1;
	}
	if (proto != IPPROTO_ICMP && proto != IPPROTO_ICMPV6)
		return -1;
	if ((void *)(b + 1) > f->end)
		return BPFWD_RT_UNSUPPORTED;
	if (proto == IPPROTO_ICMPV6)
		return b[0] < 128 ? BPFWD_RT_ICMP_ERROR : -1;
	return (b[0] == 3 || b[0] == 4 || b[0] == 5 || b[0] == 11 ||
		b[0] == 12) ? BPFWD_RT_ICMP_ERROR : -1;
}

/* The length the MTU check compares: a GSO skb's segments, else the
 * packet.  0 makes the tc helper check the skb against the device.
 */
static __always_inline __u16 rt_mtu_len(struct rt_frame *f, __u32 l3hdr,
					void *l4, __u8 proto)
{
	__u8 *b = l4;

	if (!f->gso_size)
		return f->ip_len;
	if (proto == IPPROTO_UDP)
		return l3hdr + 8 + f->gso_size;
	if (proto == IPPROTO_TCP && (void *)(b + 13) <= f->end)
		return l3hdr + (b[12] >> 4) * 4 + f->gso_size;
	return 0;
}

static __always_inline int ip4_parse(struct rt_frame *f,
				     struct bpf_fib_lookup *fib)
{
	struct iphdr *iph = f->data + sizeof(struct ethhdr);
	__u32 len;
	int r;

	if ((void *)(iph + 1) > f->end)
		return BPFWD_RT_BAD_HEADER;
	if (iph->version != 4 || iph->ihl < 5)
		return BPFWD_RT_BAD_HEADER;
	if (iph->ihl > 5)
		return BPFWD_RT_OPTIONS;
	len = bpf_ntohs(iph->tot_len);
	if (!ip4_csum_ok(iph) || len < sizeof(*iph) ||
	    len > f->len - sizeof(struct ethhdr))
		return BPFWD_RT_BAD_HEADER;
	f->ip_len = len;
	if (iph->frag_off & bpf_htons(IP_MF | IP_OFFSET))
		return BPFWD_RT_FRAGMENT;
	if (ip4_mcast_dst(iph->daddr))
		return BPFWD_RT_MULTICAST;
	if (ip4_martian_src(iph->saddr) || ip4_martian_dst(iph->daddr))
		return BPFWD_RT_MARTIAN;
	if (iph->ttl <= 1)
		return BPFWD_RT_TTL;
	r = rt_l4(f, iph + 1, iph->protocol, fib);
	if (r >= 0)
		return r;
	fib->family = AF_INET;
	fib->tos = iph->tos;
	fib->tot_len = rt_mtu_len(f, sizeof(*iph), iph + 1, iph->protocol);
	fib->ipv4_src = iph->saddr;
	fib->ipv4_dst = iph->daddr;
	return -1;
}

static __always_inline int ip6_parse(struct rt_frame *f,
				     struct bpf_fib_lookup *fib)
{
	struct ipv6hdr *ip6h = f->data + sizeof(struct ethhdr);
	__u32 len;
	int r;

	if ((void *)(ip6h + 1) > f->end)
		return BPFWD_RT_BAD_HEADER;
	if (ip6h->version != 6)
		return BPFWD_RT_BAD_HEADER;
	len = bpf_ntohs(ip6h->payload_len) + sizeof(*ip6h);
	if (ip6h->nexthdr == 44)
		return BPFWD_RT_FRAGMENT;
	/* payload_len 0: a jumbogram, whose length is in hop-by-hop */
	if (ip6_ext_hdr(ip6h->nexthdr) || len == sizeof(*ip6h))
		return BPFWD_RT_OPTIONS;
	if (len > f->len - sizeof(struct ethhdr))
		return BPFWD_RT_BAD_HEADER;
	f->ip_len = len;
	if (ip6h->daddr.in6_u.u6_addr8[0] == 0xff)
		return BPFWD_RT_MULTICAST;
	if (ip6_martian(ip6h->saddr.in6_u.u6_addr32, true) ||
	    ip6_martian(ip6h->daddr.in6_u.u6_addr32, false))
		return BPFWD_RT_MARTIAN;
	if (ip6h->hop_limit <= 1)
		return BPFWD_RT_TTL;
	r = rt_l4(f, ip6h + 1, ip6h->nexthdr, fib);
	if (r >= 0)
		return r;
	fib->family = AF_INET6;
	fib->flowinfo = *(__be32 *)ip6h & bpf_htonl(0x0fffffff);
	fib->tot_len = rt_mtu_len(f, sizeof(*ip6h), ip6h + 1, ip6h->nexthdr);
	__builtin_memcpy(fib->ipv6_src, &ip6h->saddr, 16);
	__builtin_memcpy(fib->ipv6_dst, &ip6h->daddr, 16);
	return -1;
}

static __always_inline int fib_reason(long rc)
{
	switch (rc) {
	case BPF_FIB_LKUP_RET_BLACKHOLE:
		return BPFWD_RT_BLACKHOLE;
	case BPF_FIB_LKUP_RET_UNREACHABLE:
		return BPFWD_RT_UNREACHABLE;
	case BPF_FIB_LKUP_RET_PROHIBIT:
		return BPFWD_RT_PROHIBIT;
	case BPF_FIB_LKUP_RET_NOT_FWDED:
		return BPFWD_RT_NOT_FWDED;
	case BPF_FIB_LKUP_RET_FWD_DISABLED:
		return BPFWD_RT_FWD_DISABLED;
	case BPF_FIB_LKUP_RET_UNSUPP_LWT:
		return BPFWD_RT_UNSUPPORTED;
	case BPF_FIB_LKUP_RET_FRAG_NEEDED:
		return BPFWD_RT_FRAG_NEEDED;
	case BPF_FIB_LKUP_RET_NO_NEIGH:
		return BPFWD_RT_NO_NEIGH;
	}
	return BPFWD_RT_ERROR;
}

/* rp_filter, as fib_validate_source() does it: the route back to the
 * source must exist (loose) and leave by the ingress device (strict);
 * a local source is a martian.  IPv4 only, and only when the device's
 * rp_filter is on (it costs a second lookup).
 */
static __always_inline bool rpf_ok(void *ctx, struct rt_frame *f,
				   const struct bpf_fib_lookup *fwd,
				   __u32 flags)
{
	struct bpf_fib_lookup r = {};
	long rc;

	r.family = fwd->family;
	r.ifindex = f->ifindex;
	if (fwd->family == AF_INET) {
		r.tos = fwd->tos;
		r.ipv4_src = fwd->ipv4_dst;
		r.ipv4_dst = fwd->ipv4_src;
	} else {
		__builtin_memcpy(r.ipv6_src, fwd->ipv6_dst, 16);
		__builtin_memcpy(r.ipv6_dst, fwd->ipv6_src, 16);
	}
	rc = bpf_fib_lookup(ctx, &r, sizeof(r), 0);
	if (rc != BPF_FIB_LKUP_RET_SUCCESS && rc != BPF_FIB_LKUP_RET_NO_NEIGH &&
	    rc != BPF_FIB_LKUP_RET_FRAG_NEEDED)
		return false;
	return !(flags & BPFWD_RT_F_RPF_STRICT) || r.ifindex == f->ifindex;
}

/* The hop: TTL or hop limit one lower, with the IPv4 checksum updated
 * as ip_decrease_ttl() does (the IPv6 header has none; a tc caller
 * fixes a CHECKSUM_COMPLETE sum with *csum_diff).
 */
static __always_inline void rt_hop(struct rt_frame *f, __u8 family,
				   __s64 *csum_diff)
{
	if (family == AF_INET) {
		struct iphdr *iph = f->data + sizeof(struct ethhdr);
		__u32 check;

		if ((void *)(iph + 1) > f->end)
			return;
		check = iph->check;
		check += bpf_htons(0x0100);
		iph->check = (__u16)(check + (check >= 0xffff));
		iph->ttl--;
	} else {
		struct ipv6hdr *ip6h = f->data + sizeof(struct ethhdr);
		__u32 old, new;

		if ((void *)(ip6h + 1) > f->end)
			return;
		old = *((__u32 *)ip6h + 1);
		ip6h->hop_limit--;
		new = *((__u32 *)ip6h + 1);
		if (csum_diff)
			*csum_diff = bpf_csum_diff(&old, 4, &new, 4, 0);
	}
}

/* The rule.  Returns RT_FWD (MACs and hop done; fib->ifindex is the
 * egress), RT_NEIGH (hop done, @neigh callers only) or the reason to
 * pass the frame untouched.
 */
static __always_inline int route_frame(void *ctx, struct rt_frame *f,
				       const struct bpfwd_route_cfg *cfg,
				       struct bpf_fib_lookup *fib, bool neigh,
				       __s64 *csum_diff)
{
	struct ethhdr *eth = f->data;
	__u8 family;
	long rc;
	int r;

	if ((void *)(eth + 1) > f->end)
		return BPFWD_RT_NOT_IP;
	if (eth->h_proto == bpf_htons(ETH_P_IP))
		family = AF_INET;
	else if (eth->h_proto == bpf_htons(ETH_P_IPV6))
		family = AF_INET6;
	else
		return BPFWD_RT_NOT_IP;
	if (eth->h_dest[0] & 1)
		return BPFWD_RT_MULTICAST;
	if (f->xdp ? !mac_eq(eth->h_dest, cfg->mac) :
		     f->pkt_type != PACKET_HOST)
		return BPFWD_RT_NOT_HOST;
	if (family == AF_INET6 && (cfg->flags & BPFWD_RT_F_NO_IP6))
		return BPFWD_RT_FWD_DISABLED;
	r = family == AF_INET ? ip4_parse(f, fib) : ip6_parse(f, fib);
	if (r >= 0)
		return r;
	fib->ifindex = f->ifindex;
	rc = bpf_fib_lookup(ctx, fib, sizeof(*fib), 0);
	if (rc == BPF_FIB_LKUP_RET_NO_NEIGH && !neigh)
		return BPFWD_RT_NO_NEIGH;
	if (rc != BPF_FIB_LKUP_RET_SUCCESS && rc != BPF_FIB_LKUP_RET_NO_NEIGH)
		return fib_reason(rc);
	if (fib->ifindex == f->ifindex)
		return BPFWD_RT_SAME_DEV;
	if (family == AF_INET &&
	    (cfg->flags & (BPFWD_RT_F_RPF_STRICT | BPFWD_RT_F_RPF_LOOSE)) &&
	    !rpf_ok(ctx, f, fib, cfg->flags))
		return BPFWD_RT_RPF;
	/* native XDP sends only to devices that take XDP frames (a miss in
	 * the devmap passes); generic XDP redirects skbs, to any device.
	 * The redirect is set up before the rewrite, so that a frame it
	 * refuses goes to the stack untouched, and one helper call does
	 * what a devmap lookup and bpf_redirect_map() did.
	 */
	if (f->xdp && !(cfg->flags & BPFWD_RT_F_XDP_GENERIC) &&
	    bpf_redirect_map(&bpfwd_rt_dev, fib->ifindex, XDP_PASS) !=
	    XDP_REDIRECT)
		return BPFWD_RT_NO_DEVMAP;
	/* the packet pointers are still valid: no helper above moves data */
	eth = f->data;
	if ((void *)(eth + 1) > f->end)
		return BPFWD_RT_NOT_IP;
	rt_hop(f, family, csum_diff);
	if (rc == BPF_FIB_LKUP_RET_NO_NEIGH)
		return RT_NEIGH;
	__builtin_memcpy(eth->h_dest, fib->dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, fib->smac, ETH_ALEN);
	return RT_FWD;
}

/* The ingress device's entry, NULL when it is not a route device. */
static __always_inline const struct bpfwd_route_cfg *rt_cfg(__u32 ifindex)
{
	const struct bpfwd_route_cfg *c;

	if (ifindex >= BPFWD_RT_IDX_MAX)
		return bpf_map_lookup_elem(&bpfwd_rt_cfg, &ifindex);
	c = bpf_map_lookup_elem(&bpfwd_rt_idx, &ifindex);
	return c && (c->flags & BPFWD_RT_F_ON) ? c : NULL;
}

static __always_inline void count_pass(struct bpfwd_route_stats *s, int r)
{
	if (s && r >= 0 && r < BPFWD_RT_REASONS)
		s->passed[r]++;
}

static __always_inline void count_fwd(struct bpfwd_route_stats *s,
				      __u32 len, bool neigh)
{
	if (!s)
		return;
	s->forwarded++;
	s->bytes += len;
	if (neigh)
		s->neigh++;
}

/* skb->priority from the TOS, as ip_forward() sets it (ip_tos2prio) */
static __always_inline __u32 tos_prio(__u8 tos)
{
	switch ((tos >> 3) & 3) {
	case 1:
		return 2;	/* TC_PRIO_BULK */
	case 2:
		return 6;	/* TC_PRIO_INTERACTIVE */
	case 3:
		return 4;	/* TC_PRIO_INTERACTIVE_BULK */
	}
	return 0;		/* TC_PRIO_BESTEFFORT */
}

SEC("tc")
int route_tc(struct __sk_buff *skb)
{
	struct bpf_fib_lookup fib = {};
	const struct bpfwd_route_cfg *cfg;
	struct bpfwd_route_stats *s;
	__u32 ifindex = skb->ifindex;
	struct rt_frame f = {};
	__s64 diff = 0;
	int r;

	cfg = rt_cfg(ifindex);
	if (!cfg)
		return TC_ACT_OK;
	s = bpf_map_lookup_elem(&bpfwd_rt_stats, &cfg->slot);
	if (skb->vlan_present) {
		count_pass(s, BPFWD_RT_NOT_IP);
		return TC_ACT_OK;
	}
	/* the headers route_frame() reads, in the linear part */
	if ((long)skb->data + 14 + 40 + 20 > (long)skb->data_end &&
	    skb->len > skb->data_end - skb->data)
		bpf_skb_pull_data(skb, skb->len < 128 ? skb->len : 128);
	f.data = (void *)(long)skb->data;
	f.end = (void *)(long)skb->data_end;
	f.ifindex = ifindex;
	f.len = skb->len;
	f.gso_size = skb->gso_size;
	f.pkt_type = skb->pkt_type;
	r = route_frame(skb, &f, cfg, &fib, true, &diff);
	if (r >= 0) {
		count_pass(s, r);
		return TC_ACT_OK;
	}
	if (diff)
		bpf_csum_update(skb, diff);
	if (fib.family == AF_INET) {
		struct iphdr *iph = f.data + sizeof(struct ethhdr);

		if ((void *)(iph + 1) <= f.end)
			skb->priority = tos_prio(iph->tos);
	}
	/* the kernel trims what follows the IP packet (padding) */
	if (!f.gso_size && f.len > f.ip_len + sizeof(struct ethhdr))
		bpf_skb_change_tail(skb, f.ip_len + sizeof(struct ethhdr), 0);
	count_fwd(s, skb->len, r == RT_NEIGH);
	if (r == RT_NEIGH) {
		struct bpf_redir_neigh nh = { .nh_family = fib.family };

		if (fib.family == AF_INET)
			nh.ipv4_nh = fib.ipv4_dst;
		else
			__builtin_memcpy(nh.ipv6_nh, fib.ipv6_dst, 16);
		return bpf_redirect_neigh(fib.ifindex, &nh, sizeof(nh), 0);
	}
	return bpf_redirect(fib.ifindex, 0);
}

SEC("xdp.frags")
int route_xdp(struct xdp_md *ctx)
{
	struct bpf_fib_lookup fib = {};
	const struct bpfwd_route_cfg *cfg;
	struct bpfwd_route_stats *s;
	__u32 ifindex = ctx->ingress_ifindex;
	struct rt_frame f = {};
	int r;

	cfg = rt_cfg(ifindex);
	if (!cfg)
		return XDP_PASS;
	s = bpf_map_lookup_elem(&bpfwd_rt_stats, &cfg->slot);
	f.data = (void *)(long)ctx->data;
	f.end = (void *)(long)ctx->data_end;
	f.ifindex = ifindex;
	f.len = bpf_xdp_get_buff_len(ctx);
	f.xdp = true;
	r = route_frame(ctx, &f, cfg, &fib, false, NULL);
	if (r >= 0) {
		count_pass(s, r);
		return XDP_PASS;
	}
	if (f.len > f.ip_len + sizeof(struct ethhdr))
		bpf_xdp_adjust_tail(ctx, (int)(f.ip_len + sizeof(struct ethhdr)) -
					 (int)f.len);
	count_fwd(s, f.ip_len + sizeof(struct ethhdr), false);
	if (cfg->flags & BPFWD_RT_F_XDP_GENERIC)
		return bpf_redirect(fib.ifindex, 0);
	return XDP_REDIRECT;	/* route_frame() set it up */
}

char _license[] SEC("license") = "GPL";
