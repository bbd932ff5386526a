// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd port: table entries and the programs that act on them.
 *
 *   port { add | replace } dev IN [ to OUT ] [ mode M ] [ hook H ] ARGS
 *   port del dev IN [ force ]
 *   port show [ dev IN ]
 *   port flush
 *
 * A port is one entry in a table (ingress ifindex -> target) plus, unless
 * hook is none, one program attached to IN.  This file owns the command:
 * the common keywords, the table entry and the show line's head and
 * tail; everything that depends on the hook goes through its struct
 * hook_ops (hook.h).  Every step that can fail is undone on failure, so
 * a failed command leaves what was there before.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>

#include "objects.h"
#include "hook.h"
#include "lib/json.h"
#include "lib/netdev.h"
#include "lib/params.h"
#include "lib/pins.h"
#include "lib/ports.h"
#include "lib/util.h"
#include "port.h"

/* Filled from the hook table (hook_words_init()). */
static const char *hook_words[__BPFWD_HOOK_MAX];

static const struct kw spec_kws[] = {
	KW_DEV("dev", struct port_cfg, dev, "IN", KW_REQUIRED,
	       "the device whose frames the port takes"),
	KW_DEV("to", struct port_cfg, to, "OUT", 0,
	       "the device they go to"),
	KW_ENUM("mode", struct port_cfg, mode, port_mode_words, NULL, "MODE", 0,
		"how they go there (default redirect)"),
	KW_ENUM("hook", struct port_cfg, hook, hook_words, NULL, "HOOK", 0,
		"where the program runs (default tcx, or tc before Linux 6.6)"),
	KW_END
};

static const struct kw del_kws[] = {
	KW_DEV("dev", struct port_cfg, dev, "IN", 0,
	       "the port (also when its device is gone)"),
	KW_U32("ifindex", struct port_cfg, in, 1, INT32_MAX, "N", 0,
	       "the port of ifindex N (its device gone, or never named)"),
	KW_FLAG("force", struct port_cfg, force, 0,
		"also an entry another namespace left in the stock table"),
	KW_END
};

static const struct kw show_kws[] = {
	KW_DEV("dev", struct port_cfg, dev, "IN", 0, "only this port"),
	KW_END
};

static void hook_words_init(void)
{
	uint32_t i;

	for (i = 0; i < ARRAY_SIZE(hook_words); i++)
		hook_words[i] = hook_by_id(i)->name;
}

/* Whether @ops is the first hook with its keyword table (each table is
 * parsed and shown once).
 */
static bool first_with_kws(const struct hook_ops *ops)
{
	uint32_t i;

	for (i = 0; i < ops->id; i++)
		if (hook_by_id(i)->kws == ops->kws)
			return false;
	return ops->kws != NULL;
}

static void print_spec_usage(void)
{
	char tail[64] = "[";
	const struct hook_ops *ops;
	uint32_t i;

	for (i = 0; i < __BPFWD_HOOK_MAX; i++) {
		ops = hook_by_id(i);
		if (!first_with_kws(ops))
			continue;
		snprintf(tail + strlen(tail), sizeof(tail) - strlen(tail),
			 "%s %s", tail[1] ? " |" : "", ops->args);
	}
	strncat(tail, " ]", sizeof(tail) - strlen(tail) - 1);
	printf("PORT_SPEC := ");
	kw_usage_tail(stdout, spec_kws, 13, tail);
	kw_usage_enums(stdout, spec_kws, 0);
	for (i = 0; i < __BPFWD_HOOK_MAX; i++) {
		ops = hook_by_id(i);
		if (!first_with_kws(ops))
			continue;
		printf("%s := ", ops->args);
		kw_usage(stdout, ops->kws, strlen(ops->args) + 4);
		kw_usage_enums(stdout, ops->kws, 0);
	}
}

int port_help(int argc, char **argv)
{
	hook_words_init();
	printf("Usage: bpfwd port { add | replace } PORT_SPEC\n");
	printf("       bpfwd port del ");
	kw_usage(stdout, del_kws, 22);
	printf("       bpfwd port show ");
	kw_usage(stdout, show_kws, 23);
	printf("       bpfwd port flush\n");
	print_spec_usage();
	return BPFWD_EXIT_OK;
}

