// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * hook none: only the table entry, in the stock table that stock tc
 * shares (tc/globals), for a program stock tc loads itself (`tc filter
 * add ... bpf da obj redirect.o sec redirect_xmit`).  bpfwd attaches
 * nothing, so at and prio do not apply, and the section tc loaded
 * decides the mode.
 */
#include <errno.h>

#include "hook.h"
#include "lib/util.h"

static int none_parse(struct port_cfg *c, bool replace, const char *foreign)
{
	if (!foreign && (c->tc.at || c->tc.prio))
		return usage_err("hook none attaches nothing: at and prio do not apply");
	return hook_tc_parse(c, replace, foreign);
}

static int none_prepare(struct port_cfg *c, struct bpfwd_port *p)
{
	p->prio = 0;
	p->flags = c->tc.to_ingress ? BPFWD_F_INGRESS : 0;
	return 0;
}

static int none_attach(struct table *t, struct port_cfg *c,
		       struct bpfwd_port *p)
{
	return 0;
}

static int none_replace(struct table *t, struct port_cfg *c,
			const struct bpfwd_port *old)
{
	if (c->mode != old->mode ||
	    hook_tc_want_ingress(c, old) !=
	    !!(old->flags & BPFWD_F_INGRESS)) {
		p_err("%s: hook none: the section tc loaded decides the mode (%s%s); replace can change the target only, load another section with tc filter replace",
		      c->dev, port_mode_name(old->mode),
		      old->flags & BPFWD_F_INGRESS ? " to-ingress" : "");
		return -EINVAL;
	}
	return hook_tc_replace(t, c, old);
}

static int none_detach(struct table *t, uint32_t ifindex, const char *dev,
		       const struct bpfwd_port *p)
{
	return 0;
}

const struct hook_ops hook_none = {
	.name = "none",
	.id = BPFWD_HOOK_NONE,
	.stock = true,
	.kws = hook_tc_kws,
	.args = "TC_ARGS",
	.parse = none_parse,
	.prepare = none_prepare,
	.attach = none_attach,
	.replace = none_replace,
	.differs = hook_tc_differs,
	.detach = none_detach,
	.show = hook_tc_show,
};
