// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Programs of `bpfwd monitor`: they count redirect errors (and, with
 * `all`, successes) in a per-CPU hash keyed by event, device, target,
 * action and errno.  The 2017 split of xdp_redirect and xdp_redirect_err
 * is what lets an errors-only monitor stay on a busy box: the error
 * tracepoints fire only when something goes wrong, the bulk ones
 * (devmap_xmit, cpumap_*) once per bulk, and those programs return at
 * once unless the bulk lost frames.  bpfwd loads this object itself and
 * attaches only to what the running kernel has.
 *
 * The tc path has no such tracepoint on stock kernels: skb_do_redirect()
 * drops with a plain kfree_skb() and its callers ignore the result.  Where
 * bpfwd's kernel patch adds tc:tc_redirect_err, mon_tc_rd_err uses it;
 * elsewhere mon_kfree_skb recognises the failed redirects among the
 * frames the kernel frees, which costs nothing while redirects succeed
 * (fentry/fexit on skb_do_redirect() would be exact, but taxes every
 * frame and is not available on every kernel).
 *
 * No vmlinux.h: the few kernel fields read are declared here with
 * preserve_access_index, so the object builds anywhere and CO-RE fits
 * it to the kernel it runs on (6.1 and 6.18 lay them out differently).
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "monitor.h"

#define IFF_UP		0x1
#define ENETDOWN	100
#define ENODEV		19
#define INT_MAX		0x7fffffff

/* Kernel types, only the fields read (CO-RE relocates them). */
struct net {
	__u64 net_cookie;
} __attribute__((preserve_access_index));

typedef struct {
	struct net *net;
} possible_net_t;

struct net_device {
	int ifindex;
	unsigned int flags;
	possible_net_t nd_net;
} __attribute__((preserve_access_index));

struct sk_buff {
	struct net_device *dev;
	int skb_iif;
} __attribute__((preserve_access_index));

const volatile __u64 netns_cookie;	/* 0: every namespace */
const volatile __u32 count_all;		/* `all`: successes too */

/* Text ranges [lo, hi) of skb_do_redirect() and its .cold part, from
 * /proc/kallsyms: a kfree_skb() called from there is a tc redirect to an
 * ifindex that does not exist.
 */
#define BPFWD_MON_RANGES 4
const volatile __u64 rd_lo[BPFWD_MON_RANGES];
const volatile __u64 rd_hi[BPFWD_MON_RANGES];

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, BPFWD_MON_KEYS);
	__type(key, struct bpfwd_mon_key);
	__type(value, struct bpfwd_mon_val);
} bpfwd_mon SEC(".maps");

/* [0]: events lost because bpfwd_mon was full */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bpfwd_mon_val);
} bpfwd_mon_lost SEC(".maps");

static __always_inline void count(struct bpfwd_mon_key *k, __u64 packets,
				  __u64 processed)
{
	struct bpfwd_mon_val *v, zero = {};
	__u32 idx = 0;

	v = bpf_map_lookup_elem(&bpfwd_mon, k);
	if (!v) {
		bpf_map_update_elem(&bpfwd_mon, k, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&bpfwd_mon, k);
	}
	if (!v) {
		v = bpf_map_lookup_elem(&bpfwd_mon_lost, &idx);
		if (!v)
			return;
	}
	v->events++;
	v->packets += packets;
	v->processed += processed;
}

/* Events of other namespaces are not ours (ifindex values repeat).
 * tp_btf arguments are BTF pointers: plain loads, no probe_read, which
 * matters on the per-packet xdp_redirect.
 */
static __always_inline bool foreign(const struct net_device *dev)
{
	if (!netns_cookie)
		return false;
	if (!dev)
		return true;
	return dev->nd_net.net->net_cookie != netns_cookie;
}

/* xdp_redirect and friends: (dev, prog, tgt, err, map_type, map_id,
 * index).  tgt is a void pointer, which 6.1 does not let tp_btf programs
 * read at all: a devmap target is kept as map id and index, and user
 * space reads the ifindex out of the devmap.
 */
