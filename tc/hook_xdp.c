// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * hook xdp: XDP ports, their lines in port show, their cpumap figures
 * in stats and native XDP per device in probe.
 *
 *   port add dev IN to OUT hook xdp [mode redirect|map]
 *            [xdp-mode native|generic] [fix-offload]
 *   port add dev IN hook xdp cpus LIST [qsize N] [then pass] [to OUT]
 *   port add dev IN hook xdp mode flood [group N]
 *
 * The entry goes into the namespace's own table like any port (XDP
 * cannot be loaded by stock tc), so del, flush, show and stats work on
 * it unchanged.  Every trap a check can see is refused before anything
 * is attached; a later failure undoes the command's own steps.
 */
#include <errno.h>
#include <net/if.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "hook.h"
#include "lib/attach.h"
#include "lib/json.h"
#include "lib/loader.h"
#include "lib/netdev.h"
#include "lib/util.h"
#include "lib/xdp_attach.h"

static int parse_cpus(const struct kw *k, const char *a, void *dst)
{
	struct bpfwd_cpus *cpus = dst;
	int err = parse_cpu_list(a, cpus);

	switch (err) {
	case 0:
		return 0;
	case -ERANGE:
		return usage_err("cpus \"%s\": this machine has CPUs 0-%d", a,
				 nr_cpus() - 1);
	case -EEXIST:
		return usage_err("cpus \"%s\": a CPU is listed twice", a);
	case -E2BIG:
		return usage_err("cpus \"%s\": at most %d CPUs", a,
				 BPFWD_MAX_CPU_LIST);
	}
	return usage_err("cpus \"%s\": not a CPU list (like 1 or 0,2-3)", a);
}

static int parse_then(const struct kw *k, const char *a, void *dst)
{
	if (!is_word(a, "pass"))
		return usage_err("then \"%s\": pass or to OUT", a);
	*(uint32_t *)dst = PORT_THEN_PASS;
	return 0;
}

static int parse_group(const struct kw *k, const char *a, void *dst)
{
	struct port_xdp_args *x = (struct port_xdp_args *)
		((char *)dst - offsetof(struct port_xdp_args, group));

	if (arg_u32("group", a, &x->group.v, 0, 0xffff))
		return BPFWD_EXIT_USAGE;
	x->group.set = true;
	return 0;
}

static const char *const xdp_mode_words[] = {
	[PORT_XDP_NATIVE] = "native",
	[PORT_XDP_GENERIC] = "generic",
};

static const struct kw xdp_kws[] = {
	KW_FN("cpus", struct port_cfg, xdp.cpus, parse_cpus, "LIST", 0,
	      "mode cpumap: the CPUs that build the skbs"),
	KW_U32("qsize", struct port_cfg, xdp.qsize, 1, XDP_QSIZE_MAX, "N", 0,
	       "cpumap queue size per CPU (default 2048)"),
	KW_FN("then", struct port_cfg, xdp.then, parse_then, "pass", 0,
	      "cpumap: to the stack (or a tc redirect to OUT) on those CPUs"),
	KW_FN("group", struct port_cfg, xdp.group, parse_group, "N", 0,
	      "mode flood: the flood group (default 0)"),
	KW_ENUM("xdp-mode", struct port_cfg, xdp.xdp_mode, xdp_mode_words,
		NULL, "XDP_MODE", 0, "native (default) or generic XDP"),
	KW_FLAG("fix-offload", struct port_cfg, xdp.fix_offload, 0,
		"tx checksumming off on IN's veth peer (the checksum trap)"),
	KW_END
};

static bool is_tc_mode(uint32_t mode)
{
	return mode == BPFWD_MODE_CLONE || mode == BPFWD_MODE_PEER ||
	       mode == BPFWD_MODE_NEIGH || mode == BPFWD_MODE_MIRROR;
}

static int xdp_parse(struct port_cfg *c, bool replace, const char *foreign)
{
	struct port_xdp_args *x = &c->xdp;

	if (foreign)
		return usage_err("%s does not apply to hook xdp (XDP runs at ingress, before tc)",
				 foreign);
	if (c->has_mode && is_tc_mode(c->mode))
		return usage_err("mode %s is a tc mode; hook xdp has redirect, map, cpumap and flood",
				 port_mode_name(c->mode));
	if (x->cpus.count && c->has_mode && c->mode != BPFWD_MODE_CPUMAP)
		return usage_err("cpus goes with mode cpumap, not mode %s",
				 port_mode_name(c->mode));
	if (x->cpus.count) {
		c->mode = BPFWD_MODE_CPUMAP;
		c->has_mode = true;
	}
	if ((x->qsize || x->then) && c->mode != BPFWD_MODE_CPUMAP)
		return usage_err("%s needs cpus LIST (mode cpumap)",
				 x->qsize ? "qsize" : "then pass");
	if (x->group.set && c->mode != BPFWD_MODE_FLOOD)
		return usage_err("group goes with mode flood");
	if (c->mode == BPFWD_MODE_FLOOD && c->to)
		return usage_err("mode flood sends to every other flood port: drop \"to %s\"",
				 c->to);
	if ((c->mode == BPFWD_MODE_REDIRECT || c->mode == BPFWD_MODE_MAP) &&
	    (c->has_mode || !replace) && !c->to)
		return usage_err("missing \"to OUT\" (mode %s)",
				 port_mode_name(c->mode));
	return 0;
}

