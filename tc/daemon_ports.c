// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * The daemon's ports: a port whose ingress device or target is deleted
 * and made again with the same name (a container's veth restarted, a
 * re-plugged USB NIC) forwards again, by the names the port table keeps
 * beside its entries (bpfwd_names).  Once at start, after every link
 * event of the namespace, after lost events and every 30 s it looks
 * through the namespace's table without its lock; a port to repair
 * makes it take the lock, look again, and do what the same port add or
 * replace with the port's recorded configuration would (port.h):
 *
 *  - target gone, a device of its name here: port replace to it (tc:
 *    the entry; XDP: a new copy of the program, the devmap slot);
 *  - ingress gone, a device of its name here: port add on it, then the
 *    old entry goes (port del ifindex): a kill in between leaves the
 *    new port and a stale entry, which the next look removes;
 *  - ingress there but its program detached: port replace (tc, tcx,
 *    act), port del and add (xdp, whose replace needs its program).
 *
 * Then it drops the lock.  A repair that failed is retried after 2 s,
 * then twice as long each time up to a minute, and at once on a link
 * event of its devices (up, carrier); one that waits for a device says
 * so once.  Devices are looked up in the daemon's own
 * namespace: a device of that name elsewhere is not the port's.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

#include "daemon_ports.h"
#include "hook.h"
#include "lib/opts.h"
#include "lib/pins.h"
#include "lib/ports.h"
#include "lib/util.h"
#include "lib/xdp_attach.h"
#include "port.h"

#define RESCAN_S	30.0
#define RETRY_MIN_S	2.0
#define RETRY_MAX_S	60.0
#define MAX_REPAIRS	64

enum fix {
	FIX_NONE,
	FIX_WAIT,	/* ingress back, target not (or never named) */
	FIX_TARGET,	/* target back: replace */
	FIX_INGRESS,	/* ingress back: add, then the old entry goes */
	FIX_DETACHED,	/* ingress there, program not */
	FIX_STALE,	/* ingress back and a port already: the old entry goes */
};

/* What one port needs, from one look at the table. */
struct repair {
	uint32_t ifindex;	/* the entry's key */
	struct bpfwd_port p;
	enum fix fix;
	char in[IF_NAMESIZE], out[IF_NAMESIZE];	/* the recorded names */
	uint32_t in_now, out_now;	/* their ifindexes now (0: none) */
};

/* A repair that failed or waits: not again before @next. */
struct pending {
	uint32_t ifindex, in_now, out_now;
	enum fix fix;
	double next, wait;
	bool seen;
};

static struct {
	bool dirty;
	double last_scan;
	struct pending pend[MAX_REPAIRS];
	int npend;
} dp = { .dirty = true };

struct plan {
	struct repair r[MAX_REPAIRS];
	int n;
};

static bool has_port(uint32_t ifindex)
{
	struct bpfwd_port p;
	struct table t;

	if (port_find(ifindex, &t, &p))
		return false;
	table_close(&t);
	return true;
}

/* The target's name and its ifindex now: the device it is, or else a
 * device of the name it had.
 */
static void target_now(struct table *t, struct repair *r)
{
	if (!r->p.target)
		return;
	if (if_indextoname(r->p.target, r->out))
		r->out_now = r->p.target;
	else if (!port_target_name_get(t, r->ifindex, r->out))
		r->out_now = if_nametoindex(r->out);
	else
		r->out[0] = '\0';
}

/* What the port on @ifindex needs.  A device renamed under a port keeps
 * it (and it goes by the new name): a new device of the old name is not
 * the port's.
 */
