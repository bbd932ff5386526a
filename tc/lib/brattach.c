// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Attaching the bridge fast path to a port: the one place that calls the
 * tc, tcx and XDP attach machinery (attach.h, xdp_attach.h) for bridges,
 * and the checks that come before it.
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "attach.h"
#include "brmaps.h"
#include "netdev.h"
#include "nl.h"
#include "ports.h"
#include "util.h"
#include "xdp_attach.h"

#define BR_TC_PRIO	1
#define BR_PROG_NAME	"br_tc"
#define BR_XDP_NAME	"br_xdp"

const char *br_hook_name(uint32_t hook)
{
	switch (hook) {
	case BPFWD_HOOK_TC:
		return "tc";
	case BPFWD_HOOK_TCX:
		return "tcx";
	case BPFWD_HOOK_XDP:
		return "xdp";
	}
	return "?";
}

int bridge_hook_check(const char *br, uint32_t hook)
{
	if (hook == BPFWD_HOOK_TCX && !kernel_has_tcx()) {
		p_err("%s: this kernel has no tcx (needs Linux 6.6 or later); use hook tc",
		      br);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* attach.h keeps tcx links under a table's directory: ours */
static void fake_table(struct brmaps *m, struct table *t)
{
	memset(t, 0, sizeof(*t));
	t->ports_fd = t->stats_fd = -1;
	snprintf(t->dir, sizeof(t->dir), "%s", m->dir);
}

/* The id of our XDP program on @ifindex in that mode, or 0. */
static uint32_t our_xdp(uint32_t ifindex, bool generic)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info), id;
	int fd;

	if (bpf_xdp_query(ifindex, 0, &q))
		return 0;
	id = generic ? q.skb_prog_id : q.drv_prog_id;
	fd = id ? bpf_prog_get_fd_by_id(id) : -1;
	if (fd < 0)
		return 0;
	if (bpf_obj_get_info_by_fd(fd, &info, &len) ||
	    strcmp(info.name, BR_XDP_NAME))
		id = 0;
	close(fd);
	return id;
}

bool bridge_xdp_target_ok(uint32_t ifindex, bool quiet)
{
	char dev[IF_NAMESIZE];

	(void)quiet;
	return !xdp_check_target(ifindex, ifname_of(ifindex, dev));
}

int bridge_port_check(uint32_t ifindex, const struct bpfwd_br *b)
{
	struct tc_filter_info f[4];
	struct bpfwd_port p;
	struct table t;
	char dev[IF_NAMESIZE];
	__u32 cnt = 0;
	bool stock;
	int n;

	ifname_of(ifindex, dev);
	for (stock = false; ; stock = true) {
		if (!table_open_read(&t, stock)) {
			n = port_get(&t, ifindex, &p);
			table_close(&t);
			if (!n) {
				p_err("%s: already a bpfwd port (%s table); remove it first: bpfwd port del dev %s",
				      dev, stock ? "the stock" : "this namespace's", dev);
				return -EBUSY;
			}
		}
		if (stock)
			break;
	}
	n = nl_filter_list(ifindex, false, f, ARRAY_SIZE(f));
	if (n > 0) {
		p_err("%s: has a tc ingress filter that is not bpfwd's (%s, prio %u); the fast path would run beside it: remove it first (tc filter del dev %s ingress)",
		      dev, f[0].kind, f[0].prio, dev);
		return -EBUSY;
	}
	if (b->hook != BPFWD_HOOK_TC && kernel_has_tcx() &&
	    !bpf_prog_query(ifindex, BPF_TCX_INGRESS, 0, NULL, NULL, &cnt) &&
	    cnt) {
		p_err("%s: has a tcx ingress program that is not bpfwd's; the fast path would bypass it: remove it first",
		      dev);
		return -EBUSY;
	}
	if (b->hook != BPFWD_HOOK_XDP)
		return 0;
	if (xdp_check_in(ifindex, dev, b->flags & BPFWD_BR_F_XDP_GENERIC))
		return -EBUSY;
	/* native XDP redirects to the port: it must take XDP frames */
	if (!(b->flags & BPFWD_BR_F_XDP_GENERIC) &&
	    !bridge_xdp_target_ok(ifindex, false))
		return -EOPNOTSUPP;
	return 0;
}

