// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * The benchmark's own programs, loaded only by bpfwd (gen, bench):
 *
 *   gen_xmit      XDP, run by BPF_PROG_RUN in live-frames mode: stamps a
 *                 flow's UDP source port (and its checksum) into the
 *                 template frame and redirects it out of the generator's
 *                 device.  This is the traffic generator.
 *   cnt_tc_drop   tc: counts and drops.  The sink counts with it (every
 *                 bench row is counted the same way) and the tc-drop
 *                 limit row drops with it at the dut's ingress.
 *   cnt_xdp_drop  XDP: counts and drops (the xdp-drop limit row).
 *   fixed_redir   tc: bpf_redirect() to a target fixed at load time,
 *                 with no table and no counters: what the table-driven
 *                 redirect_xmit is measured against.
 *
 * gen_seq counts the frames run, so user space knows how many went out
 * even when a signal cut BPF_PROG_RUN short.
 *
 * Live frames are recycled with whatever the program last wrote in
 * them, so gen_xmit writes absolute values (never increments what is in
 * the frame) and recomputes the checksum from a sum user space prepared.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

/* Set by bpfwd before load. */
const volatile __u32 gen_ifindex;	/* device frames go out of */
const volatile __u32 gen_flows = 1;	/* source ports used, round robin */
const volatile __u16 gen_sport;		/* first source port, host order */
const volatile __u32 gen_sport_off;	/* offset of udp->source in frame */
const volatile __u32 gen_csum_off;	/* offset of udp->check */
/* ones' complement sum (unfolded) of the pseudo header, UDP header with
 * source port and checksum zero, and payload
 */
const volatile __u32 gen_csum_base;
const volatile __u32 fixed_target;	/* fixed_redir's target ifindex */

__u64 gen_seq;				/* frames run (user space reads it) */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} bpfwd_cnt SEC(".maps");

static __always_inline __u16 csum_fold(__u32 sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

SEC("xdp")
int gen_xmit(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 soff = gen_sport_off, coff = gen_csum_off;
	__u16 sport, check;
	__u32 flow;
	__u64 seq;

	seq = gen_seq++;
	if (gen_flows > 1) {
		flow = seq % gen_flows;
		sport = gen_sport + flow;
		/* offsets are below 64: keep the verifier's range small */
		if (soff > 64 || coff > 64)
			return XDP_ABORTED;
		if (data + soff + 2 > end || data + coff + 2 > end)
			return XDP_ABORTED;
		*(__u16 *)(data + soff) = bpf_htons(sport);
		check = csum_fold(gen_csum_base + bpf_htons(sport));
		*(__u16 *)(data + coff) = check ? check : 0xffff;
	}
	return bpf_redirect(gen_ifindex, 0);
}

static __always_inline void count(void)
{
	__u32 key = 0;
	__u64 *c = bpf_map_lookup_elem(&bpfwd_cnt, &key);

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

SEC("tc")
int fixed_redir(struct __sk_buff *skb)
{
	return bpf_redirect(fixed_target, 0);
}

char _license[] SEC("license") = "GPL";
