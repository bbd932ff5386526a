// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd port: table entries and the programs that act on them.
 *
 *   port add dev IN to OUT [mode M] [to-ingress] [at DIR] [hook H] [prio N]
 *
 * A port is one entry in a table (ingress ifindex -> target) plus, unless
 * hook is none, one program attached to IN.  Every step that can fail is
 * undone on failure, so a failed command leaves what was there before.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "bpfwd.h"
#include "lib/attach.h"
#include "lib/json.h"
#include "lib/loader.h"
#include "lib/pins.h"
#include "lib/ports.h"
#include "lib/util.h"
#include "xdp.h"

#define HELP_SPEC_PORT \
	"PORT_SPEC := dev IN to OUT [ mode MODE ] [ to-ingress ] [ at DIR ]\n" \
	"             [ hook HOOK ] [ prio N ]\n" \
	"MODE := { redirect | clone | mirror | peer | neigh }\n" \
	"DIR  := { ingress | egress }\n" \
	"HOOK := { tc | tcx | act | none }\n" \
	HELP_SPEC_XDP

int port_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Usage: bpfwd port { add | replace } { PORT_SPEC | XDP_SPEC }\n"
	       "       bpfwd port del dev IN [ force ]\n"
	       "       bpfwd port show [ dev IN ]\n"
	       "       bpfwd port flush\n"
	       HELP_SPEC_PORT);
	return BPFWD_EXIT_OK;
}

static const char *const mode_names[] = {
	[BPFWD_MODE_REDIRECT] = "redirect",
	[BPFWD_MODE_CLONE] = "clone",
	[BPFWD_MODE_PEER] = "peer",
	[BPFWD_MODE_NEIGH] = "neigh",
	[BPFWD_MODE_MIRROR] = "mirror",
};

static const char *mode_name(uint32_t m)
{
	return m < ARRAY_SIZE(mode_names) ? mode_names[m] : xdp_mode_name(m);
}

struct port_cfg {
	const char *dev, *to;
	int in, out;
	uint32_t mode, hook, prio;
	bool to_ingress, egress;
	bool has_mode, has_hook, has_prio, has_at, has_to;
	bool force;		/* del: also another namespace's stock entry */
};

static int lookup_word(const char *arg, const char *const *names, int n,
		       const char *what, uint32_t *out)
{
	int i;

	for (i = 0; i < n; i++) {
		if (names[i] && is_word(arg, names[i])) {
			*out = i;
			return 0;
		}
	}
	return usage_err("unknown %s \"%s\"", what, arg);
}

static int parse_port(int argc, char **argv, struct port_cfg *c, bool full)
{
	static const char *const hooks[] = { "none", "tc", "tcx", "act" };
	static const char *const dirs[] = { "ingress", "egress" };
	uint32_t v = 0;

	memset(c, 0, sizeof(*c));
	c->prio = 1;
	for (; argc > 0; argc--, argv++) {
		if (is_word(*argv, "dev")) {
			NEXT_ARG();
			c->dev = *argv;
		} else if (!full && is_word(*argv, "force") &&
			   opts.cmd && !strcmp(opts.cmd, "port del")) {
			c->force = true;
		} else if (full && is_word(*argv, "to")) {
			NEXT_ARG();
			c->to = *argv;
			c->has_to = true;
		} else if (full && is_word(*argv, "mode")) {
			NEXT_ARG();
			if (lookup_word(*argv, mode_names,
					ARRAY_SIZE(mode_names), "mode",
					&c->mode))
				return BPFWD_EXIT_USAGE;
			c->has_mode = true;
		} else if (full && is_word(*argv, "to-ingress")) {
			c->to_ingress = true;
		} else if (full && is_word(*argv, "at")) {
			NEXT_ARG();
			if (lookup_word(*argv, dirs, 2, "direction", &v))
				return BPFWD_EXIT_USAGE;
			c->egress = v;
			c->has_at = true;
		} else if (full && is_word(*argv, "hook")) {
			NEXT_ARG();
			if (lookup_word(*argv, hooks, ARRAY_SIZE(hooks),
					"hook", &c->hook))
				return BPFWD_EXIT_USAGE;
			c->has_hook = true;
		} else if (full && is_word(*argv, "prio")) {
			NEXT_ARG();
			if (arg_u32("prio", *argv, &c->prio, 1, 0xffff))
				return BPFWD_EXIT_USAGE;
			c->has_prio = true;
		} else {
			return usage_err("unknown argument \"%s\"", *argv);
		}
	}
	if (!c->dev)
		return usage_err("missing \"dev IN\"");
	if (full && !c->has_to)
		return usage_err("missing \"to OUT\"");
	if (full && c->to_ingress &&
	    (c->mode == BPFWD_MODE_PEER || c->mode == BPFWD_MODE_NEIGH))
		return usage_err("to-ingress does not apply to mode %s",
				 mode_name(c->mode));
	if (full && c->mode == BPFWD_MODE_PEER && c->egress)
		return usage_err("mode peer works only at ingress");
	if (full && c->hook == BPFWD_HOOK_NONE && c->has_hook &&
	    (c->has_at || c->has_prio))
		return usage_err("hook none attaches nothing: at and prio do not apply");
	return 0;
}