/* What the parser saw: the common table first, then each hook table. */
struct spec_parse {
	const struct kw *tabs[1 + __BPFWD_HOOK_MAX];
	kw_seen_t seen[1 + __BPFWD_HOOK_MAX];
	int n;
};

/* Parses PORT_SPEC: the common keywords and those of every hook, in any
 * order; which hook's may be given is decided after (the hook can come
 * last, or from the port that exists).
 */
static int parse_spec(int argc, char **argv, struct port_cfg *c,
		      struct spec_parse *ps)
{
	uint32_t i;
	int left, err;

	memset(ps, 0, sizeof(*ps));
	ps->tabs[ps->n++] = spec_kws;
	for (i = 0; i < __BPFWD_HOOK_MAX; i++)
		if (first_with_kws(hook_by_id(i)))
			ps->tabs[ps->n++] = hook_by_id(i)->kws;
	while (argc > 0) {
		left = argc;
		for (i = 0; i < (uint32_t)ps->n && argc > 0; i++) {
			err = kw_parse_some(ps->tabs[i], &argc, &argv, c,
					    &ps->seen[i]);
			if (err)
				return err;
		}
		if (argc == left)
			return usage_err("unknown argument \"%s\"", *argv);
	}
	if (!c->dev)
		return usage_err("missing \"dev IN\"");
	c->has_mode = kw_has(spec_kws, ps->seen[0], "mode");
	c->has_hook = kw_has(spec_kws, ps->seen[0], "hook");
	return 0;
}

/* The first keyword given that hook @ops does not take, or NULL. */
static const char *foreign_kw(const struct hook_ops *ops,
			      const struct spec_parse *ps)
{
	int i, j;

	for (i = 1; ps && i < ps->n; i++) {
		if (ps->tabs[i] == ops->kws || !ps->seen[i])
			continue;
		for (j = 0; ps->tabs[i][j].name; j++)
			if (ps->seen[i] & (1ULL << j))
				return ps->tabs[i][j].name;
	}
	return NULL;
}

/* add without hook: the hook whose keywords were given, else the
 * default one.
 */
static void pick_hook(struct port_cfg *c, const struct spec_parse *ps)
{
	const struct hook_ops *def = hook_by_id(hook_default());
	uint32_t id;
	int i;

	c->hook = def->id;
	c->has_hook = true;
	for (i = 1; ps && i < ps->n; i++) {
		if (!ps->seen[i] || ps->tabs[i] == def->kws)
			continue;
		for (id = 0; id < __BPFWD_HOOK_MAX; id++) {
			if (hook_by_id(id)->kws == ps->tabs[i]) {
				c->hook = id;
				return;
			}
		}
	}
}

/* The names of the port's devices, for port show and del of a port
 * whose device is gone, and for the daemon to re-attach it.
 */
static void names_put(struct table *t, const struct port_cfg *c)
{
	port_name_put(t, c->in, c->dev);
	if (c->to)
		port_target_name_put(t, c->in, c->to);
}

/* Writes the new entry, then lets the hook attach; a stock table entry
 * of another namespace's is refused.  Returns 0 or -errno (reported).
 */
static int add_entry(struct table *t, struct port_cfg *c,
		     const struct hook_ops *ops, struct bpfwd_port *p)
{
	struct bpfwd_port other;
	int err;

	if (t->stock && !port_get(t, c->in, &other)) {
		p_err("%s: ifindex %d in %s belongs to another network namespace (stock tc's pins are shared by all of them); use a hook other than none here, or port del dev %s force if that namespace is gone",
		      c->dev, c->in, t->dir, c->dev);
		return -EEXIST;
	}
	err = slot_alloc(t, &p->slot);
	if (err) {
		p_err("%s: table full (%d ports)", c->dev, BPFWD_MAX_SLOTS - 1);
		return err;
	}
	p->target = c->out;
	p->mode = c->mode;
	p->hook = c->hook;
	p->netns = netns_cookie();
	stats_clear(t, p->slot);
	err = port_put(t, c->in, p, BPF_NOEXIST);
	if (err) {
		p_err("%s: write table %s: %s", c->dev, t->dir, strerror(-err));
		return err;
	}
	names_put(t, c);
	err = ops->attach(t, c, p);
	if (err) {
		port_delete(t, c->in);
		port_name_del(t, c->in);
	}
	return err;
}

