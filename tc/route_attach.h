/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * The one place where `bpfwd route` touches the hooks: the checks that
 * a device's hook is free and that XDP would see its VLAN tags, attach,
 * detach and "still attached?" for tc, tcx and XDP, over tc/lib's
 * attach and XDP functions.
 */
#ifndef __BPFWD_ROUTE_ATTACH_H
#define __BPFWD_ROUTE_ATTACH_H

#include <stdbool.h>
#include <stdint.h>

#define ROUTE_PRIO	1	/* tc filter priority of route_tc */

struct route_att {
	const char *dev;	/* for messages */
	uint32_t ifindex;
	uint32_t hook;		/* BPFWD_HOOK_TC, _TCX or _XDP */
	bool generic;		/* XDP in skb mode */
	const char *dir;	/* route pin directory (tcx links) */
};

/* Refuses (one message, -EBUSY) a hook that carries someone else's
 * program: a tc ingress filter, a tcx ingress program, an XDP program.
 */
int route_hook_free(const struct route_att *a);
/* Refuses (one message with the fix, -EOPNOTSUPP) hook xdp where VLAN
 * tags can reach the device outside the frame (its veth peer inserts
 * them on transmit, rx VLAN offload): XDP would route tagged frames as
 * untagged.  Also when that cannot be told (the peer's namespace is not
 * found).  Nothing to check on tc and tcx: they see the tag.
 */
int route_hook_sees_vlan(const struct route_att *a);
int route_attach(const struct route_att *a, int prog_fd, const char *name,
		 bool *own_clsact);
int route_detach(const struct route_att *a, bool own_clsact);
bool route_attached(const struct route_att *a);
/* The id of route_tc or route_xdp on @a's hook, or 0. */
uint32_t route_prog_id(const struct route_att *a);
bool route_has_tcx(void);

#endif /* __BPFWD_ROUTE_ATTACH_H */