static enum xdp_prog prog_of(uint32_t mode)
{
	switch (mode) {
	case BPFWD_MODE_MAP:
		return XP_DEVMAP;
	case BPFWD_MODE_CPUMAP:
		return XP_CPUMAP;
	case BPFWD_MODE_FLOOD:
		return XP_FLOOD;
	}
	return XP_REDIRECT;
}

/* The program a mode needs besides the XDP one. */
static enum xdp_prog extra_of(uint32_t mode)
{
	return mode == BPFWD_MODE_CPUMAP ? XP_CPU_THEN :
	       mode == BPFWD_MODE_FLOOD ? XP_FLOOD_EGRESS : XP_NONE;
}

/* Modes redirect and map load a copy of the program for the port (see
 * struct xdp_fixed); NULL for the table-driven modes.  Mode map's
 * target is in its devmap slot, not in the copy: a new target there is
 * one map update, no new program.
 */
static const struct xdp_fixed *fixed_of(const struct port_cfg *c,
					const struct bpfwd_port *p,
					struct xdp_fixed *fx)
{
	if (c->mode != BPFWD_MODE_REDIRECT && c->mode != BPFWD_MODE_MAP)
		return NULL;
	fx->ifindex = c->in;
	fx->slot = p->slot;
	fx->target = c->mode == BPFWD_MODE_REDIRECT ? c->out : 0;
	return fx;
}

static bool generic(const struct port_cfg *c)
{
	return c->xdp.xdp_mode == PORT_XDP_GENERIC;
}

/* then pass to OUT: skbs, and a tc redirect to OUT */
static bool cpu_pass(const struct port_cfg *c)
{
	return c->xdp.then == PORT_THEN_PASS && c->out;
}

/* The traps, before anything changes.  @replace: IN already runs a
 * port of ours, so its own program is expected.
 */
static int check(struct port_cfg *c, bool replace)
{
	int err;

	if ((c->mode == BPFWD_MODE_REDIRECT || c->mode == BPFWD_MODE_MAP) &&
	    !c->out) {
		p_err("%s: mode %s needs \"to OUT\"", c->dev,
		      port_mode_name(c->mode));
		return -EINVAL;
	}
	if (!replace) {
		err = xdp_check_in(c->in, c->dev, generic(c));
		if (err)
			return err;
	}
	/* a veth peer's partial checksums (native) and GSO frames (both
	 * modes) would be dropped after the redirect
	 */
	if (!replace || c->xdp.fix_offload) {
		err = xdp_check_offload(c->in, c->dev, c->xdp.fix_offload);
		if (err)
			return err;
	}
	if (generic(c))
		return 0;
	/* native: a tag outside the frame would be lost */
	err = xdp_check_vlan(c->in, c->dev, c->xdp.fix_offload);
	if (err)
		return err;
	/* native: frames leave through the target's ndo_xdp_xmit; a flood
	 * port is the target of the other flood ports
	 */
	if (c->out && !cpu_pass(c))	/* then pass to OUT sends skbs */
		return xdp_check_target(c->out, c->dev);
	if (c->mode == BPFWD_MODE_FLOOD)
		return xdp_check_target(c->in, c->dev);
	return 0;
}

/* Writes the mode's map entries of port @p (slot, target, cpus). */
static int maps_set(struct table *t, struct port_cfg *c,
		    const struct bpfwd_port *p, struct xdp *skel)
{
	int err = 0;

	switch (c->mode) {
	case BPFWD_MODE_MAP:
		err = xdp_devmap_set(t, p->slot, c->out);
		if (err)
			p_err("%s: write %s slot %u: %s", c->dev,
			      BPFWD_MAP_DEVMAP, p->slot, strerror(-err));
		break;
	case BPFWD_MODE_FLOOD:
		err = xdp_flood_set(t, c->in, true, c->xdp.group.v,
				    xdp_prog_fd(skel, XP_FLOOD_EGRESS));
		if (err)
			p_err("%s: join %s: %s", c->dev, BPFWD_MAP_FLOOD,
			      strerror(-err));
		break;
	case BPFWD_MODE_CPUMAP:
		err = xdp_cpus_set(t, p->slot, c->in, &c->xdp.cpus,
				   xdp_prog_fd(skel, XP_CPU_THEN));
		break;
	}
	return err;
}