static const char *section_of(uint32_t mode, bool to_ingress)
{
	switch (mode) {
	case BPFWD_MODE_CLONE:
		return to_ingress ? "clone_redirect_recv" :
				    "clone_redirect_xmit";
	case BPFWD_MODE_MIRROR:
		return to_ingress ? "mirror_recv" : "mirror_xmit";
	case BPFWD_MODE_PEER:
		return "redirect_peer";
	case BPFWD_MODE_NEIGH:
		return "redirect_neigh";
	}
	return to_ingress ? "redirect_recv" : "redirect_xmit";
}

/* Finds the port's entry: the namespace's table first, then the stock
 * one (entries this namespace wrote).  Returns 0, -ENOENT (no message),
 * or another -errno that table_open() already reported (a stale pin of
 * the namespace's table; a stale stock table is only warned about).
 */
static int find_port(uint32_t ifindex, struct table *t, struct bpfwd_port *p)
{
	int i, err;

	for (i = 0; i < 2; i++) {
		err = table_open_read(t, i);
		if (err == -ENOENT)
			continue;
		if (err)
			return err;
		if (!port_get(t, ifindex, p) && port_owned(t, p))
			return 0;
		table_close(t);
	}
	return -ENOENT;
}

static int load_and_attach(struct table *t, const struct port_cfg *c,
			   bool replace, bool *own_clsact)
{
	struct attach_req r = {
		.t = t, .ifindex = c->in, .dev = c->dev, .egress = c->egress,
		.hook = c->hook, .prio = c->prio, .replace = replace,
	};
	struct redirect *skel;
	int err;

	if (c->hook == BPFWD_HOOK_NONE)
		return 0;
	err = loader_load(t->dir, section_of(c->mode, c->to_ingress),
			  c->hook == BPFWD_HOOK_ACT ? BPF_PROG_TYPE_SCHED_ACT :
						      BPF_PROG_TYPE_SCHED_CLS,
			  &skel, &r.prog_fd, &r.prog_name);
	if (err)
		return err;
	err = attach_port(&r);
	loader_free(skel);
	if (own_clsact)
		*own_clsact = r.own_clsact;
	return err;
}

static int resolve(struct port_cfg *c)
{
	return resolve_pair(c->dev, c->to, &c->in, &c->out);
}

