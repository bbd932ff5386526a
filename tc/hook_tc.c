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
#include <unistd.h>
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
	if (!c->to && !replace)
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

/* The family's programs by the name the kernel knows them by (the
 * function names of bpf/redirect.bpf.c): port show and replace go by
 * the program that is attached, not by what the entry says.
 */
static const struct {
	const char *name;
	uint32_t mode;
	bool to_ingress;
} prog_names[] = {
	{ "rd_xmit", BPFWD_MODE_REDIRECT, false },
	{ "rd_recv", BPFWD_MODE_REDIRECT, true },
	{ "clone_xmit", BPFWD_MODE_CLONE, false },
	{ "clone_recv", BPFWD_MODE_CLONE, true },
	{ "mir_xmit", BPFWD_MODE_MIRROR, false },
	{ "mir_recv", BPFWD_MODE_MIRROR, true },
	{ "rd_peer", BPFWD_MODE_PEER, false },
	{ "rd_neigh", BPFWD_MODE_NEIGH, false },
};

/* The request that attaches the program of entry @p to IN. */
static void attach_req_of(struct attach_req *r, struct table *t,
			  const struct port_cfg *c, const struct bpfwd_port *p)
{
	memset(r, 0, sizeof(*r));
	r->t = t;
	r->ifindex = c->in;
	r->dev = c->dev;
	r->egress = p->flags & BPFWD_F_AT_EGRESS;
	r->act = p->hook == BPFWD_HOOK_ACT;
	r->prio = p->prio;
}

/* Loads the program of entry @p into @r (free @skel after). */
static int prog_load(struct table *t, const struct bpfwd_port *p,
		     struct attach_req *r, struct redirect **skel)
{
	return loader_load_prog(t->dir,
				prog_of(p->mode, p->flags & BPFWD_F_INGRESS),
				r->act ? BPF_PROG_TYPE_SCHED_ACT :
					 BPF_PROG_TYPE_SCHED_CLS,
				skel, &r->prog_fd, &r->prog_name);
}

static int prog_attach(struct attach_req *r, uint32_t hook)
{
	return hook == BPFWD_HOOK_TCX ? tcx_attach(r) : tc_filter_attach(r);
}

/* Loads the program of entry @p and attaches it to IN. */
static int load_attach(struct table *t, const struct port_cfg *c,
		       const struct bpfwd_port *p, bool *own_clsact)
{
	struct redirect *skel;
	struct attach_req r;
	int err;

	attach_req_of(&r, t, c, p);
	err = prog_load(t, p, &r, &skel);
	if (err)
		return err;
	err = prog_attach(&r, p->hook);
	loader_free(skel);
	*own_clsact = r.own_clsact;
	return err;
}

/* The program attached for port @p: 0 and its id (0: a u32 + act_bpf
 * filter, whose program the dump does not name), or -ENOENT.
 */
static int attached_id(struct table *t, uint32_t ifindex,
		       const struct bpfwd_port *p, uint32_t *id)
{
	bool egress = p->flags & BPFWD_F_AT_EGRESS;

	*id = 0;
	if (p->hook == BPFWD_HOOK_TCX)
		return tcx_prog(t, ifindex, egress, id);
	return tc_filter_prog(ifindex, egress, p->prio, id);
}

/* The name and tag of program @id (@fd when @id is 0). */
static int prog_ident(uint32_t id, int fd, char *name, uint8_t *tag)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	int err, own = -1;

	if (id) {
		own = fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			return -errno;
	}
	err = bpf_obj_get_info_by_fd(fd, &info, &len);
	if (own >= 0)
		close(own);
	if (err)
		return err;
	memcpy(name, info.name, BPF_OBJ_NAME_LEN);
	memcpy(tag, info.tag, BPF_TAG_SIZE);
	return 0;
}

/* Whether program @id is the program loaded as @fd: the same name and
 * the same instructions (tag).
 */
static bool same_prog(uint32_t id, int fd)
{
	char n1[BPF_OBJ_NAME_LEN], n2[BPF_OBJ_NAME_LEN];
	uint8_t t1[BPF_TAG_SIZE], t2[BPF_TAG_SIZE];

	return !prog_ident(id, -1, n1, t1) && !prog_ident(0, fd, n2, t2) &&
	       !strcmp(n1, n2) && !memcmp(t1, t2, BPF_TAG_SIZE);
}