/* Removes what maps_set() wrote for @mode, keeping what @keep needs. */
static void maps_clear(struct table *t, uint32_t ifindex, uint32_t slot,
		       uint32_t mode, uint32_t keep)
{
	if (mode == keep && mode != BPFWD_MODE_CPUMAP)
		return;
	switch (mode) {
	case BPFWD_MODE_MAP:
		xdp_devmap_set(t, slot, 0);
		break;
	case BPFWD_MODE_FLOOD:
		xdp_flood_set(t, ifindex, false, 0, -1);
		break;
	case BPFWD_MODE_CPUMAP:
		if (keep != BPFWD_MODE_CPUMAP)
			xdp_cpus_clear(t, slot, 0);
		else
			xdp_cpus_gc(t, 0);
		break;
	}
}

static void fill_entry(struct bpfwd_port *p, const struct port_cfg *c)
{
	p->target = c->out;
	p->mode = c->mode;
	p->hook = BPFWD_HOOK_XDP;
	p->prio = 0;
	p->flags = (generic(c) ? BPFWD_F_XDP_GENERIC : 0) |
		   (cpu_pass(c) ? BPFWD_F_CPU_PASS : 0);
}

/* then pass to OUT: redirect_xmit of redirect.o on IN's tc ingress
 * (tcx where the kernel has it) sends on the skbs the cpumap built; it
 * reads the same table entry.
 */
static int tc_part_attach(struct table *t, const struct port_cfg *c,
			  struct bpfwd_port *p)
{
	struct attach_req r = {
		.t = t, .ifindex = c->in, .dev = c->dev, .prio = 1,
	};
	bool tcx = kernel_has_tcx();
	struct redirect *skel;
	int err;

	err = loader_load_prog(t->dir, RD_XMIT, BPF_PROG_TYPE_SCHED_CLS,
			       &skel, &r.prog_fd, &r.prog_name);
	if (err)
		return err;
	err = tcx ? tcx_attach(&r) : tc_filter_attach(&r);
	loader_free(skel);
	if (err)
		return err;
	if (tcx)
		p->flags |= BPFWD_F_CPU_TCX;
	else
		p->prio = r.prio;
	if (r.own_clsact)
		p->flags |= BPFWD_F_OWN_CLSACT;
	return port_put(t, c->in, p, BPF_EXIST);
}

static int xdp_prepare(struct port_cfg *c, struct bpfwd_port *p)
{
	int err;

	if (!c->xdp.xdp_mode)
		c->xdp.xdp_mode = PORT_XDP_NATIVE;
	c->xdp.cpus.qsize = c->xdp.qsize ?: XDP_QSIZE_DEFAULT;
	err = check(c, false);
	if (err)
		return err;
	fill_entry(p, c);
	return 0;
}

/* Undoes an XDP port (program, tc part, map entries) before its entry
 * goes, and removes the XDP pins when it was the namespace's last XDP
 * port.
 */
static int xdp_port_detach(struct table *t, uint32_t ifindex,
			   const char *dev, const struct bpfwd_port *p)
{
	bool gen = p->flags & BPFWD_F_XDP_GENERIC;
	int err;

	err = xdp_detach(ifindex, dev, gen, xdp_our_prog(ifindex, gen));
	if (err)
		return err;
	/* prio 0 would be every filter of the hook: only what was made */
	if ((p->flags & BPFWD_F_CPU_PASS) && (p->flags & BPFWD_F_CPU_TCX))
		err = tcx_detach(t, ifindex, dev, false);
	else if ((p->flags & BPFWD_F_CPU_PASS) && p->prio)
		err = tc_filter_detach(ifindex, dev, false, p->prio,
				       p->flags & BPFWD_F_OWN_CLSACT);
	if (err)
		return err;
	switch (p->mode) {
	case BPFWD_MODE_MAP:
		xdp_devmap_set(t, p->slot, 0);
		break;
	case BPFWD_MODE_FLOOD:
		xdp_flood_set(t, ifindex, false, 0, -1);
		break;
	case BPFWD_MODE_CPUMAP:
		xdp_cpus_clear(t, p->slot, ifindex);
		break;
	}
	/* what fix-offload turned off (a device that is gone took its
	 * veth peer along)
	 */
	if (p->flags & BPFWD_F_FIXED)
		xdp_unfix_offload(ifindex, p->flags & BPFWD_F_FIXED);
	xdp_pins_gc(t, ifindex);
	return 0;
}