static int port_add(struct port_cfg *c)
{
	struct bpfwd_port p = { 0 }, old;
	struct table t;
	bool own = false;
	int err;

	if (resolve(c))
		return BPFWD_EXIT_FAIL;
	if (!c->has_hook)
		c->hook = kernel_has_tcx() ? BPFWD_HOOK_TCX : BPFWD_HOOK_TC;
	if (c->hook == BPFWD_HOOK_NONE) {
		c->prio = 0;
		/* it writes the stock table: one of an older layout is
		 * this command's error, not the warning find_port() gives
		 */
		if (stock_check_layout(false))
			return BPFWD_EXIT_FAIL;
	}
	err = find_port(c->in, &t, &old);
	if (!err) {
		p_err("%s: already a port (to ifindex %u, hook %s); use port replace or port del",
		      c->dev, old.target, hook_name(old.hook));
		table_close(&t);
		return BPFWD_EXIT_FAIL;
	}
	if (err != -ENOENT)
		return BPFWD_EXIT_FAIL;
	err = table_open(&t, c->hook == BPFWD_HOOK_NONE, true);
	if (err)
		return BPFWD_EXIT_FAIL;
	if (t.stock && !port_get(&t, c->in, &old)) {
		p_err("%s: ifindex %d in %s belongs to another network namespace (stock tc's pins are shared by all of them); use a hook other than none here, or port del dev %s force if that namespace is gone",
		      c->dev, c->in, t.dir, c->dev);
		goto fail;
	}
	err = slot_alloc(&t, &p.slot);
	if (err) {
		p_err("%s: table full (%d ports)", c->dev, BPFWD_MAX_SLOTS - 1);
		goto fail;
	}
	p.target = c->out;
	p.mode = c->mode;
	p.hook = c->hook;
	p.prio = c->prio;
	p.netns = netns_cookie();
	p.flags = (c->to_ingress ? BPFWD_F_INGRESS : 0) |
		  (c->egress ? BPFWD_F_AT_EGRESS : 0);
	stats_clear(&t, p.slot);
	err = port_put(&t, c->in, &p, BPF_NOEXIST);
	if (err) {
		p_err("%s: write table %s: %s", c->dev, t.dir, strerror(-err));
		goto fail;
	}
	err = load_and_attach(&t, c, false, &own);
	if (err) {
		port_delete(&t, c->in);
		goto fail;
	}
	if (own) {
		p.flags |= BPFWD_F_OWN_CLSACT;
		port_put(&t, c->in, &p, BPF_EXIST);
	}
	pr_info("%s: port to %s, mode %s, hook %s, table %s", c->dev, c->to,
		mode_name(c->mode), hook_name(c->hook), t.dir);
	table_close(&t);
	return BPFWD_EXIT_OK;
fail:
	if (t.created)
		table_gc(&t);
	table_close(&t);
	return BPFWD_EXIT_FAIL;
}

/* Changes target and/or mode in place: the entry first, then (when the
 * mode needs another program) an atomic program swap on the same hook.
 * If the swap fails the old entry is put back.
 */
static int port_replace(struct port_cfg *c)
{
	struct bpfwd_port old, p;
	struct table t;
	int err;

	if (resolve(c))
		return BPFWD_EXIT_FAIL;
	err = find_port(c->in, &t, &old);
	if (err) {
		if (err == -ENOENT)
			p_err("%s: not a port; use port add", c->dev);
		return BPFWD_EXIT_FAIL;
	}
	if (c->has_hook && c->hook != old.hook) {
		p_err("%s: replace keeps the hook (%s); to move the port to hook %s, del and add it",
		      c->dev, hook_name(old.hook), hook_name(c->hook));
		goto fail;
	}
	if (c->has_at && c->egress != !!(old.flags & BPFWD_F_AT_EGRESS)) {
		p_err("%s: replace keeps the direction; del and add the port",
		      c->dev);
		goto fail;
	}
	if (c->has_prio && c->prio != old.prio) {
		p_err("%s: replace keeps the prio (%u); del and add the port",
		      c->dev, old.prio);
		goto fail;
	}
	c->hook = old.hook;
	c->prio = old.prio;
	c->egress = old.flags & BPFWD_F_AT_EGRESS;
	if (!c->has_mode)
		c->mode = old.mode;
	if (c->hook == BPFWD_HOOK_NONE &&
	    (c->mode != old.mode ||
	     c->to_ingress != !!(old.flags & BPFWD_F_INGRESS))) {
		p_err("%s: hook none: the section tc loaded decides the mode (%s%s); replace can change the target only, load another section with tc filter replace",
		      c->dev, mode_name(old.mode),
		      old.flags & BPFWD_F_INGRESS ? " to-ingress" : "");
		goto fail;
	}
	if (c->mode == BPFWD_MODE_PEER && c->egress) {
		p_err("%s: mode peer works only at ingress", c->dev);
		goto fail;
	}
	p = old;
	p.target = c->out;
	p.mode = c->mode;
	p.flags &= ~BPFWD_F_INGRESS;
	p.flags |= c->to_ingress ? BPFWD_F_INGRESS : 0;
	err = port_put(&t, c->in, &p, BPF_EXIST);
	if (err) {
		p_err("%s: write table %s: %s", c->dev, t.dir, strerror(-err));
		goto fail;
	}
	if (strcmp(section_of(p.mode, p.flags & BPFWD_F_INGRESS),
		   section_of(old.mode, old.flags & BPFWD_F_INGRESS))) {
		err = load_and_attach(&t, c, true, NULL);
		if (err) {
			port_put(&t, c->in, &old, BPF_EXIST);
			goto fail;
		}
	}
	pr_info("%s: port to %s, mode %s, hook %s", c->dev, c->to,
		mode_name(c->mode), hook_name(c->hook));
	table_close(&t);
	return BPFWD_EXIT_OK;
fail:
	table_close(&t);
	return BPFWD_EXIT_FAIL;
}

