/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * XDP ports: loading xdp.o with the namespace's table, attaching its
 * programs through IFLA_XDP (so the kernel's reason reaches the
 * operator), the XDP-only maps (devmap slots, cpumap CPUs and their
 * lists, the flood group) and the checks that catch the usual XDP traps
 * before anything is changed: someone else's program on the device, no
 * native XDP, a target that cannot take XDP frames (a veth whose peer
 * has neither GRO nor an XDP program).  The programs take multi-buffer
 * frames (xdp.frags), so a jumbo MTU is the driver's to refuse, if it
 * must.
 */
#ifndef __BPFWD_XDP_ATTACH_H
#define __BPFWD_XDP_ATTACH_H

#include <stdbool.h>
#include <stdint.h>
#include "ports.h"

struct xdp;

#define XDP_QSIZE_DEFAULT	2048
#define XDP_QSIZE_MAX		16384	/* the kernel's limit */

/* The programs of xdp.o. */
enum xdp_prog {
	XP_NONE,
	XP_REDIRECT,		/* xdp_redirect: bpf_redirect() to the target */
	XP_DEVMAP,		/* xdp_devmap: through bpfwd_devmap */
	XP_CPUMAP,		/* xdp_cpumap: to a CPU of the port's list */
	XP_FLOOD,		/* xdp_flood: to every other flood port */
	XP_FLOOD_EGRESS,	/* flood_egress: devmap program of flood */
	XP_CPU_THEN,		/* xdp_cpu_then: cpumap program */
};

/* A copy of xdp.o loaded for one port of mode redirect or map: its
 * ingress ifindex, slot and target become load-time constants, so that
 * xdp_redirect and xdp_devmap skip the table lookup for its frames (the
 * entry stays for show and stats; a replace loads a new copy).
 */
struct xdp_fixed {
	uint32_t ifindex;
	uint32_t slot;
	uint32_t target;
};

/* Opens xdp.o with the table's directory as pin root and loads program
 * @prog, and @extra too (the cpumap or devmap program of a mode); with
 * @cpumap_id the kthread tracepoint program; with @fixed (may be NULL)
 * specialised for that port.
 */
int xdp_load(struct table *t, enum xdp_prog prog, enum xdp_prog extra,
	     uint32_t cpumap_id, const struct xdp_fixed *fixed,
	     struct xdp **skel);
int xdp_prog_fd(struct xdp *skel, enum xdp_prog prog);
void xdp_free(struct xdp *skel);

/* Checks on the ingress device: no program of someone else's, native
 * XDP when not @generic.  One message each.
 */
int xdp_check_in(int ifindex, const char *dev, bool generic);
/* The veth offload trap: a veth @ifindex whose peer sends with tx
 * checksum offload hands it CHECKSUM_PARTIAL skbs, whose unfinished
 * checksums an XDP frame does not carry (native), and TSO skbs larger
 * than the MTU, which an XDP redirect drops (generic, and native to a
 * target whose MTU they exceed): the TCP and UDP sent from there never
 * arrive.  Turning the offload off ends both (TSO needs it).  Refused
 * (-EOPNOTSUPP, one line with the fix) unless @fix; a peer that cannot
 * be inspected (its namespace not found) is a warning.  0 for any other
 * device.
 */
int xdp_check_offload(int ifindex, const char *dev, bool fix);
/* The VLAN trap of native XDP: a veth whose peer inserts VLAN tags on
 * transmit (a NIC with rx VLAN offload) holds a frame's tag outside
 * the frame, where XDP does not see it and which an XDP redirect does
 * not carry: the frame would leave untagged.  Generic XDP keeps the
 * skb and its tag.  Refused, one line with the fix, unless @fix and a
 * veth (fix-offload turns it off on the peer).
 */
int xdp_check_vlan(int ifindex, const char *dev, bool fix);
/* What fix-offload would turn off on @ifindex's veth peer now:
 * BPFWD_F_FIXED_OFFLOAD for tx checksumming, BPFWD_F_FIXED_TXVLAN for tx
 * VLAN insertion (only when not @generic); 0 for none or no veth.
 */
uint32_t xdp_offload_fixable(int ifindex, bool generic);
/* fix-offload: turns @what off on @ifindex's veth peer where it is on;
 * *@changed gets what it turned off, for xdp_unfix_offload().
 */
int xdp_fix_offload(int ifindex, const char *dev, uint32_t what,
		    uint32_t *changed);
void xdp_unfix_offload(int ifindex, uint32_t what);
/* Checks that @ifindex can take XDP frames redirected in native mode. */
int xdp_check_target(int ifindex, const char *dev);

/* Attaches @prog_fd; with @old_id, atomically in place of that program. */
int xdp_attach(int ifindex, const char *dev, int prog_fd, bool generic,
	       uint32_t old_id);
int xdp_detach(int ifindex, const char *dev, bool generic, uint32_t id);
/* The id of bpfwd's program on the device in that mode, or 0. */
uint32_t xdp_our_prog(int ifindex, bool generic);
/* Whether the attached program @id is the one loaded as @fd: the same
 * name, instructions (tag) and load-time constants (a copy specialised
 * for another target has the tag of the first: the constants are in
 * its .rodata map, read here).
 */
bool xdp_same_prog(uint32_t id, int fd);
/* The name of program @id (BPF_OBJ_NAME_LEN bytes) and the constants it
 * was specialised with (all 0: a table-driven copy).
 */
int xdp_prog_fixed(uint32_t id, char *name, struct xdp_fixed *fx);

/* Pinned XDP maps of a table: opened by name, -ENOENT when absent. */
int xdp_map_fd(struct table *t, const char *name);

int xdp_devmap_set(struct table *t, uint32_t slot, uint32_t ifindex);
/* The target in devmap slot @slot (0: empty). */
int xdp_devmap_get(struct table *t, uint32_t slot, uint32_t *ifindex);
/* Joins (with the devmap program @egress_fd) or leaves the flood ports. */
int xdp_flood_set(struct table *t, uint32_t ifindex, bool member,
		  uint32_t group, int egress_fd);
int xdp_flood_group(struct table *t, uint32_t ifindex, uint32_t *group);
/* Creates (or checks) the cpumap queues of @c, then writes the list. */
int xdp_cpus_set(struct table *t, uint32_t slot, uint32_t ifindex,
		 const struct bpfwd_cpus *c, int cpu_prog_fd);
int xdp_cpus_get(struct table *t, uint32_t slot, struct bpfwd_cpus *c);
/* Empties slot @slot's CPU list and drops the cpumap queues no cpumap
 * port but @skip_ifindex uses.
 */
void xdp_cpus_clear(struct table *t, uint32_t slot, uint32_t skip_ifindex);
/* Drops the cpumap queues no cpumap port but @skip_ifindex uses. */
void xdp_cpus_gc(struct table *t, uint32_t skip_ifindex);
/* The kthread tracepoint link: made with the first cpumap port. */
int xdp_kthread_ensure(struct table *t);

/* Removes the XDP pins when no XDP port but @skip_ifindex is left. */
void xdp_pins_gc(struct table *t, uint32_t skip_ifindex);

int parse_cpu_list(const char *s, struct bpfwd_cpus *c);
void format_cpu_list(const struct bpfwd_cpus *c, char *buf, size_t len);

#endif /* __BPFWD_XDP_ATTACH_H */