/* fix-offload: tx checksumming (and in native mode tx VLAN insertion)
 * off on IN's veth peer when it is on.  The table entry @cur records it
 * (BPFWD_F_FIXED_OFFLOAD, BPFWD_F_FIXED_TXVLAN) before the peer changes,
 * so that port del turns it back on whatever kill comes between; @p,
 * the entry to be written, records it too.  *@fixed: what was turned
 * off now.
 */
static int offload_fix(struct table *t, const struct port_cfg *c,
		       struct bpfwd_port *p, const struct bpfwd_port *cur,
		       uint32_t *fixed)
{
	struct bpfwd_port mark = *cur;
	uint32_t what;
	int err;

	*fixed = 0;
	what = c->xdp.fix_offload ? xdp_offload_fixable(c->in, generic(c)) : 0;
	if (!what)
		return 0;
	p->flags |= what;
	if ((mark.flags & what) != what) {
		mark.flags |= what;
		err = port_put(t, c->in, &mark, BPF_EXIST);
		if (err) {
			p_err("%s: write table %s: %s", c->dev, t->dir,
			      strerror(-err));
			return err;
		}
	}
	return xdp_fix_offload(c->in, c->dev, what, fixed);
}

/* The program on IN (@old_id: in place of that one; 0: none is there),
 * with fix-offload applied right before (recorded in the entry @cur of
 * the table) and undone when the attach fails.  @same: the program is
 * there already, only fix-offload is to do.
 */
static int attach_prog(struct table *t, struct port_cfg *c,
		       struct bpfwd_port *p, const struct bpfwd_port *cur,
		       struct xdp *skel, uint32_t old_id, bool same)
{
	struct bpfwd_port before = *cur;	/* @cur may be @p */
	uint32_t fixed = 0;
	int err;

	err = offload_fix(t, c, p, &before, &fixed);
	if (!err && !same)
		err = xdp_attach(c->in, c->dev,
				 xdp_prog_fd(skel, prog_of(c->mode)),
				 generic(c), old_id);
	if (err && fixed)
		xdp_unfix_offload(c->in, fixed);
	if (err && fixed && (before.flags & fixed) != fixed)
		port_put(t, c->in, &before, BPF_EXIST);
	return err;
}

static int xdp_port_attach(struct table *t, struct port_cfg *c,
			   struct bpfwd_port *p)
{
	struct xdp *skel = NULL;
	struct xdp_fixed fx;
	int err;

	err = xdp_load(t, prog_of(c->mode), extra_of(c->mode), 0,
		       fixed_of(c, p, &fx), &skel);
	/* a pin of an older layout is the operator's to remove, not ours */
	if (err == -EEXIST)
		return err;
	if (err) {
		xdp_pins_gc(t, c->in);
		return err;
	}
	err = maps_set(t, c, p, skel);
	if (!err && cpu_pass(c))
		err = tc_part_attach(t, c, p);
	if (!err)
		err = attach_prog(t, c, p, p, skel, 0, false);
	xdp_free(skel);
	if (err) {
		xdp_port_detach(t, c->in, c->dev, p);
		return err;
	}
	if (c->mode == BPFWD_MODE_CPUMAP)
		xdp_kthread_ensure(t);
	return 0;
}

/* The XDP programs of ours, by the name the kernel knows them by. */
static const struct {
	const char *name;
	uint32_t mode;
} prog_modes[] = {
	{ "xdp_redirect", BPFWD_MODE_REDIRECT },
	{ "xdp_devmap", BPFWD_MODE_MAP },
	{ "xdp_cpumap", BPFWD_MODE_CPUMAP },
	{ "xdp_flood", BPFWD_MODE_FLOOD },
};

/* What runs, as an entry: the mode of the attached program, and the
 * target frames really go to (mode redirect: the copy's constant; map:
 * the devmap slot; cpumap: the entry's, which its programs read).
 * *@fx: the copy's constants.
 */
static bool live_fixed(struct table *t, uint32_t ifindex,
		       const struct bpfwd_port *p, struct bpfwd_port *live,
		       struct xdp_fixed *fx)
{
	uint32_t id = xdp_our_prog(ifindex, p->flags & BPFWD_F_XDP_GENERIC);
	char name[BPF_OBJ_NAME_LEN];
	size_t i;

	*live = *p;
	memset(fx, 0, sizeof(*fx));
	if (!id)
		return false;
	if (xdp_prog_fixed(id, name, fx))
		return true;
	for (i = 0; i < ARRAY_SIZE(prog_modes); i++)
		if (!strcmp(prog_modes[i].name, name))
			live->mode = prog_modes[i].mode;
	if (fx->ifindex != ifindex)	/* not this port's copy: the table */
		fx->slot = p->slot;
	if (live->mode == BPFWD_MODE_REDIRECT && fx->ifindex == ifindex)
		live->target = fx->target;
	else if (live->mode == BPFWD_MODE_MAP &&
		 (xdp_devmap_get(t, fx->slot, &live->target) || !live->target))
		/* the kernel empties a slot whose device goes: the entry
		 * still names it, and show marks it (target gone)
		 */
		live->target = p->target;
	else if (live->mode == BPFWD_MODE_FLOOD)
		live->target = 0;
	return true;
}

