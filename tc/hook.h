/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * Hooks: where a port's program runs (tc, tcx, act, none, xdp).  Each
 * is one struct hook_ops in its own file, tc/hook_<name>.c, and one
 * entry in the table of tc/hook.c, as iproute2 keeps one struct
 * filter_util per filter kind.  The port command parses the common
 * keywords (dev, to, mode, hook) and then calls the chosen hook's ops;
 * a hook calls only tc/lib/, never the command or another hook's file
 * (the tc family shares hook_tc.c's functions, which call no hook).
 */
#ifndef __BPFWD_HOOK_H
#define __BPFWD_HOOK_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/params.h"
#include "lib/ports.h"
#include "port.h"

struct hook_ops;

/* A hook's own figures of a port start with this. */
struct hook_stats {
	const struct hook_ops *ops;
};

struct hook_ops {
	const char *name;
	uint32_t id;			/* enum bpfwd_hook */
	bool stock;			/* entries go to the stock table */
	/* the hook's own keywords (fields of struct port_cfg), and their
	 * name in the grammar ("TC_ARGS"); hooks may share a table
	 */
	const struct kw *kws;
	const char *args;
	/* Usage checks of @c (one line, BPFWD_EXIT_USAGE).  @foreign:
	 * a keyword of another hook that was given, or NULL.
	 */
	int (*parse)(struct port_cfg *c, bool replace, const char *foreign);
	/* add: the checks that need the system (before anything is
	 * written), and the hook's part of the new entry @p.
	 */
	int (*prepare)(struct port_cfg *c, struct bpfwd_port *p);
	/* add: the program(s) and the hook's maps, after the entry @p is
	 * in @t; undoes its own steps on failure.  May update @p (and
	 * then writes it).
	 */
	int (*attach)(struct table *t, struct port_cfg *c,
		      struct bpfwd_port *p);
	/* replace: checks, then the new entry and program in place of
	 * @old; on failure @old is what is left.
	 */
	int (*replace)(struct table *t, struct port_cfg *c,
		       const struct bpfwd_port *old);
	/* apply: how port @p (on c->in, hook c->hook) differs from what
	 * @c describes: PORT_SAME (program included), PORT_REPLACE (port
	 * replace makes it so) or PORT_READD (what replace keeps differs:
	 * del and add).  NULL: the hook cannot tell, PORT_REPLACE.
	 */
	enum port_diff (*differs)(struct table *t, const struct port_cfg *c,
				  const struct bpfwd_port *p);
	/* Undoes attach() before the entry goes. */
	int (*detach)(struct table *t, uint32_t ifindex, const char *dev,
		      const struct bpfwd_port *p);
	/* Whether the program is still in place; NULL: nothing to be. */
	bool (*attached)(struct table *t, uint32_t ifindex,
			 const struct bpfwd_port *p);
	/* What is attached, as an entry: @p with the mode (and flags)
	 * of the program in place, for show and apply; false when
	 * nothing is.  NULL: the entry is what runs (attached() says
	 * whether it does).
	 */
	bool (*live)(struct table *t, uint32_t ifindex,
		     const struct bpfwd_port *p, struct bpfwd_port *live);
	/* port show: the line between "mode M" and the attached state,
	 * the hook's name included.
	 */
	void (*show)(struct table *t, uint32_t ifindex,
		     const struct bpfwd_port *p);
	/* stats: the hook's own figures of a port (NULL: none). */
	struct hook_stats *(*stats_read)(struct table *t,
					 const struct bpfwd_port *p);
	void (*stats_print)(const struct hook_stats *m,
			    const struct hook_stats *prev, double secs);
	void (*stats_free)(struct hook_stats *m);
	/* probe: the hook's line, or NULL */
	void (*probe)(void);
};

/* The hooks, indexed by enum bpfwd_hook. */
const struct hook_ops *hook_by_id(uint32_t id);
const struct hook_ops *hook_by_name(const char *name);
const char *hook_name(uint32_t id);
/* The default hook of port add: tcx where the kernel has it, else tc. */
uint32_t hook_default(void);

/* stats and probe: the hook of port @p's figures, and every hook's
 * probe line.
 */
struct hook_stats *hook_stats_read(struct table *t,
				   const struct bpfwd_port *p);
void hook_stats_print(const struct hook_stats *m,
		      const struct hook_stats *prev, double secs);
void hook_stats_free(struct hook_stats *m);
void hook_probe_print(void);

/* The tc family (tc, tcx, act), in hook_tc.c. */
extern const struct kw hook_tc_kws[];
int hook_tc_parse(struct port_cfg *c, bool replace, const char *foreign);
int hook_tc_prepare(struct port_cfg *c, struct bpfwd_port *p);
int hook_tc_attach(struct table *t, struct port_cfg *c,
		   struct bpfwd_port *p);
int hook_tc_replace(struct table *t, struct port_cfg *c,
		    const struct bpfwd_port *old);
int hook_tc_detach(struct table *t, uint32_t ifindex, const char *dev,
		   const struct bpfwd_port *p);
bool hook_tc_attached(struct table *t, uint32_t ifindex,
		      const struct bpfwd_port *p);
bool hook_tc_live(struct table *t, uint32_t ifindex,
		  const struct bpfwd_port *p, struct bpfwd_port *live);
enum port_diff hook_tc_differs(struct table *t, const struct port_cfg *c,
			       const struct bpfwd_port *p);
/* replace: whether the port goes to OUT's ingress; without "to" it
 * keeps the target's to-ingress of @old.
 */
bool hook_tc_want_ingress(const struct port_cfg *c,
			  const struct bpfwd_port *old);
void hook_tc_show(struct table *t, uint32_t ifindex,
		  const struct bpfwd_port *p);

/* The ops of a tc family hook: all but the name are hook_tc.c's. */
#define HOOK_TC_FAMILY(n, i) {				\
	.name = n, .id = i,				\
	.kws = hook_tc_kws, .args = "TC_ARGS",		\
	.parse = hook_tc_parse,				\
	.prepare = hook_tc_prepare,			\
	.attach = hook_tc_attach,			\
	.replace = hook_tc_replace,			\
	.detach = hook_tc_detach,			\
	.attached = hook_tc_attached,			\
	.live = hook_tc_live,				\
	.differs = hook_tc_differs,			\
	.show = hook_tc_show,				\
}

extern const struct hook_ops hook_none, hook_tc, hook_tcx, hook_act,
	hook_xdp;

#endif /* __BPFWD_HOOK_H */