static __always_inline int xdp_redirect(__u32 event,
					const struct net_device *dev, int err,
					__u32 map_type, __u32 map_id,
					__u32 index)
{
	struct bpfwd_mon_key k = {
		.event = event,
		.action = 4,	/* XDP_REDIRECT */
		.err = err,
	};

	if (foreign(dev))
		return 0;
	k.ifindex = dev->ifindex;
	if (map_type == BPF_MAP_TYPE_UNSPEC && map_id == INT_MAX) {
		/* bpf_redirect(): index is the ifindex */
		k.kind = BPFWD_TGT_DEV;
		k.target = index;
	} else if (map_type == BPF_MAP_TYPE_CPUMAP) {
		k.kind = BPFWD_TGT_CPU;
		k.target = index;
		k.map_id = map_id;
	} else {
		/* devmap, xskmap; a broadcast has no index */
		k.kind = map_id ? BPFWD_TGT_INDEX : BPFWD_TGT_NONE;
		k.target = index;
		k.map_id = map_id;
	}
	count(&k, 1, 0);
	return 0;
}

SEC("tp_btf/xdp_redirect")
int BPF_PROG(mon_xdp_rd, const struct net_device *dev, const void *xdp,
	     const void *tgt, int err, int map_type, __u32 map_id, __u32 index)
{
	return xdp_redirect(BPFWD_EV_XDP_REDIRECT, dev, err, map_type, map_id,
			    index);
}

SEC("tp_btf/xdp_redirect_err")
int BPF_PROG(mon_xdp_rd_err, const struct net_device *dev, const void *xdp,
	     const void *tgt, int err, int map_type, __u32 map_id, __u32 index)
{
	return xdp_redirect(BPFWD_EV_XDP_REDIRECT_ERR, dev, err, map_type, map_id,
			    index);
}

/* Defined (never fired since 5.x) up to 6.15; attached where present. */
SEC("tp_btf/xdp_redirect_map")
int BPF_PROG(mon_xdp_map, const struct net_device *dev, const void *xdp,
	     const void *tgt, int err, int map_type, __u32 map_id, __u32 index)
{
	return xdp_redirect(BPFWD_EV_XDP_MAP, dev, err, map_type, map_id,
			    index);
}

SEC("tp_btf/xdp_redirect_map_err")
int BPF_PROG(mon_xdp_map_err, const struct net_device *dev, const void *xdp,
	     const void *tgt, int err, int map_type, __u32 map_id, __u32 index)
{
	return xdp_redirect(BPFWD_EV_XDP_MAP_ERR, dev, err, map_type, map_id,
			    index);
}

/* XDP_ABORTED, an unknown action, or XDP_TX/REDIRECT that could not go */
SEC("tp_btf/xdp_exception")
int BPF_PROG(mon_xdp_exc, const struct net_device *dev, const void *xdp,
	     __u32 act)
{
	struct bpfwd_mon_key k = {
		.event = BPFWD_EV_XDP_EXCEPTION,
		.action = act,
	};

	if (foreign(dev))
		return 0;
	k.ifindex = dev->ifindex;
	count(&k, 1, 0);
	return 0;
}

/* Bulk events: counted when they dropped something (or with `all`). */
static __always_inline int cpumap_event(__u32 event, int map_id,
					unsigned int processed,
					unsigned int drops, int cpu)
{
	struct bpfwd_mon_key k = {
		.event = event,
		.kind = BPFWD_TGT_CPU,
		.target = cpu,
		.action = 4,	/* XDP_REDIRECT */
		.map_id = map_id,
	};

	if (!drops && !count_all)
		return 0;
	count(&k, drops, processed);
	return 0;
}

/* The cpumap kthread of this CPU ran its queue */
SEC("tp_btf/xdp_cpumap_kthread")
int BPF_PROG(mon_cpu_kthr, int map_id, unsigned int processed,
	     unsigned int drops, int sched)
{
	return cpumap_event(BPFWD_EV_CPUMAP_KTHREAD, map_id, processed, drops,
			    bpf_get_smp_processor_id());
}