/* Whether port @p is what this add writes, without its program: an
 * add killed between entry and program, which the same add completes.
 */
static bool add_killed(struct table *t, const struct port_cfg *c,
		       const struct bpfwd_port *p)
{
	const struct hook_ops *ops = hook_by_id(p->hook);

	return ops && p->hook == c->hook && ops->attached && ops->differs &&
	       !ops->attached(t, c->in, p) && p->target == (uint32_t)c->out &&
	       p->mode == c->mode && ops->differs(t, c, p) == PORT_REPLACE;
}

static int replace_found(struct port_cfg *c, const struct spec_parse *ps,
			 struct table *t, const struct bpfwd_port *old);

/* 0, -errno (reported) or BPFWD_EXIT_USAGE. */
/* A port on a bridge or bond port takes that device's frames before
 * the master's receive handler (no learning, no STP BPDUs: a loop guard
 * gone) and sends past it: legal, but rarely what an operator meant.
 */
static void warn_enslaved(const char *what, const char *dev, uint32_t ifindex)
{
	struct link_info li = { 0 };
	char master[IF_NAMESIZE] = "?";

	if (!ifindex || netdev_link(ifindex, &li) || !li.master)
		return;
	if_indextoname(li.master, master);
	if (!strcmp(li.slave_kind, "bridge"))
		pr_warn("warning: %s %s is a port of bridge %s: frames on this port bypass the bridge (its fdb, STP and filtering); take it out first (ip link set %s nomaster), or for a bridge fast path use bpfwd bridge add %s",
			what, dev, master, dev, master);
	else
		pr_warn("warning: %s %s is a port of %s %s: frames on this port bypass it; take it out first (ip link set %s nomaster)",
			what, dev, li.slave_kind[0] ? li.slave_kind : "master",
			master, dev);
}

static int add(struct port_cfg *c, const struct spec_parse *ps)
{
	const struct hook_ops *ops;
	struct bpfwd_port p = { 0 };
	struct table t;
	int err;

	if (!c->has_hook)
		pick_hook(c, ps);
	ops = hook_by_id(c->hook);
	err = ops->parse(c, false, foreign_kw(ops, ps));
	if (err)
		return err;
	err = need_root() ? -EPERM : resolve_pair(c->dev, c->to, &c->in,
						   &c->out);
	if (err)
		return -ENODEV;
	/* a stock table of an older layout: this command's error, not the
	 * warning a lookup gives
	 */
	if (ops->stock && stock_check_layout(false))
		return -EEXIST;
	err = port_find(c->in, &t, &p);
	if (!err && add_killed(&t, c, &p))
		return replace_found(c, ps, &t, &p);
	if (!err) {
		p_err("%s: already a port (to ifindex %u, hook %s); use port replace or port del",
		      c->dev, p.target, hook_name(p.hook));
		table_close(&t);
		return -EEXIST;
	}
	if (err != -ENOENT)
		return err;
	memset(&p, 0, sizeof(p));
	err = ops->prepare(c, &p);
	if (err)
		return err;
	err = table_open(&t, ops->stock, true);
	if (err)
		return err;
	err = add_entry(&t, c, ops, &p);
	if (err)
		table_gc(&t);
	if (!err)
		pr_info("%s: port to %s, mode %s, hook %s, table %s", c->dev,
			c->to ?: "-", port_mode_name(c->mode), ops->name,
			t.dir);
	table_close(&t);
	if (!err) {
		warn_enslaved("dev", c->dev, c->in);
		if (c->to)
			warn_enslaved("to", c->to, c->out);
	}
	return err;
}

/* Changes port @old (found in @t, which it closes) in place: the hook
 * stays, the hook's replace does the rest.  0, -errno (reported) or
 * BPFWD_EXIT_USAGE.
 */
static int replace_found(struct port_cfg *c, const struct spec_parse *ps,
			 struct table *t, const struct bpfwd_port *old)
{
	const struct hook_ops *ops;
	int err;

