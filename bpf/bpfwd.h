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
/* XDP maps (xdp.o), pinned by name in the namespace's own directory */
#define BPFWD_MAP_DEVMAP	"bpfwd_devmap"	/* mode map: slot -> target */
#define BPFWD_MAP_CPUMAP	"bpfwd_cpumap"	/* mode cpumap: cpu -> queue */
#define BPFWD_MAP_CPUS		"bpfwd_cpus"	/* mode cpumap: slot -> cpus */
#define BPFWD_MAP_CPUSTAT	"bpfwd_cpustat"	/* cpumap side, per CPU */
#define BPFWD_MAP_KTHREAD	"bpfwd_kthread"	/* cpumap kthreads, per CPU */
#define BPFWD_MAP_FLOOD		"bpfwd_flood"	/* mode flood: its ports */
#define BPFWD_MAP_GROUPS	"bpfwd_groups"	/* mode flood: port -> group */

#define BPFWD_MAX_PORTS		1024	/* entries in bpfwd_ports */
#define BPFWD_MAX_SLOTS		1024	/* slots in bpfwd_stats */
#define BPFWD_SLOT_UNMATCHED	0	/* frames passed to the stack */

/* bpfwd_port.mode: what the CLI configured; the program's section decides */
enum bpfwd_mode {
	BPFWD_MODE_REDIRECT	= 0,	/* bpf_redirect() */
	BPFWD_MODE_CLONE	= 1,	/* bpf_clone_redirect(), drop original */
	BPFWD_MODE_PEER		= 2,	/* bpf_redirect_peer() */
	BPFWD_MODE_NEIGH	= 3,	/* bpf_redirect_neigh() */
	BPFWD_MODE_MIRROR	= 4,	/* bpf_clone_redirect(), original goes on */
	BPFWD_MODE_MAP		= 5,	/* XDP: bpf_redirect_map(devmap, slot) */
	BPFWD_MODE_CPUMAP	= 6,	/* XDP: to a cpumap CPU, then target
					 * (0: pass to the stack there)
					 */
	BPFWD_MODE_FLOOD	= 7,	/* XDP: to every other flood port */
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
#define BPFWD_F_XDP_GENERIC	(1U << 3)	/* XDP attached in skb mode */
#define BPFWD_F_CPU_PASS	(1U << 4)	/* cpumap: skbs on the CPUs, then a
						 * tc redirect to target */
#define BPFWD_F_CPU_TCX		(1U << 5)	/* ... attached with tcx, not tc */
#define BPFWD_F_FIXED_OFFLOAD	(1U << 6)	/* fix-offload turned tx checksumming
						 * off on IN's veth peer: port del
						 * turns it back on */
#define BPFWD_F_FIXED_TXVLAN	(1U << 7)	/* ... and tx VLAN insertion
						 * (native) */
#define BPFWD_F_FIXED		(BPFWD_F_FIXED_OFFLOAD | BPFWD_F_FIXED_TXVLAN)

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
 * counts the frames the programs passed to the stack untouched: no table
 * entry, or (redirect_neigh) not IPv4/IPv6.
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

/* XDP: mode redirect uses bpf_redirect(target); mode map redirects
 * through bpfwd_devmap (DEVMAP, BPFWD_MAX_SLOTS entries of struct
 * bpf_devmap_val) at index port.slot, which holds the target.  Mode flood
 * broadcasts to every entry of bpfwd_flood (DEVMAP_HASH keyed by ifindex)
 * but the ingress port; each entry's devmap program lets a copy out only
 * when bpfwd_groups (HASH, ifindex -> __u32 group) has the same group
 * for the ingress and the egress port.
 */

/* Value of bpfwd_cpus (ARRAY keyed by port.slot): the CPUs a cpumap
 * port spreads its frames over (by a flow hash), and their queue size.
 * bpfwd_cpumap (CPUMAP keyed by CPU) holds the queues themselves.
 */
#define BPFWD_MAX_CPU_LIST	62
struct bpfwd_cpus {
	__u32 count;		/* entries in cpu[] */
	__u32 qsize;		/* cpumap queue size of these CPUs */
	__u32 cpu[BPFWD_MAX_CPU_LIST];
};

/* Value of bpfwd_cpustat (PERCPU_ARRAY keyed by port.slot): what the
 * cpumap program did on each remote CPU.
 */
struct bpfwd_cpustat {
	__u64 packets;		/* frames the cpumap program ran on */
	__u64 bytes;
	__u64 passed;		/* XDP_PASS: to the stack on that CPU */
	__u64 redirected;	/* sent on to the port's target */
	__u64 err_redirect;	/* the redirect helper refused (dropped) */
	__u64 no_cpu;		/* XDP side: no usable CPU in the list */
	__u64 __pad[2];
};

/* Value of bpfwd_kthread (PERCPU_ARRAY, key 0): the xdp_cpumap_kthread
 * tracepoint's figures for this namespace's bpfwd_cpumap, per CPU.
 */
struct bpfwd_kthread {
	__u64 processed;	/* frames the kthread dequeued */
	__u64 drops;		/* frames it dropped */
	__u64 sched;		/* times it yielded the CPU */
	__u64 runs;		/* tracepoint hits (bulk rounds) */
	__u64 __pad[4];
};

#ifndef __bpf__
_Static_assert(sizeof(struct bpfwd_cpus) == 256, "bpfwd_cpus abi");
_Static_assert(sizeof(struct bpfwd_cpustat) == 64, "bpfwd_cpustat abi");
_Static_assert(sizeof(struct bpfwd_kthread) == 64, "bpfwd_kthread abi");
_Static_assert(sizeof(struct bpfwd_port) == 32, "bpfwd_port abi");
_Static_assert(sizeof(struct bpfwd_stats) == 64, "bpfwd_stats abi");
#endif

/* ---- route: the routing fast path (route.o, bpfwd route) ----
 *
 * Maps pinned in <bpffs>/bpfwd/<netns cookie>/route/:
 *   bpfwd_rt_cfg    HASH ifindex -> struct bpfwd_route_cfg: the ingress
 *                   devices on the fast path, the source of truth
 *   bpfwd_rt_idx    ARRAY ifindex -> struct bpfwd_route_cfg: the same
 *                   entries for ifindex < BPFWD_RT_IDX_MAX, flagged
 *                   BPFWD_RT_F_ON, written by bpfwd after (and cleared
 *                   before) the hash's.  The programs read this one: an
 *                   array lookup a frame instead of a hash lookup
 *   bpfwd_rt_stats  PERCPU_ARRAY cfg.slot -> struct bpfwd_route_stats
 *   bpfwd_rt_dev    XDP: DEVMAP_HASH ifindex -> struct bpf_devmap_val,
 *                   the devices XDP may send to (the route devices)
 */
#define BPFWD_MAP_RT_CFG	"bpfwd_rt_cfg"
#define BPFWD_MAP_RT_STATS	"bpfwd_rt_stats"
#define BPFWD_MAP_RT_DEV	"bpfwd_rt_dev"
#define BPFWD_MAP_RT_IDX	"bpfwd_rt_idx"
#define BPFWD_RT_MAX_DEVS	256	/* route devices per namespace */
#define BPFWD_RT_IDX_MAX	4096	/* ifindexes bpfwd_rt_idx holds */

/* Why a frame went to the stack instead of the fast path. */
enum bpfwd_route_reason {
	BPFWD_RT_NOT_IP		= 0,	/* not IPv4/IPv6 (ARP, VLAN tag, ...) */
	BPFWD_RT_NOT_HOST	= 1,	/* not to the device's MAC */
	BPFWD_RT_MULTICAST	= 2,	/* broadcast or multicast */
	BPFWD_RT_OPTIONS	= 3,	/* IPv4 options, IPv6 ext. headers */
	BPFWD_RT_FRAGMENT	= 4,	/* IP fragment */
	BPFWD_RT_BAD_HEADER	= 5,	/* bad header: the kernel drops it */
	BPFWD_RT_TTL		= 6,	/* TTL / hop limit <= 1 */
	BPFWD_RT_MARTIAN	= 7,	/* martian or link-local address */
	BPFWD_RT_ICMP_ERROR	= 8,	/* ICMP error: ECMP hashes its inner
					 * header */
	BPFWD_RT_NOT_FWDED	= 9,	/* local destination, broadcast, no
					 * route */
	BPFWD_RT_BLACKHOLE	= 10,
	BPFWD_RT_UNREACHABLE	= 11,
	BPFWD_RT_PROHIBIT	= 12,
	BPFWD_RT_FWD_DISABLED	= 13,	/* forwarding off on the device */
	BPFWD_RT_FRAG_NEEDED	= 14,	/* too big for the egress MTU */
	BPFWD_RT_NO_NEIGH	= 15,	/* neighbour unresolved (XDP) */
	BPFWD_RT_UNSUPPORTED	= 16,	/* lightweight tunnel route */
	BPFWD_RT_SAME_DEV	= 17,	/* out where it came in: the kernel
					 * may send an ICMP redirect */
	BPFWD_RT_NO_DEVMAP	= 18,	/* XDP: egress not a route device */
	BPFWD_RT_RPF		= 19,	/* reverse path (rp_filter) fails */
	BPFWD_RT_ERROR		= 20,	/* bpf_fib_lookup() failed */
	__BPFWD_RT_MAX,
};
#define BPFWD_RT_REASONS	29	/* room in the counters */

/* bpfwd_route_cfg.flags */
#define BPFWD_RT_F_RPF_STRICT	(1U << 0)	/* rp_filter 1 */
#define BPFWD_RT_F_RPF_LOOSE	(1U << 1)	/* rp_filter 2 */
#define BPFWD_RT_F_OWN_CLSACT	(1U << 2)	/* bpfwd created the clsact */
#define BPFWD_RT_F_XDP_GENERIC	(1U << 3)	/* XDP in skb mode */
#define BPFWD_RT_F_NO_IP6	(1U << 4)	/* the kernel does not route IPv6
						 * from here (all.forwarding 0,
						 * disable_ipv6 1): pass it */
#define BPFWD_RT_F_ON		(1U << 31)	/* bpfwd_rt_idx: the entry is a
						 * route device's (0: none) */

/* Value of bpfwd_rt_cfg. */
struct bpfwd_route_cfg {
	__u32 slot;		/* index into bpfwd_rt_stats */
	__u32 flags;		/* BPFWD_RT_F_* */
	__u32 hook;		/* enum bpfwd_hook */
	__u32 prio;		/* tc priority, 0 when not tc */
	__u8 mac[6];		/* the device's MAC (XDP: "for us?") */
	__u8 __pad[2];
};

/* Value of bpfwd_rt_stats (per CPU): 256 bytes, four cache lines.  No
 * aligned(64): the kernel keeps per-CPU values 8-byte aligned whatever
 * the type says, and user space reads them into calloc()'d arrays.
 */
struct bpfwd_route_stats {
	__u64 forwarded;	/* frames sent on by the fast path */
	__u64 bytes;		/* their bytes */
	__u64 neigh;		/* tc: of those, by bpf_redirect_neigh() */
	__u64 passed[BPFWD_RT_REASONS];	/* to the stack, by reason */
};

#ifndef __bpf__
_Static_assert(sizeof(struct bpfwd_route_cfg) == 24, "bpfwd_route_cfg abi");
_Static_assert(sizeof(struct bpfwd_route_stats) == 256, "bpfwd_route_stats abi");
_Static_assert(__BPFWD_RT_MAX <= BPFWD_RT_REASONS, "route reasons");
#endif
/* ---- end route ---- */

/* ---- bridge: the fast path of an existing Linux bridge (bridge.o) ----
 *
 * Pinned by name under <bpffs>/bpfwd/<netns cookie>/bridge/.  The daemon
 * (`bpfwd daemon`) mirrors the kernel's bridge state into them; the
 * programs br_tc / br_xdp read them and write only bpfwd_br_fdb.seen,
 * bpfwd_br_seen and the counters.
 */
#define BPFWD_MAP_BR		"bpfwd_br"	  /* bridge ifindex -> bpfwd_br */
#define BPFWD_MAP_BR_PORTS	"bpfwd_br_ports"  /* port ifindex -> bpfwd_br_port */
#define BPFWD_MAP_BR_FDB	"bpfwd_br_fdb"	  /* fdb_key -> bpfwd_br_fdb */
#define BPFWD_MAP_BR_STATS	"bpfwd_br_stats"  /* bridge slot -> stats */
#define BPFWD_MAP_BR_SLOTS	"bpfwd_br_slots"  /* bridge slot -> bpfwd_br */
#define BPFWD_MAP_BR_SEEN	"bpfwd_br_seen"	  /* ring of fdb_keys seen */
#define BPFWD_MAP_BR_PSLOTS	"bpfwd_br_pslots" /* port slot -> bpfwd_br_port */
#define BPFWD_MAP_BR_VLAN	"bpfwd_br_vlan"	  /* vlan_key -> bpfwd_br_vlan */

#define BPFWD_BR_MAX_BRIDGES	64
#define BPFWD_BR_MAX_FDB	131072
#define BPFWD_BR_MAX_VLAN	65536
/* bpfwd_br_seen, a RINGBUF: each record is the struct bpfwd_br_fdb_key
 * of a source whose bpfwd_br_fdb.seen the fast path just moved on (at
 * most once a second a source) and whose kernel entry ages; the daemon
 * refreshes those, so its work follows the stations seen, not the size
 * of the mirror.  When the ring is full the stamp stays old and the next
 * frame from the source tries again.
 */
#define BPFWD_BR_SEEN_BYTES	(1U << 20)
/* A heartbeat older than this makes every program pass everything. */
#define BPFWD_BR_STALE_NS	3000000000ULL

/* bpfwd_br.flags */
#define BPFWD_BR_F_SYNC		(1U << 0)	/* the mirror matches the kernel */
#define BPFWD_BR_F_VLAN_FILTERING (1U << 1)	/* bridge vlan_filtering 1 */
#define BPFWD_BR_F_XDP_GENERIC	(1U << 2)	/* hook xdp in skb mode */
#define BPFWD_BR_F_FORCE	(1U << 3)	/* added over bridge filtering */
/* br_netfilter looks at bridged IPv4 / IPv6 (bridge-nf-call-iptables or
 * the bridge's nf_call_iptables, and ip6tables): even without rules it
 * drops bad headers and trims what follows the IP packet, so the fast
 * path does the same checks and the same trim
 */
#define BPFWD_BR_F_NF_IP4	(1U << 4)
#define BPFWD_BR_F_NF_IP6	(1U << 5)
/* bpfwd_br_vlan holds the VLANs of every port of this bridge (a kernel
 * without RTM_GETVLAN leaves it empty: a vlan_filtering bridge passes all)
 */
#define BPFWD_BR_F_VLAN_SYNC	(1U << 6)
#define BPFWD_BR_F_8021AD	(1U << 7)	/* vlan_protocol 802.1ad, else 802.1Q */
/* br_netfilter looks at tagged IP as well (bridge-nf-filter-vlan-tagged):
 * tagged frames pass to the bridge when NF_IP4/NF_IP6 is set too
 */
#define BPFWD_BR_F_NF_VLAN	(1U << 8)

/* Value of bpfwd_br (key: the bridge's ifindex, __u32), and of
 * bpfwd_br_slots (an ARRAY, key: its slot; all zero for a free slot),
 * the copy the programs read.
 */
struct bpfwd_br {
	__u64 heartbeat;	/* CLOCK_MONOTONIC ns of the daemon's last beat */
	__u64 mac;		/* the bridge's address, as fdb_key.mac */
	__u32 flags;		/* BPFWD_BR_F_* */
	__u32 hook;		/* enum bpfwd_hook of its ports */
	__u32 daemon;		/* pid of the daemon that keeps it, 0: none */
	__u32 slot;		/* its index in bpfwd_br_stats, 1.. */
};

/* bpfwd_br_port.flags: the bridge's port flags (IFLA_BRPORT_*) that the
 * rule reads, and how bpfwd attached to the port.
 */
#define BPFWD_BRP_LEARNING	(1U << 0)
#define BPFWD_BRP_UNICAST_FLOOD	(1U << 1)
#define BPFWD_BRP_ISOLATED	(1U << 2)
#define BPFWD_BRP_HAIRPIN	(1U << 3)
#define BPFWD_BRP_LOCKED	(1U << 4)
#define BPFWD_BRP_MAB		(1U << 5)
#define BPFWD_BRP_NEIGH_SUPPRESS (1U << 6)
#define BPFWD_BRP_PROXYARP	(1U << 7)	/* proxyarp or proxyarp_wifi */
#define BPFWD_BRP_BACKUP	(1U << 8)	/* has a backup port */
#define BPFWD_BRP_VLAN_TUNNEL	(1U << 9)	/* vlan_tunnel: tags map to tunnel ids */
/* the device keeps received VLAN tags outside the frame (rx-vlan-offload,
 * not a veth): XDP cannot see them, so br_xdp passes all it receives
 */
#define BPFWD_BRP_RX_VLAN_HW	(1U << 10)
#define BPFWD_BRP_SYNCED	(1U << 16)	/* the daemon filled it in */
#define BPFWD_BRP_XDP_TX	(1U << 17)	/* takes XDP frames (native) */
#define BPFWD_BRP_OWN_CLSACT	(1U << 18)	/* bpfwd created its clsact */
/* flags that make the port pass what it receives */
#define BPFWD_BRP_IN_PASS	(BPFWD_BRP_LOCKED | BPFWD_BRP_MAB | \
				 BPFWD_BRP_NEIGH_SUPPRESS | BPFWD_BRP_PROXYARP)

