// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd route: puts the routing fast path (route.o) on ingress
 * devices of a Linux router.  The kernel stays in charge: its routes,
 * rules, neighbours and sysctls decide, and what the fast path does not
 * forward exactly as the kernel would goes to the kernel.
 *
 *   route add dev DEV [dev DEV ...] [hook tc|tcx|xdp]
 *             [xdp-mode native|generic] [force]
 *   route del dev DEV [dev DEV ...]
 *   route show [dev DEV ...]
 *
 * add is all or nothing: every check (devices, netfilter, the hooks,
 * VLAN tags that XDP would not see) runs before anything changes, and a
 * failure undoes what the command did.  Adding a device again with the
 * same hook refreshes what bpfwd read from the kernel (sysctls, MAC
 * address, whether XDP sees its VLAN tags) and re-attaches a program
 * that went missing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <bpf/bpf.h>

#include "lib/json.h"
#include "lib/netdev.h"
#include "lib/netfilter.h"
#include "lib/params.h"
#include "lib/util.h"
#include "objects.h"
#include "route.h"
#include "route_attach.h"
#include "route_maps.h"
#include "route_show.h"

#define MAX_ARGS	32

struct dev_list {
	const char *name[MAX_ARGS];
	int n;
};

struct route_args {
	struct dev_list devs;
	uint32_t hook;
	uint32_t xdp_mode;
	bool force;
};

static const char *const hook_words[] = {
	[BPFWD_HOOK_TC] = "tc", [BPFWD_HOOK_TCX] = "tcx",
	[BPFWD_HOOK_XDP] = "xdp",
};
static const char *const xdp_modes[] = { "native", "generic" };

static int parse_dev(const struct kw *k, const char *arg, void *dst)
{
	struct dev_list *l = dst;
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->name[i], arg))
			return usage_err("dev %s: given twice", arg);
	if (l->n >= MAX_ARGS)
		return usage_err("at most %d devices in one command", MAX_ARGS);
	l->name[l->n++] = arg;
	return 0;
}

static const struct kw add_kws[] = {
	KW_FN("dev", struct route_args, devs, parse_dev, "DEV",
	      KW_REQUIRED | KW_MULTI, "a device whose ingress is routed (repeat for more)"),
	KW_ENUM("hook", struct route_args, hook, hook_words, NULL, "HOOK", 0,
		"tc, tcx (the default where the kernel has it) or xdp"),
	KW_ENUM("xdp-mode", struct route_args, xdp_mode, xdp_modes, "XDP mode",
		"MODE", 0, "native (default) or generic"),
	KW_FLAG("force", struct route_args, force, 0,
		"even when netfilter would be bypassed"),
	KW_END
};

static const struct kw del_kws[] = {
	KW_FN("dev", struct route_args, devs, parse_dev, "DEV",
	      KW_REQUIRED | KW_MULTI, "a route device (repeat for more)"),
	KW_END
};

static const struct kw show_kws[] = {
	KW_FN("dev", struct route_args, devs, parse_dev, "DEV", KW_MULTI,
	      "only this device (repeat for more)"),
	KW_END
};

int route_help(int argc, char **argv)
{
	size_t len = 0;
	char *buf = NULL;
	FILE *m;

	printf("Usage: bpfwd route add ");
	kw_usage(stdout, add_kws, 23);
	printf("       bpfwd route del ");
	kw_usage(stdout, del_kws, 23);
	printf("       bpfwd route show ");
	kw_usage(stdout, show_kws, 24);
	printf("       bpfwd route help\n");
	/* "where  HOOK := ...": the enum lines, the first one labelled */
	m = open_memstream(&buf, &len);
	if (!m)
		return BPFWD_EXIT_FAIL;
	kw_usage_enums(m, add_kws, 7);
	fclose(m);
	if (len > 5)
		memcpy(buf, "where", 5);
	fputs(buf, stdout);
	free(buf);
	printf("       dev repeats: route add dev eth0 dev eth1 ...\n");
	return BPFWD_EXIT_OK;
}

static int resolve(const struct dev_list *l, uint32_t *idx)
{
	int i, n;

	for (i = 0; i < l->n; i++) {
		n = ifindex_of(l->name[i], NULL);
		if (n < 0)
			return n;
		idx[i] = n;
	}
	return 0;
}