	if (c->has_hook && c->hook != old->hook) {
		p_err("%s: replace keeps the hook (%s); to move the port to hook %s, del and add it",
		      c->dev, hook_name(old->hook), hook_name(c->hook));
		table_close(t);
		return -EINVAL;
	}
	c->hook = old->hook;
	if (!c->has_mode)
		c->mode = old->mode;
	ops = hook_by_id(old->hook);
	err = ops->parse(c, true, foreign_kw(ops, ps));
	if (!err)
		err = ops->replace(t, c, old);
	if (!err)
		names_put(t, c);
	if (!err)
		pr_info("%s: port to %s, mode %s, hook %s", c->dev,
			c->to ?: "-", port_mode_name(c->mode), ops->name);
	table_close(t);
	return err;
}

/* Changes the port in place, as iproute2's replace does: a port that
 * does not exist is added, and what the command does not name stays
 * (mode, target with its to-ingress, hook, at, prio; the XDP hook's
 * own keywords as hook_xdp.c keeps them).
 */
static int replace(struct port_cfg *c, const struct spec_parse *ps)
{
	struct bpfwd_port old;
	struct table t;
	int err;

	if (need_root())
		return -EPERM;
	if (resolve_pair(c->dev, c->to, &c->in, &c->out))
		return -ENODEV;
	err = port_find(c->in, &t, &old);
	if (err == -ENOENT)
		return add(c, ps);
	return err ? err : replace_found(c, ps, &t, &old);
}

static int lib_ret(int err)
{
	return err > 0 ? -EINVAL : err;
}

int port_add_cfg(const struct port_cfg *cfg)
{
	struct port_cfg c = *cfg;

	return lib_ret(add(&c, NULL));
}

int port_replace_cfg(const struct port_cfg *cfg)
{
	struct port_cfg c = *cfg;

	return lib_ret(replace(&c, NULL));
}

int port_spec_parse(int argc, char **argv, struct port_cfg *c)
{
	const struct hook_ops *ops;
	struct spec_parse ps;
	int err;

	hook_words_init();
	err = parse_spec(argc, argv, c, &ps);
	if (err)
		return err;
	if (!c->has_hook)
		pick_hook(c, &ps);
	ops = hook_by_id(c->hook);
	return ops->parse(c, false, foreign_kw(ops, &ps));
}

/* How the port that is there (@t, @old) differs from @c. */
static enum port_diff port_differs(struct table *t, const struct port_cfg *c,
				   const struct bpfwd_port *old)
{
	const struct hook_ops *ops = hook_by_id(old->hook);

	if (!ops || old->hook != c->hook)
		return PORT_READD;
	return ops->differs ? ops->differs(t, c, old) : PORT_REPLACE;
}

static int readd(struct port_cfg *c)
{
	int err = port_del_dev(c->dev, false);

	if (err)
		return err;
	err = add(c, NULL);
	if (err)
		p_err("%s: the port was deleted to move it; its add failed: it is gone",
		      c->dev);
	return err;
}

int port_apply_cfg(const struct port_cfg *cfg, enum port_did *did)
{
	struct port_cfg c = *cfg;
	struct bpfwd_port old;
	enum port_diff diff;
	struct table t;
	int err;

	if (need_root())
		return -EPERM;
	if (resolve_pair(c.dev, c.to, &c.in, &c.out))
		return -ENODEV;
	err = port_find(c.in, &t, &old);
	if (err == -ENOENT) {
		*did = PORT_ADDED;
		return lib_ret(add(&c, NULL));
	}
	if (err)
		return err;
	diff = port_differs(&t, &c, &old);
	table_close(&t);
	if (diff == PORT_SAME) {
		*did = PORT_UNCHANGED;
		return 0;
	}
	if (diff == PORT_READD) {
		*did = PORT_READDED;
		return lib_ret(readd(&c));
	}
	/* everything @c does not name is its default here, not kept */
	c.has_mode = true;
	*did = PORT_REPLACED;
	return lib_ret(replace(&c, NULL));
}

/* Detaches the port's program and removes its entry and counters. */
static int remove_port(struct table *t, uint32_t ifindex, const char *dev,
		       const struct bpfwd_port *p)
{
	const struct hook_ops *ops = hook_by_id(p->hook);
	int err;

	err = ops ? ops->detach(t, ifindex, dev, p) : 0;
	if (err)
		return err;
	port_delete(t, ifindex);
	port_name_del(t, ifindex);
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
		return -ENOENT;
	}
	if (err)
		return err;
	pr_warn("port del %s: removing the entry for ifindex %d that netns cookie %llu wrote in %s",
		dev, in, (unsigned long long)p.netns, t.dir);
	port_delete(&t, in);
	port_name_del(&t, in);
	stats_clear(&t, p.slot);
	table_close(&t);
	return 0;
}