static bool xdp_live(struct table *t, uint32_t ifindex,
		     const struct bpfwd_port *p, struct bpfwd_port *live)
{
	struct xdp_fixed fx;

	return live_fixed(t, ifindex, p, live, &fx);
}

/* replace: what the command keeps of @old, and the mode's settings
 * that were not given (the flood group, the CPU list, the target of
 * what runs, @run).  @attached: IN runs the port's program; when it
 * does not (an add killed before its attach, a program someone
 * removed), the checks are add's.
 */
static int replace_merge(struct table *t, struct port_cfg *c,
			 const struct bpfwd_port *old,
			 const struct bpfwd_port *run, bool attached)
{
	bool old_gen = old->flags & BPFWD_F_XDP_GENERIC;

	if (!c->to && (c->mode == BPFWD_MODE_REDIRECT ||
		       c->mode == BPFWD_MODE_MAP))
		c->out = run->target;

	if (c->xdp.xdp_mode && generic(c) != old_gen) {
		p_err("%s: replace keeps the xdp-mode (%s); del and add the port",
		      c->dev, old_gen ? "generic" : "native");
		return -EINVAL;
	}
	c->xdp.xdp_mode = old_gen ? PORT_XDP_GENERIC : PORT_XDP_NATIVE;
	if (c->mode == BPFWD_MODE_CPUMAP && !c->xdp.then && !c->to &&
	    (old->flags & BPFWD_F_CPU_PASS)) {
		/* "cpus LIST" alone keeps the rest */
		c->xdp.then = PORT_THEN_PASS;
		c->out = old->target;
	}
	if (cpu_pass(c) != !!(old->flags & BPFWD_F_CPU_PASS)) {
		p_err("%s: replace keeps how frames leave the CPUs (%s); del and add the port",
		      c->dev, old->flags & BPFWD_F_CPU_PASS ?
		      "then pass to OUT: skbs and a tc redirect" :
		      "XDP redirect or the stack");
		return -EINVAL;
	}
	/* mode flood without a group keeps the port's */
	if (c->mode == BPFWD_MODE_FLOOD && old->mode == BPFWD_MODE_FLOOD &&
	    !c->xdp.group.set)
		xdp_flood_group(t, c->in, &c->xdp.group.v);
	c->xdp.cpus.qsize = c->xdp.qsize ?: XDP_QSIZE_DEFAULT;
	/* mode cpumap without a list keeps the port's CPUs */
	if (c->mode == BPFWD_MODE_CPUMAP && !c->xdp.cpus.count) {
		if (old->mode != BPFWD_MODE_CPUMAP ||
		    xdp_cpus_get(t, old->slot, &c->xdp.cpus) ||
		    !c->xdp.cpus.count) {
			p_err("%s: mode cpumap needs \"cpus LIST\"", c->dev);
			return -EINVAL;
		}
		if (c->xdp.qsize)
			c->xdp.cpus.qsize = c->xdp.qsize;
	}
	return check(c, attached);
}

/* then pass to OUT: whether the tc part is on IN.  After an add killed
 * between its attach and the entry, the entry does not say how it was
 * attached yet: then @p learns it, so that del detaches it.
 */
static bool tc_part_present(struct table *t, const struct port_cfg *c,
			    struct bpfwd_port *p)
{
	uint32_t id;

	if (p->flags & BPFWD_F_CPU_TCX)
		return tcx_attached(t, c->in, false);
	if (p->prio)
		return !tc_filter_prog(c->in, false, p->prio, &id);
	if (kernel_has_tcx() && tcx_attached(t, c->in, false)) {
		p->flags |= BPFWD_F_CPU_TCX;
		return true;
	}
	if (!kernel_has_tcx() && !tc_filter_prog(c->in, false, 1, &id)) {
		p->prio = 1;
		return true;
	}
	return false;
}

static int put_entry(struct table *t, const struct port_cfg *c,
		     const struct bpfwd_port *p)
{
	int err = port_put(t, c->in, p, BPF_EXIST);

	if (err)
		p_err("%s: write table %s: %s", c->dev, t->dir, strerror(-err));
	return err;
}

/* replace's steps after the load, ordered so that a kill anywhere
 * leaves the old or the new configuration: the new mode's map entries
 * (which the program in place does not read; in mode map the devmap
 * slot is the target: that one update is the switch), then the entry
 * and the program.  The program decides the mode (and in mode redirect
 * the target); the entry goes before the swap when the program in
 * place does not read it (a specialised copy, flood), after when it
 * does (cpumap reads target and flags).  @run: what is attached as an
 * entry, @id its program (0: none, then attached here).
 */
