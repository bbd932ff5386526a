// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Hooks of `bpfwd route` (see route_attach.h): tc and tcx through
 * tc/lib/attach.h, XDP through xdp_attach()/xdp_detach(),
 * with XDP checks of its own (xdp_check_in() limits the MTU to a page,
 * which a multi-buffer program does not need) and a refusal where VLAN
 * tags reach a device outside the frame (netdev_vlan_blind_why()).
 * The route program's XDP id is found by name (route_xdp), as
 * xdp_our_prog() finds the port programs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "lib/attach.h"
#include "lib/netdev.h"
#include "lib/nl.h"
#include "lib/util.h"
#include "lib/xdp_attach.h"
#include "route_attach.h"

#define ROUTE_XDP_PROG	"route_xdp"
#define ROUTE_TC_PROG	"route_tc"

static void table_of(const struct route_att *a, struct table *t)
{
	memset(t, 0, sizeof(*t));
	t->ports_fd = t->stats_fd = -1;
	snprintf(t->dir, sizeof(t->dir), "%s", a->dir);
}

static int prog_name(uint32_t id, char *buf, size_t size)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	int fd = bpf_prog_get_fd_by_id(id), err;

	if (fd < 0)
		return -errno;
	err = bpf_obj_get_info_by_fd(fd, &info, &len) ? -errno : 0;
	close(fd);
	if (!err)
		snprintf(buf, size, "%s", info.name);
	return err;
}

static bool prog_named(uint32_t id, const char *want)
{
	char name[BPF_OBJ_NAME_LEN];

	return !prog_name(id, name, sizeof(name)) && !strcmp(name, want);
}

/* XDP's checks: no program there, native XDP when asked for.  No MTU
 * limit: route_xdp takes multi-buffer frames.
 */
static int xdp_hook_free(const struct route_att *a)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	char name[BPF_OBJ_NAME_LEN] = "?";
	uint64_t feat;
	uint32_t id;
	int err;

	err = bpf_xdp_query(a->ifindex, 0, &q);
	if (err) {
		p_err("%s: query XDP: %s", a->dev, strerror(-err));
		return err;
	}
	id = q.drv_prog_id ?: q.skb_prog_id ?: q.hw_prog_id ?: q.prog_id;
	if (id) {
		const char *how = q.drv_prog_id ? "xdp" :
				  q.skb_prog_id ? "xdpgeneric" : "xdpoffload";

		prog_name(id, name, sizeof(name));
		p_err("%s: already has an XDP program that is not bpfwd route's (%s, id %u, %s); remove it first (ip link set dev %s %s off) or use another device",
		      a->dev, name, id, how, a->dev, how);
		return -EBUSY;
	}
	if (!a->generic && !netdev_xdp_features(a->ifindex, &feat) &&
	    !(feat & BPFWD_XDP_ACT_BASIC)) {
		p_err("%s: the driver has no native XDP; use xdp-mode generic",
		      a->dev);
		return -EOPNOTSUPP;
	}
	return 0;
}

int route_hook_sees_vlan(const struct route_att *a)
{
	char why[64], fix[96];
	bool blind;
	int err;

	if (a->hook != BPFWD_HOOK_XDP)
		return 0;
	err = netdev_vlan_blind_why(a->ifindex, why, sizeof(why), fix,
				    sizeof(fix), &blind);
	if (err == -ENOENT) {
		p_err("%s: cannot tell whether VLAN tags reach it outside the frame, where XDP does not see them: its veth peer is in a namespace bpfwd cannot find (not named in /run/netns, held by no process); name it (ip netns attach NAME PID) or use hook tc",
		      a->dev);
		return err;
	}
	if (err) {
		p_err("%s: cannot tell whether VLAN tags reach it outside the frame, where XDP does not see them: %s; use hook tc",
		      a->dev, strerror(-err));
		return err;
	}
	if (!blind)
		return 0;
	p_err("%s: VLAN tags reach it outside the frame (%s), where XDP does not see them: tagged frames would be routed as untagged; turn that off (%s) or use hook tc",
	      a->dev, why, fix);
	return -EOPNOTSUPP;
}

