/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Copyright (c) 2026 The bpfwd authors
 *
 * The ABI between monitor.bpf.c and `bpfwd monitor`: one per-CPU hash
 * of counters keyed by what happened (which event, on which device, to
 * which target, with which action and error).  User space sums the CPUs
 * and turns the keys into names; the BPF side never formats anything.
 */
#ifndef __BPFWD_MONITOR_H
#define __BPFWD_MONITOR_H

#include <linux/types.h>

#define BPFWD_MON_KEYS		4096	/* entries in bpfwd_mon */

/* bpfwd_mon_key.event: the signal that counted it */
enum bpfwd_mon_event {
	BPFWD_EV_XDP_REDIRECT	= 0,	/* xdp:xdp_redirect (all only) */
	BPFWD_EV_XDP_REDIRECT_ERR = 1,	/* xdp:xdp_redirect_err */
	BPFWD_EV_XDP_MAP	= 2,	/* xdp:xdp_redirect_map (< 6.16) */
	BPFWD_EV_XDP_MAP_ERR	= 3,	/* xdp:xdp_redirect_map_err (< 6.16) */
	BPFWD_EV_XDP_EXCEPTION	= 4,	/* xdp:xdp_exception */
	BPFWD_EV_CPUMAP_KTHREAD	= 5,	/* xdp:xdp_cpumap_kthread */
	BPFWD_EV_CPUMAP_ENQUEUE	= 6,	/* xdp:xdp_cpumap_enqueue */
	BPFWD_EV_DEVMAP_XMIT	= 7,	/* xdp:xdp_devmap_xmit */
	BPFWD_EV_TC_REDIRECT	= 8,	/* tc redirect handed over (all only) */
	BPFWD_EV_TC_REDIRECT_ERR = 9,	/* tc redirect failed */
	__BPFWD_EV_MAX,
};

/* bpfwd_mon_key.kind: what bpfwd_mon_key.target is */
enum bpfwd_mon_target {
	BPFWD_TGT_NONE		= 0,	/* no target (exception, broadcast) */
	BPFWD_TGT_DEV		= 1,	/* an ifindex */
	BPFWD_TGT_CPU		= 2,	/* a CPU (cpumap) */
	BPFWD_TGT_INDEX		= 3,	/* an index into map map_id (xskmap) */
};

/* bpfwd_mon_key.action for the tc events: the redirect flags, as the
 * kernel keeps them (BPF_F_INGRESS and filter.c's internal bits).
 */
#define BPFWD_TC_F_INGRESS	(1U << 0)
#define BPFWD_TC_F_NEIGH	(1U << 16)
#define BPFWD_TC_F_PEER		(1U << 17)
#define BPFWD_TC_F_CLONE	(1U << 19)

/* bpfwd_mon_key.flags */
#define BPFWD_MON_F_DERIVED	(1U << 0)	/* err derived (see below) */
#define BPFWD_MON_F_KFREE	(1U << 1)	/* tc event from skb:kfree_skb */

/* Key of bpfwd_mon.  err is 0 or a negative errno.  The tc events come
 * from tc:tc_redirect{,_err} where the kernel has them (bpfwd's patch),
 * else from skb:kfree_skb (BPFWD_MON_F_KFREE), where the error is
 * derived (BPFWD_MON_F_DERIVED) the way the patched kernel reports it:
 * -ENODEV for a target that does not exist, -ENETDOWN for one that is
 * down (the stock kernel calls that a success, NET_XMIT_CN).
 */
struct bpfwd_mon_key {
	__u32 event;		/* enum bpfwd_mon_event */
	__u32 ifindex;		/* device the frame came in on, 0: none */
	__u32 target;		/* see kind */
	__u32 kind;		/* enum bpfwd_mon_target */
	__u32 action;		/* XDP action, or tc redirect flags */
	__s32 err;		/* 0 or -errno */
	__u32 map_id;		/* devmap/cpumap/xskmap id, 0: none;
				 * BPFWD_MON_F_KFREE: the drop reason
				 */
	__u32 flags;		/* BPFWD_MON_F_* */
};

/* Value of bpfwd_mon, per CPU. */
struct bpfwd_mon_val {
	__u64 events;		/* times the signal fired */
	__u64 packets;		/* frames it concerned (drops for bulk events) */
	__u64 processed;	/* frames a bulk event handled (sent, processed) */
	__u64 pad[5];
};

#ifndef __bpf__
_Static_assert(sizeof(struct bpfwd_mon_key) == 32, "bpfwd_mon_key abi");
_Static_assert(sizeof(struct bpfwd_mon_val) == 64, "bpfwd_mon_val abi");
#endif

#endif /* __BPFWD_MONITOR_H */