/* STP port states (linux/if_bridge.h BR_STATE_*) */
#define BPFWD_BR_STATE_LEARNING	2
#define BPFWD_BR_STATE_FORWARDING 3

/* Value of bpfwd_br_ports (key: the port's ifindex, __u32), and of
 * bpfwd_br_pslots (an ARRAY of BPFWD_MAX_PORTS + 1, key: the port's
 * @pslot; all zero for a free slot), the copy the programs read: the
 * program bpfwd attaches to a port has that port's slot as a load-time
 * constant, and the fdb entries carry their port's slot, so neither port
 * is a hash lookup.  A copy counts only when its @ifindex is the port's.
 */
struct bpfwd_br_port {
	__u32 bridge;		/* ifindex of its bridge */
	__u32 state;		/* STP state, BR_STATE_* */
	__u32 flags;		/* BPFWD_BRP_* */
	__u32 mtu;
	__u32 hook;		/* enum bpfwd_hook bpfwd attached with */
	__u32 slot;		/* its bridge's bpfwd_br.slot */
	__u32 ifindex;		/* the port's own */
	__u32 pslot;		/* its index in bpfwd_br_pslots, 1.. */
};

/* Key of bpfwd_br_fdb.  @mac holds the address in its first six bytes
 * in memory (the last two are zero), so programs and user space compare
 * it as one __u64; @vlan is 0 without vlan_filtering.
 */
