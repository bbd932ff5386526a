/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * The bridge fast path's state in bpffs, shared by `bpfwd bridge` and
 * `bpfwd daemon`:
 *
 *   <root>/bpfwd/<netns cookie>/bridge/
 *       bpfwd_br, bpfwd_br_ports, bpfwd_br_fdb, bpfwd_br_stats,
 *       bpfwd_br_slots, bpfwd_br_seen, bpfwd_br_pslots,
 *       bpfwd_br_vlan                                            maps
 *       prog_tc, prog_xdp                                       programs
 *       link_<ifindex>_ingress                                  tcx links
 *
 * A lock on the directory serialises the commands and the daemon.  The
 * attach and detach of a port go through bridge_attach() and
 * bridge_detach() only.
 */
#ifndef __BPFWD_BRMAPS_H
#define __BPFWD_BRMAPS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "../../bpf/bpfwd.h"

struct brmaps {
	int br_fd;		/* bpfwd_br */
	int ports_fd;		/* bpfwd_br_ports */
	int fdb_fd;		/* bpfwd_br_fdb */
	int stats_fd;		/* bpfwd_br_stats */
	int slots_fd;		/* bpfwd_br_slots */
	int seen_fd;		/* bpfwd_br_seen */
	int pslots_fd;		/* bpfwd_br_pslots */
	int vlan_fd;		/* bpfwd_br_vlan */
	int lock_fd;		/* the directory, flock()ed */
	char dir[PATH_MAX];
};

/* Opens the maps; with @create loads bridge.o to make and pin them (and
 * its programs) when missing.  -ENOENT without a message when there is
 * nothing and !create.
 */
int brmaps_open(struct brmaps *m, bool create);
void brmaps_close(struct brmaps *m);
/* Removes every pin when no bridge is configured any more. */
void brmaps_gc(struct brmaps *m);
int brmaps_lock(struct brmaps *m);
/* Whether the maps opened are still the pinned ones (the daemon removes
 * the pins when the last bridge goes; a command that opened them just
 * before opens them again).
 */
bool brmaps_pinned(struct brmaps *m);
void brmaps_unlock(struct brmaps *m);

int br_get(struct brmaps *m, uint32_t bridge, struct bpfwd_br *b);
int br_put(struct brmaps *m, uint32_t bridge, const struct bpfwd_br *b);
/* The configured bridges: returns how many, fills up to @max. */
int br_list(struct brmaps *m, uint32_t *bridges, int max);
int brport_get(struct brmaps *m, uint32_t ifindex, struct bpfwd_br_port *p);
int brport_put(struct brmaps *m, uint32_t ifindex,
	       const struct bpfwd_br_port *p);
/* Ports of @bridge (all bridges for 0): returns how many, fills @max. */
int brport_list(struct brmaps *m, uint32_t bridge, uint32_t *ifindex,
		struct bpfwd_br_port *p, int max);
/* A free bpfwd_br_pslots slot for a new port (1..), or -ENOSPC. */
int brport_slot_alloc(struct brmaps *m);
/* A copy of the tc (or XDP) program for the port of slot @pslot, on the
 * pinned maps: an fd, or -errno with a message.
 */
int brmaps_prog(struct brmaps *m, bool xdp, uint32_t pslot);
/* A free bpfwd_br_stats slot for a new bridge (1..), or -ENOSPC. */
int br_slot_alloc(struct brmaps *m);
/* Counters of @bridge (0: frames on no bridge's port) summed over CPUs;
 * they are found by its entry's slot, so reset before the entry goes.
 */
int brstats_read(struct brmaps *m, uint32_t bridge,
		 struct bpfwd_br_stats *s);
int brstats_reset(struct brmaps *m, uint32_t bridge);
/* Entries of the mirror for @bridge: returns how many (all of them),
 * fills up to @max (keys and values may be NULL to count).
 */
int brfdb_list(struct brmaps *m, uint32_t bridge,
	       struct bpfwd_br_fdb_key *k, struct bpfwd_br_fdb *v, int max);
/* The VLANs of @port in the mirror: returns how many, its pvid in @pvid
 * (0: none).
 */
int brvlan_count(struct brmaps *m, uint32_t port, uint32_t *pvid);
/* Drops the mirror entries of @bridge (of one port if @port). */
void brfdb_flush(struct brmaps *m, uint32_t bridge, uint32_t port);

uint64_t mac_key(const uint8_t mac[6]);
void mac_str(uint64_t key, char *buf);	/* 18 bytes */

/* Attaches the bridge's program (hook and mode from @b) to @ifindex and
 * writes its port entry first (not synced: the program passes until the
 * daemon fills it in).  Undoes both on failure.
 */
int bridge_attach(struct brmaps *m, uint32_t bridge,
		  const struct bpfwd_br *b, uint32_t ifindex);
/* Detaches from @ifindex and removes its entry. */
int bridge_detach(struct brmaps *m, uint32_t ifindex);
/* Whether the port's program is in place. */
bool bridge_attached(struct brmaps *m, uint32_t ifindex,
		     const struct bpfwd_br_port *p);
/* Checks before attaching: no bpfwd port, no program of anyone else on
 * the device's ingress (tc filters, tcx, XDP), XDP able when @b says
 * xdp.  One message, -errno.
 */
int bridge_port_check(uint32_t ifindex, const struct bpfwd_br *b);
/* For hook xdp in native mode: whether the port takes XDP frames (with
 * @quiet no message).
 */
bool bridge_xdp_target_ok(uint32_t ifindex, bool quiet);
/* For hook xdp: whether VLAN tags can reach the port outside the frame
 * (a device that cannot be asked counts as such: passing is safe), and
 * in @fix the command that changes it.
 */
bool bridge_vlan_blind(uint32_t ifindex, char *fix, size_t len);

/* In brattach.c, with everything that uses attach.h and xdp.h: */
const char *br_hook_name(uint32_t hook);
/* The hook works on this kernel; else one message and -EOPNOTSUPP. */
int bridge_hook_check(const char *br, uint32_t hook);

#endif /* __BPFWD_BRMAPS_H */
