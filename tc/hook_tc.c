// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * hook tc: the port's program of redirect.o in a cls_bpf direct-action
 * filter on IN's clsact qdisc, at a prio.  The functions here serve the
 * whole tc family (hook_tcx.c, hook_act.c, hook_none.c): the same
 * keywords (to-ingress, at, prio), the same programs, one attach call
 * that differs.
 */
#include <errno.h>
#include <net/if.h>
#include <string.h>
#include <bpf/bpf.h>

#include "hook.h"
#include "lib/attach.h"
#include "lib/json.h"
#include "lib/loader.h"
#include "lib/util.h"

static const char *const dir_words[] = {
	[PORT_AT_INGRESS] = "ingress",
	[PORT_AT_EGRESS] = "egress",
};

const struct kw hook_tc_kws[] = {
	KW_FLAG("to-ingress", struct port_cfg, tc.to_ingress, 0,
		"deliver on OUT's ingress instead of sending it out"),
	KW_ENUM("at", struct port_cfg, tc.at, dir_words, "direction", "DIR",
		0, "run on IN's ingress (default) or egress"),
	KW_U32("prio", struct port_cfg, tc.prio, 1, 0xffff, "N", 0,
	       "filter priority (tc, act; default 1)"),
	KW_END
};

/* The family's names: a hook file calls no other hook's table. */
static const char *family_name(uint32_t hook)
{
	switch (hook) {
	case BPFWD_HOOK_TC:
		return "tc";
	case BPFWD_HOOK_TCX:
		return "tcx";
	case BPFWD_HOOK_ACT:
		return "act";
	}
	return "none";
}

int hook_tc_parse(struct port_cfg *c, bool replace, const char *foreign)
{
	if (foreign)
		return usage_err("hook %s does not take %s (it is for another hook)",
				 family_name(c->hook), foreign);
	if (!c->to)
		return usage_err("missing \"to OUT\"");
	if (c->mode > BPFWD_MODE_MIRROR)
		return usage_err("mode %s is an XDP mode; hook %s has redirect, clone, mirror, peer and neigh",
				 port_mode_name(c->mode), family_name(c->hook));
	if (c->tc.to_ingress &&
	    (c->mode == BPFWD_MODE_PEER || c->mode == BPFWD_MODE_NEIGH))
		return usage_err("to-ingress does not apply to mode %s",
				 port_mode_name(c->mode));
	if (c->mode == BPFWD_MODE_PEER && c->tc.at == PORT_AT_EGRESS)
		return usage_err("mode peer works only at ingress");
	return 0;
}

static enum rd_prog prog_of(uint32_t mode, bool to_ingress)
{
	switch (mode) {
	case BPFWD_MODE_CLONE:
		return to_ingress ? RD_CLONE_RECV : RD_CLONE_XMIT;
	case BPFWD_MODE_MIRROR:
		return to_ingress ? RD_MIRROR_RECV : RD_MIRROR_XMIT;
	case BPFWD_MODE_PEER:
		return RD_PEER;
	case BPFWD_MODE_NEIGH:
		return RD_NEIGH;
	}
	return to_ingress ? RD_RECV : RD_XMIT;
}

/* Loads the program of entry @p and attaches it to IN (@replace: in
 * place of the one there).
 */
static int load_attach(struct table *t, const struct port_cfg *c,
		       const struct bpfwd_port *p, bool replace,
		       bool *own_clsact)
{
	struct attach_req r = {
		.t = t, .ifindex = c->in, .dev = c->dev,
		.egress = p->flags & BPFWD_F_AT_EGRESS,
		.act = p->hook == BPFWD_HOOK_ACT, .prio = p->prio,
		.replace = replace,
	};
	struct redirect *skel;
	int err;

	err = loader_load_prog(t->dir,
			       prog_of(p->mode, p->flags & BPFWD_F_INGRESS),
			       r.act ? BPF_PROG_TYPE_SCHED_ACT :
				       BPF_PROG_TYPE_SCHED_CLS,
			       &skel, &r.prog_fd, &r.prog_name);
	if (err)
		return err;
	err = p->hook == BPFWD_HOOK_TCX ? tcx_attach(&r) :
					  tc_filter_attach(&r);
	loader_free(skel);
	if (own_clsact)
		*own_clsact = r.own_clsact;
	return err;
}