struct bpfwd_br_fdb_key {
	__u32 bridge;		/* ifindex of the bridge */
	__u32 vlan;
	__u64 mac;
};

/* bpfwd_br_fdb.flags (from the kernel's NUD_ and NTF_ flags) */
#define BPFWD_FDB_LOCAL		(1U << 0)	/* the bridge's own (permanent) */
#define BPFWD_FDB_STATIC	(1U << 1)	/* NUD_NOARP: never ages */
#define BPFWD_FDB_EXT_LEARN	(1U << 2)	/* NTF_EXT_LEARNED */
#define BPFWD_FDB_STICKY	(1U << 3)	/* NTF_STICKY: never moves */
#define BPFWD_FDB_LOCKED	(1U << 4)	/* NTF_EXT_LOCKED */
/* entries the bridge never ages (the daemon does not refresh them) */
#define BPFWD_FDB_NO_AGE	(BPFWD_FDB_LOCAL | BPFWD_FDB_STATIC | \
				 BPFWD_FDB_EXT_LEARN)
/* entries the bridge never moves to the port a source shows up on */
#define BPFWD_FDB_NO_MOVE	(BPFWD_FDB_LOCAL | BPFWD_FDB_STICKY)

/* Value of bpfwd_br_fdb. */
struct bpfwd_br_fdb {
	__u32 port;		/* ifindex of the port; the bridge's for local */
	__u32 flags;		/* BPFWD_FDB_* */
	__u64 seen;		/* CLOCK_MONOTONIC ns the fast path last saw it
				 * as a source (0: never), from the coarse
				 * clock (up to a tick behind); the daemon
				 * refreshes the kernel's entry from it
				 */
	__u32 pslot;		/* the port's bpfwd_br_port.pslot (0: none:
				 * frames to it go through the bridge)
				 */
	__u32 __pad;
};