/* Detaches the port's program and removes its entry and counters. */
static int remove_port(struct table *t, uint32_t ifindex, const char *dev,
		       const struct bpfwd_port *p)
{
	int err;

	err = detach_port(t, ifindex, dev, p->flags & BPFWD_F_AT_EGRESS,
			  p->hook, p->prio, p->flags & BPFWD_F_OWN_CLSACT);
	if (err)
		return err;
	port_delete(t, ifindex);
	stats_clear(t, p->slot);
	return 0;
}

/* del ... force: the stock table is shared by every namespace, so an
 * entry written there by a namespace that is gone (without a flush)
 * blocks its ifindex everywhere.  Its program went with the namespace's
 * devices; only the entry and its counters remain to remove.
 */
static int del_foreign(const char *dev, int in)
{
	struct bpfwd_port p;
	struct table t;
	int err;

	err = table_open(&t, true, false);
	if (err == -ENOENT || (!err && port_get(&t, in, &p))) {
		p_err("%s: not a port, in no table", dev);
		table_close(&t);
		return BPFWD_EXIT_FAIL;
	}
	if (err)
		return BPFWD_EXIT_FAIL;
	pr_warn("port del %s: removing the entry for ifindex %d that netns cookie %llu wrote in %s",
		dev, in, (unsigned long long)p.netns, t.dir);
	port_delete(&t, in);
	stats_clear(&t, p.slot);
	table_close(&t);
	return BPFWD_EXIT_OK;
}

static int port_del(struct port_cfg *c)
{
	struct bpfwd_port p;
	struct table t;
	int in, err;

	in = ifindex_of(c->dev, NULL);
	if (in < 0)
		return BPFWD_EXIT_FAIL;
	err = find_port(in, &t, &p);
	if (err == -ENOENT && c->force)
		return del_foreign(c->dev, in);
	if (err) {
		if (err == -ENOENT)
			p_err("%s: not a port", c->dev);
		return BPFWD_EXIT_FAIL;
	}
	err = remove_port(&t, in, c->dev, &p);
	table_gc(&t);
	table_close(&t);
	return err ? BPFWD_EXIT_FAIL : BPFWD_EXIT_OK;
}

/* Removes every port of this namespace, also those whose device is gone
 * (a deleted veth takes its filters along but leaves the entry).
 */
static int flush_one(struct table *t, uint32_t ifindex,
		     const struct bpfwd_port *p, void *data)
{
	char name[IF_NAMESIZE];

	return remove_port(t, ifindex, ifname_of(ifindex, name), p);
}

static int port_flush(int argc, char **argv)
{
	opts.cmd = "port flush";
	if (argc > 0)
		return usage_err("unknown argument \"%s\"", *argv);
	if (need_root())
		return BPFWD_EXIT_FAIL;
	return ports_walk(flush_one, NULL, true) ? BPFWD_EXIT_FAIL :
						  BPFWD_EXIT_OK;
}

