// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Test-only tracepoint programs for tests/unit/test_fuzz.c, which sees
 * from BPF_PROG_TEST_RUN a program's verdict but not where a redirect
 * went.  They record, for the test's own process only, every target the
 * kernel really sent a frame to:
 *  - xdp_redirect, xdp_redirect_err: XDP redirects, when the test runs
 *    XDP programs a second time with live frames (the redirect then
 *    happens): bpf_redirect()'s ifindex, the devmap slot, the cpumap
 *    CPU, the devmap hash key of a broadcast;
 *  - net_dev_queue: a tc program's bpf_clone_redirect() to a device's
 *    egress (the clone really leaves; a plain tc redirect does not happen
 *    in a test run, and a clone to an ingress shows as nothing here).
 *    The test's frames carry SPY_MARK; what the stack sends does not.
 * Only the kinds in spy[0].watch count (XDP kinds for XDP programs, the
 * clones for tc), so frames that reach the stack on the way do not.
 * tp_btf, not fentry or kprobes: kernels without ftrace or kprobes have
 * tracepoints.  The test writes what the table allows into
 * spy[0].allowed before a batch and reads back the calls that went
 * elsewhere.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#define INT_MAX		0x7fffffff

/* kinds, in test_fuzz.c's order */
enum {
	SPY_REDIRECT,		/* XDP bpf_redirect(ifindex) */
	SPY_DEVMAP,		/* devmap: the slot */
	SPY_DEVHASH,		/* devmap hash (broadcast): the key */
	SPY_CPUMAP,		/* cpumap: the CPU */
	SPY_OTHER_MAP,		/* another map (xskmap): never allowed */
	SPY_CLONE,		/* a tc clone leaving a device: its ifindex */
	SPY_KINDS,
};

#define SPY_NONE	0xffffffffffffffffULL	/* nothing allowed */
#define SPY_MARK	0xf022	/* skb->mark of the test's frames */

struct spy {
	__u64 allowed[SPY_KINDS];	/* the value allowed, or SPY_NONE */
	__u64 calls[SPY_KINDS];
	__u64 bad[SPY_KINDS];		/* calls with another value */
	__u64 last_bad[SPY_KINDS];	/* the last such value */
	__u64 watch;			/* bit per kind: recorded */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct spy);
} spy SEC(".maps");

const volatile __u32 spy_tgid;	/* the test's process */
const volatile __u64 spy_netns;	/* and its namespace's cookie */

/* Kernel types, only the fields read (CO-RE relocates them) */
struct net {
	__u64 net_cookie;
} __attribute__((preserve_access_index));

typedef struct {
	struct net *net;
} possible_net_t;

struct net_device {
	int ifindex;
	possible_net_t nd_net;
} __attribute__((preserve_access_index));

struct sk_buff {
	struct net_device *dev;
	__u32 mark;
} __attribute__((preserve_access_index));

/* Only the test's own frames: its process, and its namespace (a softirq
 * may run another namespace's XDP on top of the test's process)
 */
static __always_inline void record(const struct net_device *dev, int kind,
				   __u64 value)
{
	__u32 zero = 0;
	struct spy *s;

	if (bpf_get_current_pid_tgid() >> 32 != spy_tgid || !dev ||
	    dev->nd_net.net->net_cookie != spy_netns)
		return;
	s = bpf_map_lookup_elem(&spy, &zero);
	if (!s || !(s->watch & (1ULL << kind)))
		return;
	s->calls[kind]++;
	if (value != s->allowed[kind]) {
		s->bad[kind]++;
		s->last_bad[kind] = value;
	}
}

static __always_inline int xdp_target(const struct net_device *dev,
				      int map_type, __u32 map_id, __u32 index)
{
	if (map_type == BPF_MAP_TYPE_UNSPEC && map_id == INT_MAX)
		record(dev, SPY_REDIRECT, index); /* index: the ifindex */
	else if (map_type == BPF_MAP_TYPE_DEVMAP)
		record(dev, SPY_DEVMAP, index);
	else if (map_type == BPF_MAP_TYPE_DEVMAP_HASH)
		record(dev, SPY_DEVHASH, index);
	else if (map_type == BPF_MAP_TYPE_CPUMAP)
		record(dev, SPY_CPUMAP, index);
	else
		record(dev, SPY_OTHER_MAP, index);
	return 0;
}

SEC("tp_btf/xdp_redirect")
int BPF_PROG(spy_xdp, const struct net_device *dev, const void *xdp,
	     const void *tgt, int err, int map_type, __u32 map_id, __u32 index)
{
	return xdp_target(dev, map_type, map_id, index);
}

SEC("tp_btf/xdp_redirect_err")
int BPF_PROG(spy_xdp_err, const struct net_device *dev, const void *xdp,
	     const void *tgt, int err, int map_type, __u32 map_id, __u32 index)
{
	return xdp_target(dev, map_type, map_id, index);
}

SEC("tp_btf/net_dev_queue")
int BPF_PROG(spy_queue, struct sk_buff *skb)
{
	if (skb->mark == SPY_MARK)
		record(skb->dev, SPY_CLONE, skb->dev->ifindex);
	return 0;
}

char _license[] SEC("license") = "GPL";