/* Indexes of bpfwd_br_stats.c[] (PERCPU_ARRAY indexed by the bridge's
 * slot, bpfwd_br.slot; slot 0 counts frames on ports no configured bridge
 * owns).  Each frame counts once: forwarded, or passed to the bridge
 * with one reason.
 */
enum bpfwd_br_counter {
	BPFWD_BRC_FORWARDED	= 0,	/* redirected port to port */
	BPFWD_BRC_BYTES		= 1,	/* bytes of those */
	BPFWD_BRC_NOT_PORT	= 2,	/* ingress is no configured bridge's port */
	BPFWD_BRC_STALE		= 3,	/* heartbeat old or mirror not in sync */
	BPFWD_BRC_VLAN		= 4,	/* a VLAN case left to the bridge: not
					 * on the port, no pvid, not forwarding,
					 * another TPID, vlan_tunnel, ... */
	BPFWD_BRC_LINK_LOCAL	= 5,	/* 01:80:c2:00:00:0x (STP, LACP, ...) */
	BPFWD_BRC_MULTICAST	= 6,	/* broadcast or multicast */
	BPFWD_BRC_PORT_STATE	= 7,	/* ingress not forwarding, or locked etc */
	BPFWD_BRC_UNKNOWN_SRC	= 8,	/* source not in the mirror */
	BPFWD_BRC_MOVED_SRC	= 9,	/* source known on another port */
	BPFWD_BRC_LOCAL		= 10,	/* for the bridge itself */
	BPFWD_BRC_UNKNOWN_DST	= 11,	/* destination not in the mirror */
	BPFWD_BRC_EGRESS	= 12,	/* egress not forwarding, not ours, ... */
	BPFWD_BRC_ISOLATION	= 13,	/* same port (hairpin) or isolated pair */
	BPFWD_BRC_MTU		= 14,	/* larger than the egress MTU */
	BPFWD_BRC_MALFORMED	= 15,	/* shorter than an Ethernet header, or
					 * an IP header br_netfilter drops */
	__BPFWD_BRC_MAX		= 16,
};