/* Frames queued to the cpumap entry of to_cpu */
SEC("tp_btf/xdp_cpumap_enqueue")
int BPF_PROG(mon_cpu_enq, int map_id, unsigned int processed,
	     unsigned int drops, int to_cpu)
{
	return cpumap_event(BPFWD_EV_CPUMAP_ENQUEUE, map_id, processed, drops,
			    to_cpu);
}

/* A bulk of frames handed to a target's ndo_xdp_xmit */
SEC("tp_btf/xdp_devmap_xmit")
int BPF_PROG(mon_devmap_xmit, const struct net_device *from,
	     const struct net_device *to, int sent, int drops, int err)
{
	struct bpfwd_mon_key k = {
		.event = BPFWD_EV_DEVMAP_XMIT,
		.kind = BPFWD_TGT_DEV,
		.action = 4,
		.err = err,
	};

	if (!drops && !err && !count_all)
		return 0;
	if (foreign(from))
		return 0;
	k.ifindex = from->ifindex;
	k.target = to->ifindex;
	count(&k, drops, sent);
	return 0;
}

static __always_inline int tc_event(__u32 event,
				    const struct net_device *dev,
				    int to_ifindex, __u32 flags, int err)
{
	struct bpfwd_mon_key k = {
		.event = event,
		.kind = BPFWD_TGT_DEV,
		.target = to_ifindex,
		.action = flags,
		.err = err,
	};

	if (foreign(dev))
		return 0;
	k.ifindex = dev->ifindex;
	count(&k, 1, 0);
	return 0;
}

/* bpfwd's kernel patch: (dev, to_ifindex, flags, err) */
SEC("tp_btf/tc_redirect_err")
int BPF_PROG(mon_tc_rd_err, const struct net_device *dev, int to_ifindex,
	     __u32 flags, int err)
{
	return tc_event(BPFWD_EV_TC_REDIRECT_ERR, dev, to_ifindex, flags, err);
}

SEC("tp_btf/tc_redirect")
int BPF_PROG(mon_tc_rd, const struct net_device *dev, int to_ifindex,
	     __u32 flags, int err)
{
	return tc_event(BPFWD_EV_TC_REDIRECT, dev, to_ifindex, flags, err);
}

static __always_inline bool in_redirect(__u64 loc)
{
	int i;

	for (i = 0; i < BPFWD_MON_RANGES; i++)
		if (loc >= rd_lo[i] && loc < rd_hi[i])
			return true;
	return false;
}

/* Stock kernels: tc redirect failures seen where the skb is freed, so
 * that a healthy redirect costs nothing.  Two shapes are recognised:
 *  - freed by skb_do_redirect() itself: the target ifindex does not
 *    exist (the kernel says -EINVAL; the cause is -ENODEV);
 *  - freed on a device that is down, after it was received on another
 *    one (skb_iif): a redirect (or mirred) to a down target, which the
 *    kernel reports as a success (NET_XMIT_CN).
 * The target of the first shape is gone; user space names the port's
 * configured target.
 */
SEC("tp_btf/kfree_skb")
int BPF_PROG(mon_kfree_skb, struct sk_buff *skb, void *location, int reason)
{
	struct bpfwd_mon_key k = {
		.event = BPFWD_EV_TC_REDIRECT_ERR,
		.flags = BPFWD_MON_F_KFREE | BPFWD_MON_F_DERIVED,
		.map_id = reason,
	};
	struct net_device *dev = skb->dev;
	int ifindex, iif;

	if (!dev)
		return 0;
	if (in_redirect((__u64)location)) {
		if (foreign(dev))
			return 0;
		k.ifindex = dev->ifindex;
		k.err = -ENODEV;
		count(&k, 1, 0);
		return 0;
	}
	if (dev->flags & IFF_UP)
		return 0;
	ifindex = dev->ifindex;
	iif = skb->skb_iif;
	if (!iif || iif == ifindex || foreign(dev))
		return 0;
	k.ifindex = iif;
	k.kind = BPFWD_TGT_DEV;
	k.target = ifindex;
	k.err = -ENETDOWN;
	count(&k, 1, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
