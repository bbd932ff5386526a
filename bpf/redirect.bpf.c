// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * tc programs that forward a port's frames to the port named in the
 * pinned table bpfwd_ports, the way the 2015 bpf_redirect() patch and
 * its tcbpf1 sample did, but table driven so that one object serves
 * every port:
 *
 *   tc filter add dev eth0 ingress bpf da obj redirect.o sec redirect_xmit
 *   bpfwd port add dev eth0 to eth1 hook none
 *
 * clone_redirect_* copy and drop the original, as the 2015 tcbpf1 sample
 * did; mirror_* copy and let the original go on (a tap).
 *
 * Section names are what operators type after `sec`; stock tc sets the
 * program type from its command line, bpfwd's loader sets it per
 * program.  A frame whose port has no table entry passes untouched.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "tables.bpf.h"

static __always_inline struct bpfwd_stats *slot_stats(__u32 slot)
{
	return bpf_map_lookup_elem(&bpfwd_stats, &slot);
}

/* Slot 0 counts the frames programs hand to the stack untouched. */
static __always_inline void count_passed(struct __sk_buff *skb)
{
	struct bpfwd_stats *s = slot_stats(BPFWD_SLOT_UNMATCHED);

	if (s) {
		s->packets++;
		s->bytes += skb->len;
	}
}

/* Looks the port up and accounts the frame.  Returns the entry, or NULL
 * when the frame must pass (no entry, or an entry without target).
 */
static __always_inline const struct bpfwd_port *
port_lookup(struct __sk_buff *skb, struct bpfwd_stats **st)
{
	const struct bpfwd_port *p;
	__u32 ifindex = skb->ifindex;
	struct bpfwd_stats *s;

	p = bpf_map_lookup_elem(&bpfwd_ports, &ifindex);
	if (!p) {
		count_passed(skb);
		return NULL;
	}
	s = slot_stats(p->slot);
	*st = s;
	if (!s)
		return p->target ? p : NULL;
	if (skb->len < ETH_ZLEN)
		s->runt++;
	if (skb->vlan_present ||
	    skb->protocol == bpf_htons(ETH_P_8021Q) ||
	    skb->protocol == bpf_htons(ETH_P_8021AD))
		s->vlan++;
	if (!p->target) {
		s->no_target++;
		return NULL;
	}
	return p;
}

static __always_inline int account(struct bpfwd_stats *s,
				   struct __sk_buff *skb, long ret)
{
	if (!s)
		return ret;
	if (ret == TC_ACT_REDIRECT) {
		s->packets++;
		s->bytes += skb->len;
	} else {
		s->err_redirect++;
	}
	return ret;
}

static __always_inline int do_redirect(struct __sk_buff *skb, __u64 flags)
{
	struct bpfwd_stats *s = NULL;
	const struct bpfwd_port *p = port_lookup(skb, &s);

	if (!p)
		return TC_ACT_OK;
	return account(s, skb, bpf_redirect(p->target, flags));
}

/* A clone to the target.  @keep false: the original is dropped, as the
 * 2015 tcbpf1 sample did (mode clone).  @keep true: a tap, the original
 * carries on as if the program were not there (mode mirror;
 * TC_ACT_UNSPEC: the next tc filter, or on tcx the next program, then
 * the stack).
 */
static __always_inline int do_clone(struct __sk_buff *skb, __u64 flags,
				    bool keep)
{
	int verdict = keep ? TC_ACT_UNSPEC : TC_ACT_SHOT;
	struct bpfwd_stats *s = NULL;
	const struct bpfwd_port *p = port_lookup(skb, &s);
	__u32 len = skb->len;
	long err;

	if (!p)
		return keep ? TC_ACT_UNSPEC : TC_ACT_OK;
	err = bpf_clone_redirect(skb, p->target, flags);
	if (s) {
		/* > 0 is NET_XMIT_CN: congested, but the clone was queued */
		if (err < 0) {
			s->err_clone++;
		} else {
			s->packets++;
			s->bytes += len;
		}
		if (!keep)
			s->dropped++;
	}
	return verdict;
}

SEC("redirect_xmit")
int rd_xmit(struct __sk_buff *skb)
{
	return do_redirect(skb, 0);
}

SEC("redirect_recv")
int rd_recv(struct __sk_buff *skb)
{
	return do_redirect(skb, BPF_F_INGRESS);
}

SEC("clone_redirect_xmit")
int clone_xmit(struct __sk_buff *skb)
{
	return do_clone(skb, 0, false);
}

SEC("clone_redirect_recv")
int clone_recv(struct __sk_buff *skb)
{
	return do_clone(skb, BPF_F_INGRESS, false);
}

SEC("mirror_xmit")
int mir_xmit(struct __sk_buff *skb)
{
	return do_clone(skb, 0, true);
}

SEC("mirror_recv")
int mir_recv(struct __sk_buff *skb)
{
	return do_clone(skb, BPF_F_INGRESS, true);
}

/* To the peer of a veth/netkit target, straight into the peer's netns
 * ingress; tc ingress only (the kernel refuses it elsewhere).
 */
SEC("redirect_peer")
int rd_peer(struct __sk_buff *skb)
{
	struct bpfwd_stats *s = NULL;
	const struct bpfwd_port *p = port_lookup(skb, &s);

	if (!p)
		return TC_ACT_OK;
	return account(s, skb, bpf_redirect_peer(p->target, 0));
}

/* Out of the target with the L2 header filled from the neighbour table,
 * as a router port does.  The kernel can only do that for IPv4/IPv6, so
 * everything else (ARP above all) passes to the stack, which answers it.
 */
SEC("redirect_neigh")
int rd_neigh(struct __sk_buff *skb)
{
	struct bpfwd_stats *s = NULL;
	const struct bpfwd_port *p;

	if (skb->protocol != bpf_htons(ETH_P_IP) &&
	    skb->protocol != bpf_htons(ETH_P_IPV6)) {
		count_passed(skb);
		return TC_ACT_OK;
	}
	p = port_lookup(skb, &s);
	if (!p)
		return TC_ACT_OK;
	return account(s, skb, bpf_redirect_neigh(p->target, NULL, 0, 0));
}

char _license[] SEC("license") = "GPL";