static void show_one(struct table *t, uint32_t ifindex,
		     const struct bpfwd_port *p)
{
	char in[IF_NAMESIZE], out[IF_NAMESIZE];
	bool egress = p->flags & BPFWD_F_AT_EGRESS;

	if (p->hook == BPFWD_HOOK_XDP) {
		xdp_show_one(t, ifindex, p);
		return;
	}
	open_json_object(NULL);
	print_string(PRINT_ANY, "dev", "%s", ifname_of(ifindex, in));
	print_u64(PRINT_JSON, "ifindex", NULL, ifindex);
	print_string(PRINT_ANY, "to", " to %s", ifname_of(p->target, out));
	print_u64(PRINT_JSON, "to_ifindex", NULL, p->target);
	print_string(PRINT_ANY, "mode", " mode %s", mode_name(p->mode));
	print_bool(PRINT_JSON, "to_ingress", NULL, p->flags & BPFWD_F_INGRESS);
	if (p->flags & BPFWD_F_INGRESS)
		print_string(PRINT_FP, NULL, "%s", " to-ingress");
	print_string(PRINT_ANY, "hook", " hook %s", hook_name(p->hook));
	if (p->hook != BPFWD_HOOK_NONE) {
		print_string(PRINT_ANY, "at", " at %s",
			     egress ? "egress" : "ingress");
		if (hook_is_tc_family(p->hook))
			print_u64(PRINT_ANY, "prio", " prio %llu", p->prio);
		print_bool(PRINT_JSON, "attached", NULL,
			   port_attached(t, ifindex, egress, p->hook,
					 p->prio));
		if (!port_attached(t, ifindex, egress, p->hook, p->prio))
			print_string(PRINT_FP, NULL, "%s", " (detached)");
	}
	print_u64(PRINT_JSON, "slot", NULL, p->slot);
	print_string(PRINT_JSON, "table", NULL, t->dir);
	print_nl();
	close_json_object();
}

static int show_cb(struct table *t, uint32_t ifindex,
		   const struct bpfwd_port *p, void *data)
{
	uint32_t only = *(uint32_t *)data;

	if (!only || ifindex == only)
		show_one(t, ifindex, p);
	return 0;
}

static int port_show(int argc, char **argv)
{
	struct port_cfg c = { 0 };
	uint32_t only = 0;
	int in, err;

	if (argc > 0) {
		err = parse_port(argc, argv, &c, false);
		if (err)
			return err;
		in = ifindex_of(c.dev, NULL);
		if (in < 0)
			return BPFWD_EXIT_FAIL;
		only = in;
	}
	json_begin();
	open_json_array(NULL);
	err = ports_walk(show_cb, &only, false);
	close_json_array();
	json_end();
	return err ? BPFWD_EXIT_FAIL : BPFWD_EXIT_OK;
}

static int port_cmd(int argc, char **argv, const char *name,
		    int (*fn)(struct port_cfg *), bool full)
{
	static char cmdbuf[96];
	struct port_cfg c;
	int err;

	/* messages read "bpfwd: port add eth0: ..." */
	snprintf(cmdbuf, sizeof(cmdbuf), "port %s", name);
	opts.cmd = cmdbuf;
	if (full && xdp_cmd_wanted(fn == port_replace, argc, argv))
		return xdp_port_cmd(fn == port_replace, argc, argv);
	err = parse_port(argc, argv, &c, full);
	if (err)
		return err;
	if (need_root())
		return BPFWD_EXIT_FAIL;
	return fn(&c);
}

static int do_add(int argc, char **argv)
{
	return port_cmd(argc, argv, "add", port_add, true);
}

static int do_replace(int argc, char **argv)
{
	return port_cmd(argc, argv, "replace", port_replace, true);
}

static int do_del(int argc, char **argv)
{
	return port_cmd(argc, argv, "del", port_del, false);
}

static int do_show(int argc, char **argv)
{
	opts.cmd = "port show";
	if (need_root())
		return BPFWD_EXIT_FAIL;
	return port_show(argc, argv);
}

int do_port(int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "add", do_add },
		{ "replace", do_replace },
		{ "delete", do_del },
		{ "show", do_show },
		{ "flush", port_flush },
		{ "list", do_show },
		{ "help", port_help },
		{ 0 }
	};

	opts.cmd = "port";
	if (argc < 1)
		return do_show(0, NULL);
	return cmd_select(cmds, argc, argv, "command", port_help);
}
