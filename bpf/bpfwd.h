/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Copyright (c) 2026 The bpfwd authors
 *
 * The ABI between the BPF programs and user space: map names, keys,
 * values and constants.  Operators who drive the tables with bpftool
 * read this file (README.md, "Table layout"), so every struct here is
 * made of __u32/__u64 only, padded explicitly and pinned in size.
 */
#ifndef __BPFWD_H
#define __BPFWD_H

#include <linux/types.h>

/* Maps pinned by name.  Stock tc pins them under <bpffs>/tc/globals/,
 * bpfwd under <bpffs>/bpfwd/<netns cookie>/ (one table per namespace).
 */
#define BPFWD_MAP_PORTS		"bpfwd_ports"
#define BPFWD_MAP_STATS		"bpfwd_stats"

#define BPFWD_MAX_PORTS		1024	/* entries in bpfwd_ports */
#define BPFWD_MAX_SLOTS		1024	/* slots in bpfwd_stats */
#define BPFWD_SLOT_UNMATCHED	0	/* frames with no table entry */

/* bpfwd_port.mode: what the CLI configured; the program's section decides */
enum bpfwd_mode {
	BPFWD_MODE_REDIRECT	= 0,	/* bpf_redirect() */
	BPFWD_MODE_CLONE	= 1,	/* bpf_clone_redirect(), drop original */
	BPFWD_MODE_PEER		= 2,	/* bpf_redirect_peer() */
	BPFWD_MODE_NEIGH	= 3,	/* bpf_redirect_neigh() */
	__BPFWD_MODE_MAX,
};

/* bpfwd_port.hook: where bpfwd attached the program (informational) */
enum bpfwd_hook {
	BPFWD_HOOK_NONE		= 0,	/* table entry only (stock tc loads) */
	BPFWD_HOOK_TC		= 1,	/* clsact + cls_bpf direct-action */
	BPFWD_HOOK_TCX		= 2,	/* tcx bpf_link */
	BPFWD_HOOK_ACT		= 3,	/* u32 + act_bpf */
	BPFWD_HOOK_XDP		= 4,	/* XDP (later) */
	__BPFWD_HOOK_MAX,
};

/* bpfwd_port.flags */
#define BPFWD_F_INGRESS		(1U << 0)	/* to the target's ingress */
#define BPFWD_F_AT_EGRESS	(1U << 1)	/* attached at IN's egress */
#define BPFWD_F_OWN_CLSACT	(1U << 2)	/* bpfwd created IN's clsact */

/* Key of bpfwd_ports: the ingress port's ifindex (__u32). */

/* Value of bpfwd_ports. */
struct bpfwd_port {
	__u32 target;		/* ifindex frames go to */
	__u32 flags;		/* BPFWD_F_* */
	__u32 mode;		/* enum bpfwd_mode */
	__u32 hook;		/* enum bpfwd_hook */
	__u32 slot;		/* index into bpfwd_stats, 1..MAX_SLOTS-1 */
	__u32 prio;		/* tc priority, 0 when not tc */
	__u64 netns;		/* netns cookie of the namespace that owns it */
};

/* Value of bpfwd_stats (per CPU, indexed by bpfwd_port.slot).  Slot 0
 * counts frames that found no table entry (passed to the stack).
 */
struct bpfwd_stats {
	__u64 packets;		/* frames forwarded (slot 0: passed) */
	__u64 bytes;		/* their bytes */
	__u64 dropped;		/* originals dropped after a clone */
	__u64 err_clone;	/* bpf_clone_redirect() failed */
	__u64 err_redirect;	/* a redirect helper refused (TC_ACT_SHOT) */
	__u64 no_target;	/* entry without target: passed */
	__u64 runt;		/* frames shorter than ETH_ZLEN (still handled) */
	__u64 vlan;		/* 802.1Q/802.1ad tagged frames (still handled) */
};

#ifndef __bpf__
_Static_assert(sizeof(struct bpfwd_port) == 32, "bpfwd_port abi");
_Static_assert(sizeof(struct bpfwd_stats) == 64, "bpfwd_stats abi");
#endif

#endif /* __BPFWD_H */