static enum fix plan_one(struct table *t, uint32_t ifindex,
			 const struct bpfwd_port *p, struct repair *r)
{
	const struct hook_ops *ops = hook_by_id(p->hook);
	char name[IF_NAMESIZE];
	bool gone;

	memset(r, 0, sizeof(*r));
	r->ifindex = ifindex;
	r->p = *p;
	if (!ops || !ops->attached || p->hook == BPFWD_HOOK_NONE ||
	    !port_owned(t, p) || port_name_get(t, ifindex, r->in))
		return FIX_NONE;
	gone = !if_indextoname(ifindex, name);
	if (!gone)
		memcpy(r->in, name, sizeof(r->in));
	r->in_now = gone ? if_nametoindex(r->in) : ifindex;
	if (!r->in_now)
		return FIX_NONE;	/* waits for it (DELLINK said so) */
	target_now(t, r);
	if (gone && has_port(r->in_now))
		return FIX_STALE;
	if (gone || !ops->attached(t, ifindex, p))
		return p->target && !r->out_now ? FIX_WAIT :
		       gone ? FIX_INGRESS : FIX_DETACHED;
	if (p->target && r->out_now && r->out_now != p->target)
		return FIX_TARGET;
	return FIX_NONE;
}

static struct pending *pending_of(const struct repair *r)
{
	int i;

	for (i = 0; i < dp.npend; i++)
		if (dp.pend[i].ifindex == r->ifindex)
			return &dp.pend[i];
	return NULL;
}

/* Whether @r is the repair that failed (or waits) and is not due. */
static bool held_back(const struct repair *r)
{
	struct pending *q = pending_of(r);

	if (!q)
		return false;
	q->seen = true;
	if (q->fix != r->fix || q->in_now != r->in_now ||
	    q->out_now != r->out_now) {
		*q = dp.pend[--dp.npend];	/* something changed: now */
		return false;
	}
	return now() < q->next;
}

/* Notes @r as failed (or waiting: for ever, until something changes). */
static double hold(const struct repair *r)
{
	struct pending *q = pending_of(r);

	if (!q && dp.npend == MAX_REPAIRS)
		return RETRY_MIN_S;
	if (!q) {
		q = &dp.pend[dp.npend++];
		memset(q, 0, sizeof(*q));
	}
	q->ifindex = r->ifindex;
	q->in_now = r->in_now;
	q->out_now = r->out_now;
	q->fix = r->fix;
	q->seen = true;
	q->wait = q->wait ? q->wait * 2 : RETRY_MIN_S;
	if (q->wait > RETRY_MAX_S)
		q->wait = RETRY_MAX_S;
	q->next = r->fix == FIX_WAIT ? 1e300 : now() + q->wait;
	return q->wait;
}

static void unhold(const struct repair *r)
{
	struct pending *q = pending_of(r);

	if (q)
		*q = dp.pend[--dp.npend];
}

static int plan_cb(struct table *t, uint32_t ifindex,
		   const struct bpfwd_port *p, void *data)
{
	struct plan *pl = data;
	struct repair *r = &pl->r[pl->n];

	if (pl->n == MAX_REPAIRS)
		return 0;
	r->fix = plan_one(t, ifindex, p, r);
	if (r->fix != FIX_NONE && !held_back(r))
		pl->n++;
	return 0;
}

/* The ports of the namespace's own table that need a repair now (hook
 * none ports are in the stock table: they have nothing to attach).
 * With @lock, the table stays locked (until pin_dir_unlock_all()).
 */
static int plan_all(struct plan *pl, bool lock)
{
	struct table t;
	int err;

	pl->n = 0;
	err = lock ? table_open(&t, false, false) : table_open_read(&t, false);
	if (err)
		return err == -ENOENT ? 0 : err;
	err = table_each(&t, plan_cb, pl);
	table_close(&t);
	return err;
}

/* The port as port add/replace would be given it again. */
static int cfg_of(const struct repair *r, struct port_cfg *c)
{
	const struct bpfwd_port *p = &r->p;
	struct table t;
	int err = 0;

	memset(c, 0, sizeof(*c));
	c->dev = r->in;
	c->to = p->target ? r->out : NULL;
	c->mode = p->mode;
	c->hook = p->hook;
	c->has_mode = c->has_hook = true;
	if (p->hook != BPFWD_HOOK_XDP) {
		c->tc.to_ingress = p->flags & BPFWD_F_INGRESS;
		c->tc.at = p->flags & BPFWD_F_AT_EGRESS ? PORT_AT_EGRESS :
							  PORT_AT_INGRESS;
		c->tc.prio = p->prio;
		return 0;
	}
	c->xdp.xdp_mode = p->flags & BPFWD_F_XDP_GENERIC ? PORT_XDP_GENERIC :
							  PORT_XDP_NATIVE;
	if (p->flags & BPFWD_F_CPU_PASS)
		c->xdp.then = PORT_THEN_PASS;
	if (table_open_read(&t, false))
		return -EIO;
	if (p->mode == BPFWD_MODE_CPUMAP) {
		err = xdp_cpus_get(&t, p->slot, &c->xdp.cpus);
		if (!err && !c->xdp.cpus.count)
			err = -ENOENT;
		c->xdp.qsize = c->xdp.cpus.qsize;
	}
	if (p->mode == BPFWD_MODE_FLOOD &&
	    !xdp_flood_group(&t, r->ifindex, &c->xdp.group.v))
		c->xdp.group.set = true;
	table_close(&t);
	return err;
}