/* The id of route_xdp on the device in that mode, or 0. */
static uint32_t route_xdp_id(const struct route_att *a)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	uint32_t id;

	if (bpf_xdp_query(a->ifindex, 0, &q))
		return 0;
	id = a->generic ? q.skb_prog_id : q.drv_prog_id;
	return id && prog_named(id, ROUTE_XDP_PROG) ? id : 0;
}

int route_hook_free(const struct route_att *a)
{
	struct tc_filter_info f[1];
	uint32_t ids[1] = { 0 }, cnt = 1;
	int n;

	switch (a->hook) {
	case BPFWD_HOOK_TC:
		n = nl_filter_list(a->ifindex, false, f, 1);
		if (n <= 0)
			return 0;
		p_err("%s: ingress already has a tc filter (%s%s%s prio %u) that is not bpfwd route's; remove it (tc filter del dev %s ingress prio %u) or use another device",
		      a->dev, f[0].kind, f[0].name[0] ? " " : "", f[0].name,
		      f[0].prio, a->dev, f[0].prio);
		return -EBUSY;
	case BPFWD_HOOK_TCX:
		if (bpf_prog_query(a->ifindex, BPF_TCX_INGRESS, 0, NULL, ids,
				   &cnt) || !cnt)
			return 0;
		p_err("%s: tcx ingress already runs %u program(s) (id %u) that are not bpfwd route's; detach them or use another device",
		      a->dev, cnt, ids[0]);
		return -EBUSY;
	case BPFWD_HOOK_XDP:
		return xdp_hook_free(a);
	}
	return 0;
}

int route_attach(const struct route_att *a, int prog_fd, const char *name,
		 bool *own_clsact)
{
	struct attach_req r = {
		.ifindex = a->ifindex, .dev = a->dev, .prio = ROUTE_PRIO,
		.prog_fd = prog_fd, .prog_name = name,
	};
	struct table t;
	int err;

	*own_clsact = false;
	switch (a->hook) {
	case BPFWD_HOOK_XDP:
		return xdp_attach(a->ifindex, a->dev, prog_fd, a->generic, 0);
	case BPFWD_HOOK_TCX:
		table_of(a, &t);
		r.t = &t;
		return tcx_attach(&r);
	}
	err = tc_filter_attach(&r);
	*own_clsact = r.own_clsact;
	return err;
}

int route_detach(const struct route_att *a, bool own_clsact)
{
	struct table t;

	switch (a->hook) {
	case BPFWD_HOOK_XDP:
		return xdp_detach(a->ifindex, a->dev, a->generic,
				  route_xdp_id(a));
	case BPFWD_HOOK_TCX:
		table_of(a, &t);
		return tcx_detach(&t, a->ifindex, a->dev, false);
	}
	return tc_filter_detach(a->ifindex, a->dev, false, ROUTE_PRIO,
				own_clsact);
}

bool route_attached(const struct route_att *a)
{
	struct table t;

	switch (a->hook) {
	case BPFWD_HOOK_XDP:
		return route_xdp_id(a);
	case BPFWD_HOOK_TCX:
		table_of(a, &t);
		return tcx_attached(&t, a->ifindex, false);
	}
	return tc_filter_attached(a->ifindex, false, ROUTE_PRIO);
}

uint32_t route_prog_id(const struct route_att *a)
{
	struct tc_filter_info f[4];
	uint32_t ids[1] = { 0 }, cnt = 1;
	int n, i;

	switch (a->hook) {
	case BPFWD_HOOK_XDP:
		return route_xdp_id(a);
	case BPFWD_HOOK_TCX:
		if (bpf_prog_query(a->ifindex, BPF_TCX_INGRESS, 0, NULL, ids,
				   &cnt) || !cnt)
			return 0;
		return prog_named(ids[0], ROUTE_TC_PROG) ? ids[0] : 0;
	}
	n = nl_filter_list(a->ifindex, false, f, ARRAY_SIZE(f));
	for (i = 0; i < n && i < (int)ARRAY_SIZE(f); i++)
		if (f[i].prio == ROUTE_PRIO &&
		    prog_named(f[i].prog_id, ROUTE_TC_PROG))
			return f[i].prog_id;
	return 0;
}

bool route_has_tcx(void)
{
	return kernel_has_tcx();
}