/* Attaches a copy of the program of its own, the port's slot in it. */
static int attach_one(struct brmaps *m, const struct bpfwd_br *b,
		      const struct bpfwd_br_port *p, const char *dev,
		      bool *own_clsact)
{
	bool generic = b->flags & BPFWD_BR_F_XDP_GENERIC;
	bool xdp = b->hook == BPFWD_HOOK_XDP;
	uint32_t ifindex = p->ifindex;
	struct attach_req r = { 0 };
	struct table t;
	int fd = brmaps_prog(m, xdp, p->pslot), err;

	if (fd < 0)
		return fd;
	if (xdp) {
		err = xdp_attach(ifindex, dev, fd, generic, 0);
	} else {
		fake_table(m, &t);
		r.t = &t;
		r.ifindex = ifindex;
		r.dev = dev;
		r.prio = BR_TC_PRIO;
		r.prog_fd = fd;
		r.prog_name = BR_PROG_NAME;
		err = b->hook == BPFWD_HOOK_TCX ? tcx_attach(&r) :
						  tc_filter_attach(&r);
		*own_clsact = r.own_clsact;
	}
	close(fd);
	return err;
}

bool bridge_vlan_blind(uint32_t ifindex, char *fix, size_t len)
{
	bool blind = false;

	return netdev_vlan_blind(ifindex, fix, len, &blind) || blind;
}

int bridge_attach(struct brmaps *m, uint32_t bridge,
		  const struct bpfwd_br *b, uint32_t ifindex)
{
	struct bpfwd_br_port p = { .bridge = bridge, .hook = b->hook,
				   .slot = b->slot, .ifindex = ifindex };
	bool own = false;
	char dev[IF_NAMESIZE], fix[96];
	int err;

	ifname_of(ifindex, dev);
	err = brport_slot_alloc(m);
	if (err < 0) {
		p_err("%s: no free port slot (%d ports at most)", dev,
		      BPFWD_MAX_PORTS);
		return err;
	}
	p.pslot = err;
	if (b->hook == BPFWD_HOOK_XDP &&
	    ((b->flags & BPFWD_BR_F_XDP_GENERIC) ||
	     bridge_xdp_target_ok(ifindex, false)))
		p.flags |= BPFWD_BRP_XDP_TX;
	/* a tag outside the frame would be lost or ignored: the bridge
	 * takes all of such a port's frames (see netdev_vlan_blind())
	 */
	if (b->hook == BPFWD_HOOK_XDP &&
	    bridge_vlan_blind(ifindex, fix, sizeof(fix))) {
		p.flags |= BPFWD_BRP_RX_VLAN_HW;
		pr_warn("warning: %s: VLAN tags can reach it outside the frame, where XDP does not see them: its frames go through the bridge (%s)",
			dev, fix);
	}
	/* the entry first: the program passes (stale) until it is synced */
	err = brport_put(m, ifindex, &p);
	if (err) {
		p_err("%s: write port entry: %s", dev, strerror(-err));
		return err;
	}
	err = attach_one(m, b, &p, dev, &own);
	if (err) {
		brport_put(m, ifindex, NULL);
		return err;
	}
	if (own) {
		p.flags |= BPFWD_BRP_OWN_CLSACT;
		brport_put(m, ifindex, &p);
	}
	return 0;
}

int bridge_detach(struct brmaps *m, uint32_t ifindex)
{
	struct bpfwd_br_port p;
	struct bpfwd_br b = { 0 };
	char dev[IF_NAMESIZE];
	struct table t;
	int err = 0;

	if (brport_get(m, ifindex, &p))
		return 0;
	ifname_of(ifindex, dev);
	br_get(m, p.bridge, &b);
	if (p.hook == BPFWD_HOOK_XDP) {
		bool generic = b.flags & BPFWD_BR_F_XDP_GENERIC;

		err = xdp_detach(ifindex, dev, generic, our_xdp(ifindex, generic));
	} else if (p.hook == BPFWD_HOOK_TCX) {
		fake_table(m, &t);
		err = tcx_detach(&t, ifindex, dev, false);
	} else {
		err = tc_filter_detach(ifindex, dev, false, BR_TC_PRIO,
				       p.flags & BPFWD_BRP_OWN_CLSACT);
	}
	if (!err)
		brport_put(m, ifindex, NULL);
	return err;
}

bool bridge_attached(struct brmaps *m, uint32_t ifindex,
		     const struct bpfwd_br_port *p)
{
	struct bpfwd_br b = { 0 };
	struct table t;

	if (p->hook == BPFWD_HOOK_XDP) {
		br_get(m, p->bridge, &b);
		return our_xdp(ifindex, b.flags & BPFWD_BR_F_XDP_GENERIC);
	}
	if (p->hook == BPFWD_HOOK_TCX) {
		fake_table(m, &t);
		return tcx_attached(&t, ifindex, false);
	}
	return tc_filter_attached(ifindex, false, BR_TC_PRIO);
}