static int replace_steps(struct table *t, struct port_cfg *c,
			 const struct bpfwd_port *old,
			 const struct bpfwd_port *run, uint32_t id,
			 struct bpfwd_port *p, struct xdp *skel)
{
	bool first = !id || run->mode != BPFWD_MODE_CPUMAP, same;
	int err;

	same = id && xdp_same_prog(id, xdp_prog_fd(skel, prog_of(c->mode)));
	err = maps_set(t, c, p, skel);
	if (!err && cpu_pass(c) && !tc_part_present(t, c, p))
		err = tc_part_attach(t, c, p);
	if (err)
		return err;
	if (first) {
		err = put_entry(t, c, p);
		if (err)
			return err;
	}
	err = attach_prog(t, c, p, first ? p : old, skel, id, same);
	if (err && first)
		port_put(t, c->in, old, BPF_EXIST);
	if (!err && !first)
		err = put_entry(t, c, p);
	return err;
}

/* Changes the port in place, deciding from what is attached, not from
 * the entry (which a killed command may have left ahead of or behind
 * the program): no swap when the program that is wanted is there (the
 * same name, instructions and constants), an atomic swap (in place of
 * that program id) when another is, an attach when none is, so that
 * the same command run again repairs whatever a kill left.
 */
static int xdp_replace(struct table *t, struct port_cfg *c,
		       const struct bpfwd_port *old)
{
	struct xdp_fixed fx;
	struct bpfwd_port p, run;
	struct xdp *skel;
	uint32_t id;
	int err;

	id = xdp_live(t, c->in, old, &run) ?
		xdp_our_prog(c->in, old->flags & BPFWD_F_XDP_GENERIC) : 0;
	err = replace_merge(t, c, old, &run, id);
	if (err)
		return err;
	p = *old;
	fill_entry(&p, c);
	p.prio = old->prio;
	p.flags |= old->flags & (BPFWD_F_CPU_TCX | BPFWD_F_OWN_CLSACT |
				 BPFWD_F_FIXED);
	err = xdp_load(t, prog_of(c->mode), extra_of(c->mode), 0,
		       fixed_of(c, &p, &fx), &skel);
	if (err)
		return err;
	err = replace_steps(t, c, old, &run, id, &p, skel);
	xdp_free(skel);
	if (err) {
		if (c->mode != old->mode)
			maps_clear(t, c->in, old->slot, c->mode, old->mode);
		else if (old->mode == BPFWD_MODE_MAP)
			xdp_devmap_set(t, old->slot, run.target);
		return err;
	}
	maps_clear(t, c->in, old->slot, old->mode, c->mode);
	if (run.mode != old->mode)
		maps_clear(t, c->in, old->slot, run.mode, c->mode);
	if (c->mode == BPFWD_MODE_CPUMAP)
		xdp_kthread_ensure(t);
	return 0;
}

/* Whether the mode's own settings (CPUs, group) are what @c says. */
static bool settings_same(struct table *t, const struct port_cfg *c,
			  const struct bpfwd_port *p)
{
	struct bpfwd_cpus cpus;
	uint32_t group = 0;

	if (c->mode == BPFWD_MODE_FLOOD)
		return !xdp_flood_group(t, c->in, &group) &&
		       group == c->xdp.group.v;
	if (c->mode != BPFWD_MODE_CPUMAP)
		return true;
	if (xdp_cpus_get(t, p->slot, &cpus) || cpus.count != c->xdp.cpus.count ||
	    cpus.qsize != (c->xdp.qsize ?: XDP_QSIZE_DEFAULT))
		return false;
	return !memcmp(cpus.cpu, c->xdp.cpus.cpu,
		       cpus.count * sizeof(cpus.cpu[0]));
}

/* apply: what replace keeps (xdp-mode, how cpumap frames leave) is a
 * del and add; the rest is compared with what runs, program included.
 */
static enum port_diff xdp_differs(struct table *t, const struct port_cfg *c,
				  const struct bpfwd_port *p)
{
	struct bpfwd_port run, want = *p;
	struct xdp_fixed fx, wfx;
	bool fixed;

	if (generic(c) != !!(p->flags & BPFWD_F_XDP_GENERIC) ||
	    cpu_pass(c) != !!(p->flags & BPFWD_F_CPU_PASS))
		return PORT_READD;
	if (!live_fixed(t, c->in, p, &run, &fx))
		return PORT_REPLACE;
	if (run.mode != c->mode || p->mode != c->mode ||
	    run.target != (uint32_t)c->out || p->target != (uint32_t)c->out)
		return PORT_REPLACE;
	fixed = fixed_of(c, &want, &wfx);
	if ((fixed && memcmp(&fx, &wfx, sizeof(fx))) ||
	    (!fixed && fx.ifindex))
		return PORT_REPLACE;
	if (!settings_same(t, c, p))
		return PORT_REPLACE;
	if (c->xdp.fix_offload && xdp_offload_fixable(c->in, generic(c)))
		return PORT_REPLACE;
	return PORT_SAME;
}