/* The port of device @dev, or else of the gone device that had that
 * name (deleted, or made again with another ifindex): 0 with @t open,
 * *@in and @p; -ENOENT reported unless @quiet.
 */
static int find_by_name(const char *dev, bool quiet, struct table *t,
			int *in, struct bpfwd_port *p)
{
	bool exists = !ifname_check(dev) && if_nametoindex(dev);
	uint32_t gone;
	int err = -ENOENT;

	if (exists) {
		*in = if_nametoindex(dev);
		err = port_find(*in, t, p);
	}
	if (err == -ENOENT) {
		err = port_find_gone(dev, &gone, t, p);
		if (!err)
			*in = gone;
	}
	if (err == -ENOENT && !quiet && exists)
		p_err("%s: not a port", dev);
	else if (err == -ENOENT && !quiet)
		p_err("%s: no such device, and no port was made on a device of that name",
		      dev);
	return err;
}

static int del_entry(struct table *t, int in, const struct bpfwd_port *p)
{
	char name[IF_NAMESIZE];
	int err;

	if (!if_indextoname(in, name) && port_name_get(t, in, name))
		snprintf(name, sizeof(name), "if%d", in);
	err = remove_port(t, in, name, p);
	table_gc(t);
	table_close(t);
	return err;
}

int port_del_dev(const char *dev, bool force)
{
	struct bpfwd_port p;
	struct table t;
	int in, err;

	err = find_by_name(dev, force, &t, &in, &p);
	if (err == -ENOENT && force) {
		in = ifindex_of(dev, NULL);
		return in < 0 ? in : del_foreign(dev, in);
	}
	return err ? err : del_entry(&t, in, &p);
}