struct bpfwd_br_stats {
	__u64 c[__BPFWD_BRC_MAX];
};

/* Key of bpfwd_br_vlan (HASH): a port's VLAN, as `bridge vlan` shows it.
 * @vid 0 is the port's own entry: its pvid.  A VLAN not in the map is not
 * on the port (the bridge drops such frames; the programs pass them).
 */
struct bpfwd_br_vlan_key {
	__u32 port;		/* ifindex of the bridge port */
	__u32 vid;		/* 1..4094; 0: the port's entry */
};

/* bpfwd_br_vlan.flags */
#define BPFWD_BRV_UNTAGGED	(1U << 0)	/* egress untagged (pop the tag) */
#define BPFWD_BRV_PVID		(1U << 1)	/* the port's pvid */
#define BPFWD_BRV_TUNNEL	(1U << 2)	/* has a tunnel id (vlan_tunnel) */

/* Value of bpfwd_br_vlan. */
struct bpfwd_br_vlan {
	__u32 flags;		/* BPFWD_BRV_* */
	__u32 state;		/* the VLAN's STP state, BR_STATE_* (forwarding
				 * on kernels without per-VLAN state) */
	__u32 pvid;		/* vid 0 entry: the pvid, 0 for none */
	__u32 __pad;
};

#ifndef __bpf__
_Static_assert(sizeof(struct bpfwd_br) == 32, "bpfwd_br abi");
_Static_assert(sizeof(struct bpfwd_br_port) == 32, "bpfwd_br_port abi");
_Static_assert(sizeof(struct bpfwd_br_fdb_key) == 16, "bpfwd_br_fdb_key abi");
_Static_assert(sizeof(struct bpfwd_br_fdb) == 24, "bpfwd_br_fdb abi");
_Static_assert(sizeof(struct bpfwd_br_stats) == 128, "bpfwd_br_stats abi");
_Static_assert(sizeof(struct bpfwd_br_vlan_key) == 8, "bpfwd_br_vlan_key abi");
_Static_assert(sizeof(struct bpfwd_br_vlan) == 16, "bpfwd_br_vlan abi");
#endif
/* ---- end bridge ---- */

#endif /* __BPFWD_H */