static bool xdp_port_attached(struct table *t, uint32_t ifindex,
			      const struct bpfwd_port *p)
{
	return xdp_our_prog(ifindex, p->flags & BPFWD_F_XDP_GENERIC);
}

static void xdp_show(struct table *t, uint32_t ifindex,
		     const struct bpfwd_port *p)
{
	char list[512];
	struct bpfwd_cpus c;
	uint32_t group;

	if (p->mode == BPFWD_MODE_CPUMAP && !xdp_cpus_get(t, p->slot, &c)) {
		format_cpu_list(&c, list, sizeof(list));
		print_string(PRINT_ANY, "cpus", " cpus %s", list);
		print_u64(PRINT_ANY, "qsize", " qsize %llu", c.qsize);
		print_string(PRINT_ANY, "then", " then %s",
			     p->target && !(p->flags & BPFWD_F_CPU_PASS) ?
			     "redirect" : "pass");
		if (p->flags & BPFWD_F_CPU_PASS)
			print_string(PRINT_ANY, "then_hook", " and %s redirect",
				     p->flags & BPFWD_F_CPU_TCX ? "tcx" : "tc");
	}
	if (p->mode == BPFWD_MODE_FLOOD && !xdp_flood_group(t, ifindex, &group))
		print_u64(PRINT_ANY, "group", " group %llu", group);
	print_string(PRINT_ANY, "hook", " hook %s", "xdp");
	print_string(PRINT_ANY, "xdp_mode", " xdp-mode %s",
		     p->flags & BPFWD_F_XDP_GENERIC ? "generic" : "native");
}

static int read_percpu(struct table *t, const char *map, uint32_t key,
		       void *vals)
{
	int fd = xdp_map_fd(t, map), err;

	if (fd < 0)
		return fd;
	err = bpf_map_lookup_elem(fd, &key, vals) ? -errno : 0;
	close(fd);
	return err;
}

/* The cpumap side of a cpumap port: its CPU list, what the cpumap
 * program did per CPU and the namespace's kthread figures per CPU.
 */
struct xdp_cpumap_stats {
	struct hook_stats h;
	struct bpfwd_cpus cpus;
	struct bpfwd_cpustat *cs;	/* nr_cpus entries */
	struct bpfwd_kthread *k;	/* nr_cpus entries, or NULL */
};

struct xdp_stat_field {
	const char *name;
	size_t off;
};

static const struct xdp_stat_field cpustat_fields[] = {
	{ "packets", offsetof(struct bpfwd_cpustat, packets) },
	{ "passed", offsetof(struct bpfwd_cpustat, passed) },
	{ "redirected", offsetof(struct bpfwd_cpustat, redirected) },
	{ "err_redirect", offsetof(struct bpfwd_cpustat, err_redirect) },
	{ "no_cpu", offsetof(struct bpfwd_cpustat, no_cpu) },
};

static const struct xdp_stat_field kthread_fields[] = {
	{ "processed", offsetof(struct bpfwd_kthread, processed) },
	{ "drops", offsetof(struct bpfwd_kthread, drops) },
	{ "sched", offsetof(struct bpfwd_kthread, sched) },
};

static void xdp_stats_free(struct hook_stats *h)
{
	struct xdp_cpumap_stats *m = (struct xdp_cpumap_stats *)h;

	if (!m)
		return;
	free(m->cs);
	free(m->k);
	free(m);
}

static struct hook_stats *xdp_stats_read(struct table *t,
					 const struct bpfwd_port *p)
{
	struct xdp_cpumap_stats *m;

	if (t->stock || p->hook != BPFWD_HOOK_XDP ||
	    p->mode != BPFWD_MODE_CPUMAP)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->h.ops = &hook_xdp;
	m->cs = calloc(nr_cpus(), sizeof(*m->cs));
	m->k = calloc(nr_cpus(), sizeof(*m->k));
	if (!m->cs || !m->k || xdp_cpus_get(t, p->slot, &m->cpus) ||
	    read_percpu(t, BPFWD_MAP_CPUSTAT, p->slot, m->cs)) {
		xdp_stats_free(&m->h);
		return NULL;
	}
	if (read_percpu(t, BPFWD_MAP_KTHREAD, 0, m->k)) {
		free(m->k);
		m->k = NULL;
	}
	return &m->h;
}