/* Makes the program of entry @p the one on IN, deciding from what is
 * attached, not from the old entry: nothing when it is there already,
 * an atomic swap when another program is, an attach when none is (an
 * add killed before its attach, a filter someone removed).  Sets
 * BPFWD_F_OWN_CLSACT in @p when it made the clsact qdisc.
 */
static int ensure_prog(struct table *t, const struct port_cfg *c,
		       struct bpfwd_port *p)
{
	struct redirect *skel;
	struct attach_req r;
	uint32_t id;
	int err;

	attach_req_of(&r, t, c, p);
	err = prog_load(t, p, &r, &skel);
	if (err)
		return err;
	r.replace = !attached_id(t, c->in, p, &id);
	if (r.replace && id && same_prog(id, r.prog_fd)) {
		loader_free(skel);
		return 0;
	}
	/* a link pin whose program or device went away */
	if (!r.replace && p->hook == BPFWD_HOOK_TCX)
		tcx_detach(t, c->in, c->dev, r.egress);
	err = prog_attach(&r, p->hook);
	loader_free(skel);
	if (!err && r.own_clsact)
		p->flags |= BPFWD_F_OWN_CLSACT;
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

	err = load_attach(t, c, p, &own);
	if (err || !own)
		return err;
	p->flags |= BPFWD_F_OWN_CLSACT;
	port_put(t, c->in, p, BPF_EXIST);
	return 0;
}

bool hook_tc_want_ingress(const struct port_cfg *c,
			  const struct bpfwd_port *old)
{
	if (c->mode == BPFWD_MODE_PEER || c->mode == BPFWD_MODE_NEIGH)
		return false;
	if (c->to)
		return c->tc.to_ingress;
	return c->tc.to_ingress || (old->flags & BPFWD_F_INGRESS);
}

/* Changes target and/or mode in place.  The program comes first (when
 * the port needs another one: an atomic swap), then the entry (one map
 * update): the program alone decides the mode, the entry the target,
 * so a kill between the two leaves the new mode with the target of
 * before, which the same command run again completes.  Without "to",
 * the target and to-ingress stay.
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
	if (c->to)
		p.target = c->out;
	p.mode = c->mode;
	p.flags &= ~BPFWD_F_INGRESS;
	p.flags |= hook_tc_want_ingress(c, old) ? BPFWD_F_INGRESS : 0;
	if (p.hook != BPFWD_HOOK_NONE) {
		err = ensure_prog(t, c, &p);
		if (err)
			return err;
	}
	err = port_put(t, c->in, &p, BPF_EXIST);
	if (err)
		p_err("%s: write table %s: %s", c->dev, t->dir, strerror(-err));
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
	uint32_t id;

	return !attached_id(t, ifindex, p, &id);
}

bool hook_tc_live(struct table *t, uint32_t ifindex,
		  const struct bpfwd_port *p, struct bpfwd_port *live)
{
	char name[BPF_OBJ_NAME_LEN];
	uint8_t tag[BPF_TAG_SIZE];
	uint32_t id;
	size_t i;

	*live = *p;
	if (attached_id(t, ifindex, p, &id))
		return false;
	if (!id || prog_ident(id, -1, name, tag))
		return true;
	for (i = 0; i < ARRAY_SIZE(prog_names); i++) {
		if (strcmp(prog_names[i].name, name))
			continue;
		live->mode = prog_names[i].mode;
		live->flags &= ~BPFWD_F_INGRESS;
		live->flags |= prog_names[i].to_ingress ? BPFWD_F_INGRESS : 0;
	}
	return true;
}

enum port_diff hook_tc_differs(struct table *t, const struct port_cfg *c,
			       const struct bpfwd_port *p)
{
	uint32_t prio = p->hook == BPFWD_HOOK_NONE ? 0 : c->tc.prio ?: 1;
	bool egress = c->tc.at == PORT_AT_EGRESS;
	bool ingress = c->tc.to_ingress;
	struct bpfwd_port run;

	if (egress != !!(p->flags & BPFWD_F_AT_EGRESS) || prio != p->prio)
		return PORT_READD;
	if (p->target != (uint32_t)c->out || p->mode != c->mode ||
	    ingress != !!(p->flags & BPFWD_F_INGRESS))
		return PORT_REPLACE;
	if (p->hook == BPFWD_HOOK_NONE)
		return PORT_SAME;
	/* the program that runs, not only the entry */
	if (!hook_tc_live(t, c->in, p, &run) || run.mode != p->mode ||
	    (run.flags & BPFWD_F_INGRESS) != (p->flags & BPFWD_F_INGRESS))
		return PORT_REPLACE;
	return PORT_SAME;
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