int hook_tc_prepare(struct port_cfg *c, struct bpfwd_port *p)
{
	p->prio = c->tc.prio ?: 1;
	p->flags = (c->tc.to_ingress ? BPFWD_F_INGRESS : 0) |
		   (c->tc.at == PORT_AT_EGRESS ? BPFWD_F_AT_EGRESS : 0);
	return 0;
}

int hook_tc_attach(struct table *t, struct port_cfg *c,
		   struct bpfwd_port *p)
{
	bool own = false;
	int err;

	err = load_attach(t, c, p, false, &own);
	if (err || !own)
		return err;
	p->flags |= BPFWD_F_OWN_CLSACT;
	port_put(t, c->in, p, BPF_EXIST);
	return 0;
}

/* Changes target and/or mode in place: the entry first, then (when the
 * mode needs another program) an atomic program swap on the same hook.
 * If the swap fails the old entry is put back.
 */
int hook_tc_replace(struct table *t, struct port_cfg *c,
		    const struct bpfwd_port *old)
{
	bool egress = old->flags & BPFWD_F_AT_EGRESS;
	struct bpfwd_port p;
	int err;

	if (c->tc.at && (c->tc.at == PORT_AT_EGRESS) != egress) {
		p_err("%s: replace keeps the direction; del and add the port",
		      c->dev);
		return -EINVAL;
	}
	if (c->tc.prio && c->tc.prio != old->prio) {
		p_err("%s: replace keeps the prio (%u); del and add the port",
		      c->dev, old->prio);
		return -EINVAL;
	}
	if (c->mode == BPFWD_MODE_PEER && egress) {
		p_err("%s: mode peer works only at ingress", c->dev);
		return -EINVAL;
	}
	p = *old;
	p.target = c->out;
	p.mode = c->mode;
	p.flags &= ~BPFWD_F_INGRESS;
	p.flags |= c->tc.to_ingress ? BPFWD_F_INGRESS : 0;
	err = port_put(t, c->in, &p, BPF_EXIST);
	if (err) {
		p_err("%s: write table %s: %s", c->dev, t->dir, strerror(-err));
		return err;
	}
	if (p.hook == BPFWD_HOOK_NONE ||
	    prog_of(p.mode, p.flags & BPFWD_F_INGRESS) ==
	    prog_of(old->mode, old->flags & BPFWD_F_INGRESS))
		return 0;
	err = load_attach(t, c, &p, true, NULL);
	if (err)
		port_put(t, c->in, old, BPF_EXIST);
	return err;
}

int hook_tc_detach(struct table *t, uint32_t ifindex, const char *dev,
		   const struct bpfwd_port *p)
{
	bool egress = p->flags & BPFWD_F_AT_EGRESS;

	if (p->hook == BPFWD_HOOK_TCX)
		return tcx_detach(t, ifindex, dev, egress);
	return tc_filter_detach(ifindex, dev, egress, p->prio,
				p->flags & BPFWD_F_OWN_CLSACT);
}

bool hook_tc_attached(struct table *t, uint32_t ifindex,
		      const struct bpfwd_port *p)
{
	bool egress = p->flags & BPFWD_F_AT_EGRESS;

	if (p->hook == BPFWD_HOOK_TCX)
		return tcx_attached(t, ifindex, egress);
	return tc_filter_attached(ifindex, egress, p->prio);
}

void hook_tc_show(struct table *t, uint32_t ifindex,
		  const struct bpfwd_port *p)
{
	print_bool(PRINT_JSON, "to_ingress", NULL, p->flags & BPFWD_F_INGRESS);
	if (p->flags & BPFWD_F_INGRESS)
		print_string(PRINT_FP, NULL, "%s", " to-ingress");
	print_string(PRINT_ANY, "hook", " hook %s", family_name(p->hook));
	if (p->hook == BPFWD_HOOK_NONE)
		return;
	print_string(PRINT_ANY, "at", " at %s",
		     p->flags & BPFWD_F_AT_EGRESS ? "egress" : "ingress");
	if (p->hook != BPFWD_HOOK_TCX)
		print_u64(PRINT_ANY, "prio", " prio %llu", p->prio);
}

const struct hook_ops hook_tc = HOOK_TC_FAMILY("tc", BPFWD_HOOK_TC);