/* The fields of @cur: counts, or with @prev rates over @secs (JSON:
 * under NAME_per_sec, as every rate).
 */
static void print_stat_fields(const struct xdp_stat_field *f, size_t n,
			      const void *cur, const void *prev, double secs)
{
	char fmt[32], key[32];
	uint64_t v, p;
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(&v, (const char *)cur + f[i].off, sizeof(v));
		if (!prev) {
			snprintf(fmt, sizeof(fmt), " %s %%llu", f[i].name);
			print_u64(PRINT_ANY, f[i].name, fmt, v);
			continue;
		}
		memcpy(&p, (const char *)prev + f[i].off, sizeof(p));
		snprintf(fmt, sizeof(fmt), " %s/s %%.0f", f[i].name);
		snprintf(key, sizeof(key), "%s_per_sec", f[i].name);
		print_double(PRINT_ANY, key, fmt, counter_rate(v, p, secs));
	}
}

static void xdp_stats_print(const struct hook_stats *hm,
			    const struct hook_stats *hprev, double secs)
{
	const struct xdp_cpumap_stats *m = (const void *)hm;
	const struct xdp_cpumap_stats *prev = (const void *)hprev;
	uint32_t i, cpu;

	/* the port's CPUs, and any other that did work for it */
	open_json_array("cpumap");
	for (cpu = 0; cpu < (uint32_t)nr_cpus(); cpu++) {
		bool listed = false;

		for (i = 0; i < m->cpus.count && i < BPFWD_MAX_CPU_LIST; i++)
			listed |= m->cpus.cpu[i] == cpu;
		if (!listed && !m->cs[cpu].packets && !m->cs[cpu].no_cpu)
			continue;
		open_json_object(NULL);
		print_u64(PRINT_ANY, "cpu", "\n    cpumap cpu%llu:", cpu);
		print_bool(PRINT_JSON, "listed", NULL, listed);
		if (!listed)
			print_string(PRINT_FP, NULL, "%s", " (not listed)");
		print_stat_fields(cpustat_fields, ARRAY_SIZE(cpustat_fields),
				  &m->cs[cpu], prev ? &prev->cs[cpu] : NULL,
				  secs);
		if (m->k && (!prev || prev->k)) {
			open_json_object("kthread");
			print_string(PRINT_FP, NULL, "%s", "  kthread");
			print_stat_fields(kthread_fields,
					  ARRAY_SIZE(kthread_fields), &m->k[cpu],
					  prev ? &prev->k[cpu] : NULL, secs);
			close_json_object();
		}
		close_json_object();
	}
	close_json_array();
}

static void xdp_probe(void)
{
	struct if_nameindex *ifs = if_nameindex(), *i;
	bool known = true;
	uint64_t f;

	open_json_array("xdp");
	print_string(PRINT_FP, NULL, "%-14s", "native xdp");
	for (i = ifs; i && i->if_index; i++) {
		int err;

		f = 0;
		err = netdev_xdp_features(i->if_index, &f);

		if (err == -EOPNOTSUPP) {
			known = false;
			break;
		}
		open_json_object(NULL);
		print_string(PRINT_ANY, "dev", " %s", i->if_name);
		print_u64(PRINT_JSON, "ifindex", NULL, i->if_index);
		print_bool(PRINT_JSON, "native", NULL, f & BPFWD_XDP_ACT_BASIC);
		print_bool(PRINT_JSON, "redirect", NULL,
			   f & BPFWD_XDP_ACT_REDIRECT);
		print_bool(PRINT_JSON, "ndo_xmit", NULL,
			   f & BPFWD_XDP_ACT_NDO_XMIT);
		print_string(PRINT_FP, NULL, " (%s)",
			     !(f & BPFWD_XDP_ACT_BASIC) ? "generic only" :
			     f & BPFWD_XDP_ACT_NDO_XMIT ? "native, takes redirects" :
			     "native, takes no redirects");
		close_json_object();
	}
	close_json_array();
	if (!known)
		print_string(PRINT_FP, NULL, "%s",
			     " unknown (needs Linux 6.3 to tell)");
	print_nl();
	if (ifs)
		if_freenameindex(ifs);
}

const struct hook_ops hook_xdp = {
	.name = "xdp",
	.id = BPFWD_HOOK_XDP,
	.kws = xdp_kws,
	.args = "XDP_ARGS",
	.parse = xdp_parse,
	.prepare = xdp_prepare,
	.attach = xdp_port_attach,
	.replace = xdp_replace,
	.detach = xdp_port_detach,
	.attached = xdp_port_attached,
	.live = xdp_live,
	.differs = xdp_differs,
	.show = xdp_show,
	.stats_read = xdp_stats_read,
	.stats_print = xdp_stats_print,
	.stats_free = xdp_stats_free,
	.probe = xdp_probe,
};