/* Does @r: 0 or -errno (the library reported it). */
static int fix_port(const struct repair *r)
{
	struct port_cfg c;
	int err;

	if (r->fix == FIX_STALE)
		return port_del_ifindex(r->ifindex, false);
	err = cfg_of(r, &c);
	if (err) {
		daemon_log("port %s: %s", r->in, err == -ENOENT ?
			   "its CPU list is gone: port del and add it" :
			   "cannot read its table");
		return err;
	}
	switch (r->fix) {
	case FIX_INGRESS:
		err = port_add_cfg(&c);
		return err ? err : port_del_ifindex(r->ifindex, false);
	case FIX_DETACHED:
		if (r->p.hook != BPFWD_HOOK_XDP)
			return port_replace_cfg(&c);
		/* an XDP program that is not the port's: not ours to replace */
		err = xdp_check_in(r->ifindex, r->in,
				   c.xdp.xdp_mode == PORT_XDP_GENERIC);
		if (!err)
			err = port_del_ifindex(r->ifindex, false);
		if (err)
			return err;
		err = port_add_cfg(&c);
		if (err)
			daemon_log("port %s: deleted to attach it again, its add failed: it is gone",
				   r->in);
		return err;
	default:
		return port_replace_cfg(&c);
	}
}

static void log_done(const struct repair *r)
{
	const char *hook = hook_name(r->p.hook);

	switch (r->fix) {
	case FIX_TARGET:
		daemon_log("port %s: target %s is back (if%u): the port sends there again",
			   r->in, r->out, r->out_now);
		break;
	case FIX_INGRESS:
		daemon_log("port %s: %s is back (if%u): the port is attached again (hook %s)%s%s",
			   r->in, r->in, r->in_now, hook,
			   r->p.target ? ", to " : "", r->p.target ? r->out : "");
		break;
	case FIX_DETACHED:
		daemon_log("port %s: its program was not attached: attached again (hook %s)",
			   r->in, hook);
		break;
	case FIX_STALE:
		daemon_log("port %s: removed the entry of the old %s (if%u): the new %s (if%u) has a port",
			   r->in, r->in, r->ifindex, r->in, r->in_now);
		break;
	default:
		break;
	}
}

static void log_wait(const struct repair *r)
{
	if (r->out[0])
		daemon_log("port %s: %s is back (if%u), its target %s is not: the port waits for it",
			   r->in, r->in, r->in_now, r->out);
	else
		daemon_log("port %s: %s is back (if%u), but its target (if%u) is gone and its name was not recorded: port replace dev %s to OUT",
			   r->in, r->in, r->in_now, r->p.target, r->in);
}

static void run(const struct plan *pl)
{
	double wait;
	int i;

	for (i = 0; i < pl->n; i++) {
		const struct repair *r = &pl->r[i];

		if (r->fix == FIX_WAIT) {
			hold(r);
			log_wait(r);
		} else if (fix_port(r)) {
			wait = hold(r);
			daemon_log("port %s: not repaired (see above): again in %.0f s",
				   r->in, wait);
		} else {
			unhold(r);
			log_done(r);
		}
	}
}

static bool retry_due(void)
{
	int i;

	for (i = 0; i < dp.npend; i++)
		if (now() >= dp.pend[i].next)
			return true;
	return false;
}

/* A look without the lock; with something to do, again with it, and
 * the repairs, then the lock goes.
 */
