// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench's counting and limit programs, loaded only by bench (one
 * program of this object at a time, the others not loaded):
 *
 *   cnt_tc_drop     tc: counts and drops (the tc-drop limit row, at the
 *                   dut's ingress).
 *   cnt_tc_consume  tc: counts and consumes (the sink's tc counter,
 *                   count tc).
 *   cnt_xdp_drop    XDP: counts and drops (the sink's XDP counter, count
 *                   xdp, and the xdp-drop and xdp-loop rows).
 *   cnt_xdp_gen     XDP: counts and drops gen's frames (UDP/IPv4 to port
 *                   9), passes the rest (the sink's counter in the
 *                   latency rows, where pings must get through).
 *   fixed_redir     tc: bpf_redirect() to a target fixed at load time,
 *                   with no table and no counters: what the table-driven
 *                   redirect_xmit is measured against.
 *   fixed_xdp_redir XDP: the same for the XDP path (the xdp-fixed row,
 *                   the XDP rows' limit).
 *
 * Each loaded copy has its own bench_cnt, which bench reads around the
 * measured window.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <linux/udp.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

const volatile __u32 fixed_target;	/* fixed_*redir's target ifindex */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} bench_cnt SEC(".maps");

static __always_inline void count(void)
{
	__u32 key = 0;
	__u64 *c = bpf_map_lookup_elem(&bench_cnt, &key);

	if (c)
		(*c)++;
}

SEC("tc")
int cnt_tc_drop(struct __sk_buff *skb)
{
	count();
	return TC_ACT_SHOT;
}

/* The sink's tc counter: the frame is consumed, as a host that takes
 * it in would, not dropped.  A drop would fire skb:kfree_skb for every
 * frame, which is not what a healthy network does and is what a tc
 * error monitor listens to.
 */
SEC("tc")
int cnt_tc_consume(struct __sk_buff *skb)
{
	count();
	return TC_ACT_STOLEN;
}

SEC("xdp")
int cnt_xdp_drop(struct xdp_md *ctx)
{
	count();
	return XDP_DROP;
}

SEC("xdp")
int cnt_xdp_gen(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = data + sizeof(*eth);
	struct udphdr *udp = (void *)(ip + 1);

	if ((void *)(udp + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP) ||
	    ip->protocol != IPPROTO_UDP || ip->ihl != 5 ||
	    udp->dest != bpf_htons(9))
		return XDP_PASS;
	count();
	return XDP_DROP;
}

SEC("tc")
int fixed_redir(struct __sk_buff *skb)
{
	return bpf_redirect(fixed_target, 0);
}

SEC("xdp")
int fixed_xdp_redir(struct xdp_md *ctx)
{
	return bpf_redirect(fixed_target, 0);
}

/* fixed_xdp_map's one-slot devmap: slot 0 holds the target (written by
 * the bench before it attaches the program)
 */
struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} fixed_devmap SEC(".maps");

/* The devmap path's own limit: a redirect through a devmap, no table */
SEC("xdp")
int fixed_xdp_map(struct xdp_md *ctx)
{
	return bpf_redirect_map(&fixed_devmap, 0, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