int port_del_ifindex(uint32_t ifindex, bool force)
{
	char dev[IF_NAMESIZE];
	struct bpfwd_port p;
	struct table t;
	int err;

	snprintf(dev, sizeof(dev), "if%u", ifindex);
	err = port_find(ifindex, &t, &p);
	if (err == -ENOENT && force)
		return del_foreign(dev, ifindex);
	if (err == -ENOENT)
		p_err("ifindex %u: not a port", ifindex);
	return err ? err : del_entry(&t, ifindex, &p);
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

/* The port's device: its name, or when it is gone the name it had
 * (text "NAME (gone)"; JSON dev null, as in stats, and the old name in
 * "name").
 */
static void show_dev(struct table *t, uint32_t ifindex)
{
	char now[IF_NAMESIZE], was[IF_NAMESIZE];
	bool gone = !if_indextoname(ifindex, now);
	bool known = !port_name_get(t, ifindex, was);

	if (gone) {
		print_null(PRINT_JSON, "dev", NULL);
		print_string(PRINT_FP, NULL, "%s (gone)",
			     known ? was : ifname_of(ifindex, now));
	} else {
		print_string(PRINT_ANY, "dev", "%s", now);
	}
	print_u64(PRINT_JSON, "ifindex", NULL, ifindex);
	if (known)
		print_string(PRINT_JSON, "name", NULL, was);
	else
		print_null(PRINT_JSON, "name", NULL);
}

/* The target and its state, as stats gives them. */
static void show_target(uint32_t target, enum port_target_state *st)
{
	char out[IF_NAMESIZE];

	*st = port_target_state(target);
	if (!target) {
		print_null(PRINT_JSON, "to", NULL);
		print_null(PRINT_JSON, "to_ifindex", NULL);
		print_null(PRINT_JSON, "to_state", NULL);
		return;
	}
	if (*st == TS_GONE)
		print_null(PRINT_JSON, "to", NULL);
	else
		print_string(PRINT_JSON, "to", NULL, ifname_of(target, out));
	print_string(PRINT_FP, NULL, " to %s", ifname_of(target, out));
	print_u64(PRINT_JSON, "to_ifindex", NULL, target);
	print_string(PRINT_JSON, "to_state", NULL,
		     port_target_state_names[*st]);
}

/* What is attached (@run: the entry as the attached program makes it). */
static bool show_attached(struct table *t, uint32_t ifindex,
			  const struct hook_ops *ops,
			  const struct bpfwd_port *p, struct bpfwd_port *run)
{
	*run = *p;
	if (ops && ops->live)
		return ops->live(t, ifindex, p, run);
	return !ops || !ops->attached || ops->attached(t, ifindex, p);
}

/* One port: the mode, flags and target of the program that runs (after
 * a replace was killed between program and entry, the entry's may be
 * older; an XDP copy for one target carries it), marked (detached)
 * when no program is, (target gone) when no device has the target's
 * ifindex.
 */
static void show_one(struct table *t, uint32_t ifindex,
		     const struct bpfwd_port *p)
{
	const struct hook_ops *ops = hook_by_id(p->hook);
	enum port_target_state st;
	struct bpfwd_port run;
	bool attached;

	attached = show_attached(t, ifindex, ops, p, &run);
	open_json_object(NULL);
	show_dev(t, ifindex);
	show_target(run.target, &st);
	print_string(PRINT_ANY, "mode", " mode %s", port_mode_name(run.mode));
	if (ops)
		ops->show(t, ifindex, &run);
	else
		print_u64(PRINT_ANY, "hook", " hook %llu", p->hook);
	print_bool(PRINT_JSON, "attached", NULL, attached);
	if (!attached)
		print_string(PRINT_FP, NULL, "%s", " (detached)");
	if (st == TS_GONE)
		print_string(PRINT_FP, NULL, "%s", " (target gone)");
	print_u64(PRINT_JSON, "slot", NULL, p->slot);
	print_string(PRINT_JSON, "table", NULL, t->stock ? "stock" : "netns");
	print_string(PRINT_JSON, "pin_dir", NULL, t->dir);
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

/* The command's result: -errno (reported) is a failure, a positive
 * value a usage error already printed.
 */
static int exit_of(int err)
{
	return err < 0 ? BPFWD_EXIT_FAIL : err ? err : BPFWD_EXIT_OK;
}

static int spec_cmd(int argc, char **argv, bool is_replace)
{
	struct port_cfg c = { 0 };
	struct spec_parse ps;
	int err;

	opts.cmd = is_replace ? "port replace" : "port add";
	hook_words_init();
	err = parse_spec(argc, argv, &c, &ps);
	if (err)
		return err;
	return exit_of(is_replace ? replace(&c, &ps) : add(&c, &ps));
}

static int do_add(int argc, char **argv)
{
	return spec_cmd(argc, argv, false);
}

static int do_replace(int argc, char **argv)
{
	return spec_cmd(argc, argv, true);
}

static int do_del(int argc, char **argv)
{
	struct port_cfg c = { 0 };
	int err;

	opts.cmd = "port del";
	err = kw_parse(del_kws, argc, argv, &c, NULL);
	if (err)
		return err;
	if (!c.dev == !c.in)
		return usage_err("give one of \"dev IN\" and \"ifindex N\"");
	if (need_root())
		return BPFWD_EXIT_FAIL;
	if (c.in)
		return exit_of(port_del_ifindex(c.in, c.force));
	return exit_of(port_del_dev(c.dev, c.force));
}

static int do_flush(int argc, char **argv)
{
	opts.cmd = "port flush";
	if (argc > 0)
		return usage_err("unknown argument \"%s\"", *argv);
	if (need_root())
		return BPFWD_EXIT_FAIL;
	return exit_of(ports_walk(flush_one, NULL, true));
}

static int do_show(int argc, char **argv)
{
	struct port_cfg c = { 0 };
	uint32_t only = 0;
	int in, err;

	opts.cmd = "port show";
	if (need_root())
		return BPFWD_EXIT_FAIL;
	err = kw_parse(show_kws, argc, argv, &c, NULL);
	if (err)
		return err;
	if (c.dev) {
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
	return exit_of(err);
}

int do_port(int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "add", do_add },
		{ "replace", do_replace },
		{ "delete", do_del },
		{ "show", do_show },
		{ "flush", do_flush },
		{ "list", do_show },
		{ "help", port_help },
		{ 0 }
	};

	opts.cmd = "port";
	if (argc < 1)
		return do_show(0, NULL);
	return cmd_select(cmds, argc, argv, "command", port_help);
}