static void scan(void)
{
	static struct plan pl;
	int i;

	for (i = 0; i < dp.npend; i++)
		dp.pend[i].seen = false;
	if (plan_all(&pl, false) || !pl.n)
		goto forget;
	if (!plan_all(&pl, true))
		run(&pl);
	pin_dir_unlock_all();
	if (pl.n == MAX_REPAIRS)
		dp.dirty = true;	/* more than a look takes: the rest next */
forget:
	/* ports that need nothing any more, or are gone */
	for (i = 0; i < dp.npend; i++)
		if (!dp.pend[i].seen)
			dp.pend[i--] = dp.pend[--dp.npend];
}

static void ports_tick(bool overflow)
{
	const char *cmd = opts.cmd;

	if (overflow)
		dp.dirty = true;
	if (!dp.dirty && now() - dp.last_scan < RESCAN_S && !retry_due())
		return;
	dp.dirty = false;
	dp.last_scan = now();
	opts.cmd = "daemon:";	/* the library's errors: "bpfwd: daemon: ..." */
	scan();
	opts.cmd = cmd;
}

/* A link event of a device that a failed repair is for (it came up, got
 * its carrier): that repair is tried again at once.
 */
static void retry_now(uint32_t ifindex)
{
	int i;

	for (i = 0; i < dp.npend; i++)
		if (dp.pend[i].fix != FIX_WAIT &&
		    (dp.pend[i].in_now == ifindex ||
		     dp.pend[i].out_now == ifindex))
			dp.pend[i].next = 0;
}

/* RTM_DELLINK of a port's device or target: what happens now. */
struct gone_dev {
	uint32_t ifindex;
	const char *name;
};

static int log_gone(struct table *t, uint32_t ifindex,
		    const struct bpfwd_port *p, void *data)
{
	const struct gone_dev *g = data;
	char in[IF_NAMESIZE], out[IF_NAMESIZE];
	bool named = !port_name_get(t, ifindex, in);

	if (!port_owned(t, p) || p->hook == BPFWD_HOOK_NONE)
		return 0;
	if (!named)
		snprintf(in, sizeof(in), "if%u", ifindex);
	if (ifindex == g->ifindex && named)
		daemon_log("port %s: %s (if%u) is gone, its program with it: the port is attached again when a device named %s appears",
			   in, g->name, ifindex, in);
	else if (ifindex == g->ifindex)
		daemon_log("port %s: %s is gone; no name recorded: the port stays detached (port del ifindex %u)",
			   in, g->name, ifindex);
	if (p->target != g->ifindex)
		return 0;
	if (!port_target_name_get(t, ifindex, out))
		daemon_log("port %s: target %s (if%u) is gone: what the port takes is lost until a device named %s appears, then it goes there",
			   in, g->name, p->target, out);
	else
		daemon_log("port %s: target %s (if%u) is gone; no name recorded: what the port takes is lost until port replace dev %s to OUT",
			   in, g->name, p->target, in);
	return 0;
}

static void ports_link_event(const struct nlmsghdr *nlh)
{
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	struct gone_dev g = { .ifindex = ifi->ifi_index, .name = "?" };
	char name[IF_NAMESIZE];
	struct nlattr *a;
	struct table t;

	dp.dirty = true;
	if (nlh->nlmsg_type == RTM_NEWLINK)
		retry_now(ifi->ifi_index);
	/* AF_BRIDGE: a port left its bridge; a device still there: not gone */
	if (nlh->nlmsg_type != RTM_DELLINK || ifi->ifi_family == AF_BRIDGE ||
	    if_indextoname(ifi->ifi_index, name))
		return;
	mnl_attr_for_each(a, nlh, sizeof(*ifi))
		if (mnl_attr_get_type(a) == IFLA_IFNAME &&
		    !mnl_attr_validate(a, MNL_TYPE_NUL_STRING))
			g.name = mnl_attr_get_str(a);
	if (table_open_read(&t, false))
		return;
	table_each(&t, log_gone, &g);
	table_close(&t);
}

const struct daemon_follower daemon_ports = {
	.link_event = ports_link_event,
	.tick = ports_tick,
};