/* A sysctl of the current namespace under /proc/sys/net, or -1. */
static int net_sysctl(const char *path, const char *dev)
{
	char file[256];
	FILE *f;
	int v = -1;

	snprintf(file, sizeof(file), "/proc/sys/net/%s", path);
	if (dev) {
		char tmp[256];

		snprintf(tmp, sizeof(tmp), file, dev);
		snprintf(file, sizeof(file), "%s", tmp);
	}
	f = fopen(file, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* What the program must know of the kernel's switches for @dev, with
 * a warning for each that keeps the kernel from routing from it.
 */
static uint32_t dev_flags(const char *dev)
{
	int rpf = net_sysctl("ipv4/conf/all/rp_filter", NULL);
	int dev_rpf = net_sysctl("ipv4/conf/%s/rp_filter", dev);
	int dis6 = net_sysctl("ipv6/conf/%s/disable_ipv6", dev);
	int all6 = net_sysctl("ipv6/conf/all/forwarding", NULL);
	int force6 = net_sysctl("ipv6/conf/%s/force_forwarding", dev);
	int f6 = net_sysctl("ipv6/conf/%s/forwarding", dev);
	uint32_t flags = 0;

	if (net_sysctl("ipv4/conf/%s/forwarding", dev) == 0)
		pr_warn("%s: IPv4 forwarding is off (net.ipv4.conf.%s.forwarding = 0): the kernel routes no IPv4 from here, and the fast path passes it all to the stack",
			dev, dev);
	if (dev_rpf > rpf)
		rpf = dev_rpf;
	if (rpf == 1)
		flags |= BPFWD_RT_F_RPF_STRICT;
	else if (rpf == 2)
		flags |= BPFWD_RT_F_RPF_LOOSE;
	if (dis6 != 0 || (all6 != 1 && force6 != 1))
		flags |= BPFWD_RT_F_NO_IP6;
	if (dis6 == 0 && (all6 == 0 || f6 == 0) && force6 != 1)
		pr_warn("%s: IPv6 forwarding is off (net.ipv6.conf.%s.forwarding = %d): the kernel routes no IPv6 from here, and the fast path passes it all to the stack",
			dev, all6 == 0 ? "all" : dev, all6 == 0 ? all6 : f6);
	return flags;
}

/* Refuses (or with force, warns) when netfilter would be bypassed. */
static int nf_check(bool force)
{
	struct nf_found nf;
	char what[512];

	nf_detect(&nf);
	if (!nf.n)
		return 0;
	nf_describe(&nf, what, sizeof(what));
	if (force) {
		pr_warn("netfilter in use here (%s): forwarded traffic on the fast path bypasses the FORWARD hooks, conntrack and NAT",
			what);
		return 0;
	}
	p_err("refused: netfilter in use here (%s): forwarded traffic on the fast path would bypass the FORWARD hooks, conntrack and NAT; remove them, or add force",
	      what);
	return -EBUSY;
}

static void att_of(struct route_att *a, const struct rt *r, const char *dev,
		   uint32_t ifindex, const struct bpfwd_route_cfg *c)
{
	a->dev = dev;
	a->ifindex = ifindex;
	a->hook = c->hook;
	a->generic = c->flags & BPFWD_RT_F_XDP_GENERIC;
	a->dir = r->dir;
}

/* The XDP egress side: a device that cannot take XDP frames stays out
 * of the devmap (what native XDP routes to it goes through the stack).
 */
static int devmap_join(struct rt *r, const char *dev, uint32_t ifindex,
		       bool generic)
{
	uint64_t feat;
	int err;

	err = netdev_xdp_features(ifindex, &feat);
	if (!err && !(feat & BPFWD_XDP_ACT_NDO_XMIT)) {
		/* generic XDP sends skbs, and needs no devmap */
		if (generic)
			return 0;
		pr_warn("%s: cannot take XDP frames (a veth needs GRO or an XDP program on its peer): native XDP routes to it through the stack",
			dev);
		return 0;
	}
	err = rt_devmap_set(r, ifindex, true);
	if (err)
		p_err("%s: add to %s: %s", dev, BPFWD_MAP_RT_DEV, strerror(-err));
	return err;
}

/* Undoes one device: program, devmap entry, table entry, counters. */
static int remove_dev(struct rt *r, const char *dev, uint32_t ifindex,
		      const struct bpfwd_route_cfg *c)
{
	struct route_att a;
	int err;

	att_of(&a, r, dev, ifindex, c);
	err = route_detach(&a, c->flags & BPFWD_RT_F_OWN_CLSACT);
	if (err)
		return err;
	rt_devmap_set(r, ifindex, false);
	rt_del(r, ifindex);
	rt_stats_clear(r, c->slot);
	return 0;
}

/* Entries of devices that are gone (their programs went with them):
 * removed, so that no command has to name them.
 */
static void prune_gone(struct rt *r)
{
	static struct rt_dev d[BPFWD_RT_MAX_DEVS];
	char name[IF_NAMESIZE];
	int n = rt_list(r, d, BPFWD_RT_MAX_DEVS), i;

	for (i = 0; i < n && i < BPFWD_RT_MAX_DEVS; i++) {
		if (if_indextoname(d[i].ifindex, name))
			continue;
		snprintf(name, sizeof(name), "if%u", d[i].ifindex);
		pr_info("%s: gone; its route entry goes too", name);
		remove_dev(r, name, d[i].ifindex, &d[i].cfg);
	}
}

static int add_one(struct rt *r, const char *dev, uint32_t ifindex,
		   struct bpfwd_route_cfg *c, int prog_fd, const char *prog)
{
	struct route_att a;
	struct link_info li;
	bool own = false;
	int err;

	err = rt_slot_alloc(r, &c->slot);
	if (err) {
		p_err("%s: no room (%d route devices at most)", dev,
		      BPFWD_RT_MAX_DEVS);
		return err;
	}
	if (!netdev_link(ifindex, &li))
		memcpy(c->mac, li.mac, sizeof(c->mac));
	rt_stats_clear(r, c->slot);
	err = rt_put(r, ifindex, c, BPF_NOEXIST);
	if (err) {
		p_err("%s: write %s: %s", dev, BPFWD_MAP_RT_CFG, strerror(-err));
		return err;
	}
	if (c->hook == BPFWD_HOOK_XDP)
		err = devmap_join(r, dev, ifindex,
				  c->flags & BPFWD_RT_F_XDP_GENERIC);
	att_of(&a, r, dev, ifindex, c);
	if (!err)
		err = route_attach(&a, prog_fd, prog, &own);
	if (err) {
		rt_devmap_set(r, ifindex, false);
		rt_del(r, ifindex);
		return err;
	}
	if (own) {
		c->flags |= BPFWD_RT_F_OWN_CLSACT;
		rt_put(r, ifindex, c, BPF_EXIST);
	}
	return 0;
}

/* A device that is already on the fast path: same hook, or an error.
 * Its switches are read again and a lost program is attached again.
 */
static int refresh_one(struct rt *r, const char *dev, uint32_t ifindex,
		       struct bpfwd_route_cfg *c, int prog_fd, const char *prog)
{
	struct route_att a;
	struct link_info li;
	bool own = false;
	int err;

	if (!netdev_link(ifindex, &li))
		memcpy(c->mac, li.mac, sizeof(c->mac));
	att_of(&a, r, dev, ifindex, c);
	if (!route_attached(&a)) {
		err = route_attach(&a, prog_fd, prog, &own);
		if (err)
			return err;
		if (own)
			c->flags |= BPFWD_RT_F_OWN_CLSACT;
	}
	if (c->hook == BPFWD_HOOK_XDP &&
	    devmap_join(r, dev, ifindex, c->flags & BPFWD_RT_F_XDP_GENERIC))
		return -EIO;
	return rt_put(r, ifindex, c, BPF_EXIST);
}

struct add_plan {
	uint32_t ifindex[MAX_ARGS];
	struct bpfwd_route_cfg cfg[MAX_ARGS];
	bool had[MAX_ARGS];	/* already a route device */
	bool done[MAX_ARGS];	/* added by this command */
};

/* Every check that can refuse, before anything changes. */
static int add_checks(struct route_args *a, struct rt *r, struct add_plan *p)
{
	struct route_att att;
	int i, err;

	for (i = 0; i < a->devs.n; i++) {
		const char *dev = a->devs.name[i];
		struct bpfwd_route_cfg *c = &p->cfg[i];

		p->had[i] = !rt_get(r, p->ifindex[i], c);
		if (p->had[i] && c->hook != a->hook) {
			p_err("%s: already on the route fast path with hook %s; route del dev %s first",
			      dev, hook_words[c->hook], dev);
			return -EEXIST;
		}
		if (p->had[i] && a->hook == BPFWD_HOOK_XDP &&
		    !(c->flags & BPFWD_RT_F_XDP_GENERIC) != !a->xdp_mode) {
			p_err("%s: already on the route fast path in XDP %s mode; route del dev %s first",
			      dev, xdp_modes[!a->xdp_mode], dev);
			return -EEXIST;
		}
		c->flags &= BPFWD_RT_F_OWN_CLSACT;
		c->flags |= dev_flags(dev);
		c->hook = a->hook;
		c->prio = a->hook == BPFWD_HOOK_TC ? ROUTE_PRIO : 0;
		if (a->hook == BPFWD_HOOK_XDP && a->xdp_mode)
			c->flags |= BPFWD_RT_F_XDP_GENERIC;
		att_of(&att, r, dev, p->ifindex[i], c);
		err = p->had[i] ? 0 : route_hook_free(&att);
		/* again on a device already added: the peer may have
		 * turned its offload on since
		 */
		if (!err)
			err = route_hook_sees_vlan(&att);
		if (err)
			return err;
	}
	return 0;
}

static int add_apply(struct route_args *a, struct rt *r, struct add_plan *p)
{
	const char *prog;
	void *skel;
	int i, fd, err = 0;

	fd = rt_load(r, a->hook == BPFWD_HOOK_XDP, &skel, &prog);
	if (fd < 0)
		return fd;
	for (i = 0; i < a->devs.n && !err; i++) {
		if (p->had[i]) {
			err = refresh_one(r, a->devs.name[i], p->ifindex[i],
					  &p->cfg[i], fd, prog);
		} else {
			err = add_one(r, a->devs.name[i], p->ifindex[i],
				      &p->cfg[i], fd, prog);
			p->done[i] = !err;
		}
	}
	rt_unload(skel);
	if (!err)
		return 0;
	for (i = 0; i < a->devs.n; i++)
		if (p->done[i])
			remove_dev(r, a->devs.name[i], p->ifindex[i],
				   &p->cfg[i]);
	return err;
}

static int route_add(struct route_args *a)
{
	static struct add_plan p;
	struct rt r;
	int err;

	memset(&p, 0, sizeof(p));
	if (resolve(&a->devs, p.ifindex) || nf_check(a->force))
		return BPFWD_EXIT_FAIL;
	if (a->hook == BPFWD_HOOK_TCX && !route_has_tcx()) {
		p_err("this kernel has no tcx (needs Linux 6.6 or later); use hook tc");
		return BPFWD_EXIT_FAIL;
	}
	err = rt_open(&r, true);
	if (err)
		return BPFWD_EXIT_FAIL;
	prune_gone(&r);
	err = add_checks(a, &r, &p);
	if (!err)
		err = add_apply(a, &r, &p);
	if (err)
		rt_gc(&r);
	rt_close(&r);
	return err ? BPFWD_EXIT_FAIL : BPFWD_EXIT_OK;
}

static int route_del(struct route_args *a)
{
	uint32_t idx[MAX_ARGS];
	struct bpfwd_route_cfg c;
	struct rt r;
	int i, err;

	if (resolve(&a->devs, idx))
		return BPFWD_EXIT_FAIL;
	err = rt_open(&r, false);
	if (err) {
		if (err == -ENOENT)
			p_err("%s: not a route device (route is not in use here)",
			      a->devs.name[0]);
		return BPFWD_EXIT_FAIL;
	}
	prune_gone(&r);
	for (i = 0; i < a->devs.n; i++) {
		if (rt_get(&r, idx[i], &c)) {
			p_err("%s: not a route device", a->devs.name[i]);
			err = -ENOENT;
			break;
		}
	}
	for (i = 0; !err && i < a->devs.n; i++) {
		rt_get(&r, idx[i], &c);
		err = remove_dev(&r, a->devs.name[i], idx[i], &c);
	}
	rt_gc(&r);
	rt_close(&r);
	return err ? BPFWD_EXIT_FAIL : BPFWD_EXIT_OK;
}

static int route_show(struct route_args *a)
{
	uint32_t idx[MAX_ARGS];
	int err;

	if (resolve(&a->devs, idx))
		return BPFWD_EXIT_FAIL;
	err = route_show_devs(idx, a->devs.n);
	return err < 0 ? BPFWD_EXIT_FAIL : BPFWD_EXIT_OK;
}

/* xdp-mode without hook xdp: a usage error, before anything */
static int add_valid(const struct route_args *a, kw_seen_t seen)
{
	if (kw_has(add_kws, seen, "xdp-mode") && a->hook != BPFWD_HOOK_XDP)
		return usage_err("xdp-mode applies to hook xdp only");
	return 0;
}

static int run(int argc, char **argv, const char *cmd, const struct kw *kws,
	       int (*valid)(const struct route_args *, kw_seen_t),
	       int (*fn)(struct route_args *))
{
	struct route_args a = { 0 };
	kw_seen_t seen = 0;
	int err;

	opts.cmd = cmd;
	if (argc > 0 && is_word(*argv, "help"))
		return route_help(0, NULL);
	a.hook = route_has_tcx() ? BPFWD_HOOK_TCX : BPFWD_HOOK_TC;
	err = kw_parse(kws, argc, argv, &a, &seen);
	if (!err && valid)
		err = valid(&a, seen);
	if (err)
		return err;
	if (need_root())
		return BPFWD_EXIT_FAIL;
	return fn(&a);
}

static int do_add(int argc, char **argv)
{
	return run(argc, argv, "route add", add_kws, add_valid, route_add);
}

static int do_del(int argc, char **argv)
{
	return run(argc, argv, "route del", del_kws, NULL, route_del);
}

static int do_show(int argc, char **argv)
{
	return run(argc, argv, "route show", show_kws, NULL, route_show);
}

int do_route(int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "add", do_add },
		{ "delete", do_del },
		{ "show", do_show },
		{ "list", do_show },
		{ "help", route_help },
		{ 0 }
	};

	opts.cmd = "route";
	if (argc < 1)
		return do_show(0, NULL);
	return cmd_select(cmds, argc, argv, "command", route_help);
}
