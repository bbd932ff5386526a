// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * XDP ports: `bpfwd port add|replace ... hook xdp`, their lines in port
 * show, their cpumap figures in stats and native XDP per device in
 * probe.
 *
 *   port add dev IN to OUT hook xdp [mode redirect|map]
 *            [xdp-mode native|generic]
 *   port add dev IN hook xdp cpus LIST [qsize N] [then pass] [to OUT]
 *   port add dev IN hook xdp mode flood [group N]
 *
 * The entry goes into the namespace's own table like any port (XDP
 * cannot be loaded by stock tc), so del, flush, show and stats work on
 * it unchanged.  Every trap a check can see is refused before anything
 * is written; a later failure undoes the command's own steps.
 */
#include <errno.h>
#include <net/if.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "bpfwd.h"
#include "lib/attach.h"
#include "lib/json.h"
#include "lib/loader.h"
#include "lib/netdev.h"
#include "lib/pins.h"
#include "lib/ports.h"
#include "lib/util.h"
#include "lib/xdp.h"
#include "xdp.h"

struct xdp_cfg {
	const char *dev, *to;
	int in, out;
	uint32_t mode;
	bool generic;
	bool has_mode, has_xdp_mode, has_cpus, has_qsize, then_pass;
	bool cpu_pass;		/* then pass to OUT: skbs, tc redirect */
	uint32_t group;		/* mode flood */
	bool has_group;
	struct bpfwd_cpus cpus;
};

static const char *const xdp_modes[] = {
	[BPFWD_MODE_REDIRECT] = "redirect",
	[BPFWD_MODE_MAP] = "map",
	[BPFWD_MODE_CPUMAP] = "cpumap",
	[BPFWD_MODE_FLOOD] = "flood",
};

const char *xdp_mode_name(uint32_t mode)
{
	return mode < ARRAY_SIZE(xdp_modes) && xdp_modes[mode] ?
		xdp_modes[mode] : "?";
}

static const char *prog_of(uint32_t mode)
{
	switch (mode) {
	case BPFWD_MODE_MAP:
		return "xdp_devmap";
	case BPFWD_MODE_CPUMAP:
		return "xdp_cpumap";
	case BPFWD_MODE_FLOOD:
		return "xdp_flood";
	}
	return "xdp_redirect";
}

/* The program a mode needs besides the XDP one. */
static const char *extra_of(uint32_t mode)
{
	return mode == BPFWD_MODE_CPUMAP ? "xdp_cpu_then" :
	       mode == BPFWD_MODE_FLOOD ? "flood_egress" : NULL;
}

static bool is_xdp_word(const char *a)
{
	return is_word(a, "cpus") || is_word(a, "qsize") ||
	       is_word(a, "then") || is_word(a, "xdp-mode") ||
	       is_word(a, "group");
}

bool xdp_cmd_wanted(bool replace, int argc, char **argv)
{
	struct bpfwd_port p;
	struct table t;
	const char *dev = NULL;
	bool xdp = false;
	int i, in;

	for (i = 0; i < argc; i++) {
		if (is_word(argv[i], "hook") && i + 1 < argc &&
		    is_word(argv[i + 1], "xdp"))
			return true;
		if (is_xdp_word(argv[i]))
			xdp = true;
		if (is_word(argv[i], "dev") && i + 1 < argc)
			dev = argv[i + 1];
	}
	if (xdp || !replace || !dev)
		return xdp;
	/* replace keeps the hook: an XDP port stays one */
	in = if_nametoindex(dev);
	if (in <= 0 || table_open(&t, false, false))
		return false;
	xdp = !port_get(&t, in, &p) && p.hook == BPFWD_HOOK_XDP;
	table_close(&t);
	return xdp;
}

static int parse_mode(const char *a, struct xdp_cfg *c)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(xdp_modes); i++) {
		if (xdp_modes[i] && is_word(a, xdp_modes[i])) {
			c->mode = i;
			c->has_mode = true;
			return 0;
		}
	}
	if (is_word(a, "clone") || is_word(a, "peer") || is_word(a, "neigh") ||
	    is_word(a, "mirror"))
		return usage_err("mode %s is a tc mode; hook xdp has redirect, map, cpumap and flood",
				 a);
	return usage_err("unknown mode \"%s\"", a);
}

static int parse_cpus(const char *a, struct xdp_cfg *c)
{
	uint32_t qsize = c->cpus.qsize;
	int err = parse_cpu_list(a, &c->cpus);

	c->cpus.qsize = qsize;
	switch (err) {
	case 0:
		c->has_cpus = true;
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

static int parse_xdp(int argc, char **argv, struct xdp_cfg *c, bool replace)
{
	uint32_t v;

	memset(c, 0, sizeof(*c));
	c->cpus.qsize = XDP_QSIZE_DEFAULT;
	for (; argc > 0; argc--, argv++) {
		if (is_word(*argv, "dev")) {
			NEXT_ARG();
			c->dev = *argv;
		} else if (is_word(*argv, "to")) {
			NEXT_ARG();
			c->to = *argv;
		} else if (is_word(*argv, "hook")) {
			NEXT_ARG();
			if (!is_word(*argv, "xdp"))
				return usage_err("hook %s does not take cpus, qsize, then or xdp-mode (they are for hook xdp)",
						 *argv);
		} else if (is_word(*argv, "mode")) {
			NEXT_ARG();
			if (parse_mode(*argv, c))
				return BPFWD_EXIT_USAGE;
		} else if (is_word(*argv, "xdp-mode")) {
			NEXT_ARG();
			if (is_word(*argv, "generic"))
				c->generic = true;
			else if (!is_word(*argv, "native"))
				return usage_err("unknown xdp-mode \"%s\" (native or generic)",
						 *argv);
			c->has_xdp_mode = true;
		} else if (is_word(*argv, "cpus")) {
			NEXT_ARG();
			if (parse_cpus(*argv, c))
				return BPFWD_EXIT_USAGE;
		} else if (is_word(*argv, "qsize")) {
			NEXT_ARG();
			if (arg_u32("qsize", *argv, &v, 1, XDP_QSIZE_MAX))
				return BPFWD_EXIT_USAGE;
			c->cpus.qsize = v;
			c->has_qsize = true;
		} else if (is_word(*argv, "group")) {
			NEXT_ARG();
			if (arg_u32("group", *argv, &c->group, 0, 0xffff))
				return BPFWD_EXIT_USAGE;
			c->has_group = true;
		} else if (is_word(*argv, "then")) {
			NEXT_ARG();
			if (is_word(*argv, "pass"))
				c->then_pass = true;
			else if (is_word(*argv, "to"))
				continue;	/* "then to OUT" */
			else
				return usage_err("then \"%s\": pass or to OUT",
						 *argv);
		} else if (is_word(*argv, "at") || is_word(*argv, "prio") ||
			   is_word(*argv, "to-ingress")) {
			return usage_err("%s does not apply to hook xdp (XDP runs at ingress, before tc)",
					 *argv);
		} else {
			return usage_err("unknown argument \"%s\"", *argv);
		}
	}
	if (!c->dev)
		return usage_err("missing \"dev IN\"");
	if (c->has_cpus && c->has_mode && c->mode != BPFWD_MODE_CPUMAP)
		return usage_err("cpus goes with mode cpumap, not mode %s",
				 xdp_mode_name(c->mode));
	if (c->has_cpus)
		c->mode = BPFWD_MODE_CPUMAP;
	if ((c->has_qsize || c->then_pass) && c->mode != BPFWD_MODE_CPUMAP)
		return usage_err("%s needs cpus LIST (mode cpumap)",
				 c->has_qsize ? "qsize" : "then pass");
	c->cpu_pass = c->then_pass && c->to;
	if (c->has_group && c->mode != BPFWD_MODE_FLOOD)
		return usage_err("group goes with mode flood");
	if (c->mode == BPFWD_MODE_FLOOD && c->to)
		return usage_err("mode flood sends to every other flood port: drop \"to %s\"",
				 c->to);
	if ((c->mode == BPFWD_MODE_REDIRECT || c->mode == BPFWD_MODE_MAP) &&
	    (c->has_mode || !replace) && !c->to)
		return usage_err("missing \"to OUT\" (mode %s)",
				 xdp_mode_name(c->mode));
	return 0;
}

static int resolve(struct xdp_cfg *c)
{
	return resolve_pair(c->dev, c->to, &c->in, &c->out);
}

/* The traps, before anything changes.  @in_checked: IN already runs a
 * port of ours (replace), so its own program is expected.
 */
static int check(struct xdp_cfg *c, bool replace)
{
	int err;

	if ((c->mode == BPFWD_MODE_REDIRECT || c->mode == BPFWD_MODE_MAP) &&
	    !c->out) {
		p_err("%s: mode %s needs \"to OUT\"", c->dev,
		      xdp_mode_name(c->mode));
		return -EINVAL;
	}
	if (!replace) {
		err = xdp_check_in(c->in, c->dev, c->generic);
		if (err)
			return err;
	}
	if (c->generic)
		return 0;
	/* native: frames leave through the target's ndo_xdp_xmit; a flood
	 * port is the target of the other flood ports
	 */
	if (c->out && !c->cpu_pass)	/* then pass to OUT sends skbs */
		return xdp_check_target(c->out, c->dev);
	if (c->mode == BPFWD_MODE_FLOOD)
		return xdp_check_target(c->in, c->dev);
	return 0;
}

/* Writes the mode's map entries of port @p (slot, target, cpus). */
static int maps_set(struct table *t, struct xdp_cfg *c,
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
		err = xdp_flood_set(t, c->in, true, c->group,
				    xdp_prog_fd(skel, "flood_egress"));
		if (err)
			p_err("%s: join %s: %s", c->dev, BPFWD_MAP_FLOOD,
			      strerror(-err));
		break;
	case BPFWD_MODE_CPUMAP:
		err = xdp_cpus_set(t, p->slot, c->in, &c->cpus,
				   xdp_prog_fd(skel, "xdp_cpu_then"));
		break;
	}
	return err;
}

/* Removes what maps_set() wrote for @mode, keeping what @keep needs. */
static void maps_clear(struct table *t, uint32_t ifindex, uint32_t slot,
		       uint32_t mode, uint32_t keep)
{
	static const struct bpfwd_cpus none;
	int fd;

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
		if (keep != BPFWD_MODE_CPUMAP) {
			fd = xdp_map_fd(t, BPFWD_MAP_CPUS);
			if (fd >= 0) {
				bpf_map_update_elem(fd, &slot, &none, 0);
				close(fd);
			}
		}
		xdp_cpus_gc(t, 0);
		break;
	}
}

static void fill_entry(struct bpfwd_port *p, const struct xdp_cfg *c)
{
	p->target = c->out;
	p->mode = c->mode;
	p->hook = BPFWD_HOOK_XDP;
	p->prio = 0;
	p->netns = netns_cookie();
	p->flags = (c->generic ? BPFWD_F_XDP_GENERIC : 0) |
		   (c->cpu_pass ? BPFWD_F_CPU_PASS : 0);
}

/* then pass to OUT: redirect_xmit of redirect.o on IN's tc ingress
 * (tcx where the kernel has it) sends on the skbs the cpumap built; it
 * reads the same table entry.
 */
static int tc_part_attach(struct table *t, const struct xdp_cfg *c,
			  struct bpfwd_port *p)
{
	struct attach_req r = {
		.t = t, .ifindex = c->in, .dev = c->dev, .prio = 1,
		.hook = kernel_has_tcx() ? BPFWD_HOOK_TCX : BPFWD_HOOK_TC,
	};
	struct redirect *skel;
	int err;

	err = loader_load(t->dir, "redirect_xmit", BPF_PROG_TYPE_SCHED_CLS,
			  &skel, &r.prog_fd, &r.prog_name);
	if (err)
		return err;
	err = attach_port(&r);
	loader_free(skel);
	if (err)
		return err;
	if (r.hook == BPFWD_HOOK_TCX)
		p->flags |= BPFWD_F_CPU_TCX;
	else
		p->prio = r.prio;
	if (r.own_clsact)
		p->flags |= BPFWD_F_OWN_CLSACT;
	return port_put(t, c->in, p, BPF_EXIST);
}

/* A port of this namespace on @in, in either table. */
static bool is_port(int in, struct bpfwd_port *old)
{
	struct table t;
	int s;
	bool found = false;

	for (s = 0; s < 2 && !found; s++) {
		if (table_open_read(&t, s))
			continue;
		found = !port_get(&t, in, old) && port_owned(&t, old);
		table_close(&t);
	}
	return found;
}

static int xdp_add(struct xdp_cfg *c)
{
	struct bpfwd_port p = { 0 }, old;
	struct xdp *skel = NULL;
	bool own_pins = true;
	struct table t;
	int err;

	if (resolve(c))
		return BPFWD_EXIT_FAIL;
	if (is_port(c->in, &old)) {
		p_err("%s: already a port (hook %s); use port replace or port del",
		      c->dev, hook_name(old.hook));
		return BPFWD_EXIT_FAIL;
	}
	if (check(c, false))
		return BPFWD_EXIT_FAIL;
	err = table_open(&t, false, true);
	if (err)
		return BPFWD_EXIT_FAIL;
	if (slot_alloc(&t, &p.slot)) {
		p_err("%s: table full (%d ports)", c->dev, BPFWD_MAX_SLOTS - 1);
		goto fail_table;
	}
	err = xdp_load(&t, prog_of(c->mode), extra_of(c->mode), 0, &skel);
	/* a pin of an older layout is the operator's to remove, not ours */
	if (err == -EEXIST)
		own_pins = false;
	if (err)
		goto fail_table;
	fill_entry(&p, c);
	stats_clear(&t, p.slot);
	err = port_put(&t, c->in, &p, BPF_NOEXIST);
	if (err) {
		p_err("%s: write table %s: %s", c->dev, t.dir, strerror(-err));
		goto fail_table;
	}
	err = maps_set(&t, c, &p, skel);
	if (!err && c->cpu_pass)
		err = tc_part_attach(&t, c, &p);
	if (!err)
		err = xdp_attach(c->in, c->dev,
				 xdp_prog_fd(skel, prog_of(c->mode)),
				 c->generic, 0);
	if (err)
		goto fail_port;
	if (c->mode == BPFWD_MODE_CPUMAP)
		xdp_kthread_ensure(&t);
	pr_info("%s: XDP port, mode %s (%s), table %s", c->dev,
		xdp_mode_name(c->mode), c->generic ? "generic" : "native",
		t.dir);
	xdp_free(skel);
	table_close(&t);
	return BPFWD_EXIT_OK;
fail_port:
	xdp_port_detach(&t, c->in, c->dev);
	port_delete(&t, c->in);
fail_table:
	if (skel)
		xdp_free(skel);
	if (own_pins)
		xdp_pins_gc(&t, 0);
	table_gc(&t);
	table_close(&t);
	return BPFWD_EXIT_FAIL;
}

static int xdp_replace(struct xdp_cfg *c)
{
	struct bpfwd_port old, p;
	struct xdp *skel = NULL;
	struct table t;
	uint32_t id;
	int err;

	if (resolve(c))
		return BPFWD_EXIT_FAIL;
	if (table_open(&t, false, false) || port_get(&t, c->in, &old)) {
		if (is_port(c->in, &old))
			p_err("%s: replace keeps the hook (%s); to move the port to hook xdp, del and add it",
			      c->dev, hook_name(old.hook));
		else
			p_err("%s: not a port; use port add", c->dev);
		table_close(&t);
		return BPFWD_EXIT_FAIL;
	}
	if (old.hook != BPFWD_HOOK_XDP) {
		p_err("%s: replace keeps the hook (%s); to move the port to hook xdp, del and add it",
		      c->dev, hook_name(old.hook));
		goto fail;
	}
	if (c->has_xdp_mode &&
	    c->generic != !!(old.flags & BPFWD_F_XDP_GENERIC)) {
		p_err("%s: replace keeps the xdp-mode (%s); del and add the port",
		      c->dev, old.flags & BPFWD_F_XDP_GENERIC ? "generic" :
								"native");
		goto fail;
	}
	c->generic = old.flags & BPFWD_F_XDP_GENERIC;
	if (c->mode == BPFWD_MODE_CPUMAP && !c->then_pass && !c->to &&
	    (old.flags & BPFWD_F_CPU_PASS)) {
		c->cpu_pass = true;	/* "cpus LIST" alone keeps the rest */
		c->out = old.target;
	}
	if (c->cpu_pass != !!(old.flags & BPFWD_F_CPU_PASS)) {
		p_err("%s: replace keeps how frames leave the CPUs (%s); del and add the port",
		      c->dev, old.flags & BPFWD_F_CPU_PASS ?
		      "then pass to OUT: skbs and a tc redirect" :
		      "XDP redirect or the stack");
		goto fail;
	}
	if (!c->has_mode && !c->has_cpus)
		c->mode = old.mode;
	/* mode flood without a group keeps the port's */
	if (c->mode == BPFWD_MODE_FLOOD && old.mode == BPFWD_MODE_FLOOD &&
	    !c->has_group)
		xdp_flood_group(&t, c->in, &c->group);
	/* mode cpumap without a list keeps the port's CPUs */
	if (c->mode == BPFWD_MODE_CPUMAP && !c->has_cpus) {
		uint32_t qsize = c->cpus.qsize;

		if (old.mode != BPFWD_MODE_CPUMAP ||
		    xdp_cpus_get(&t, old.slot, &c->cpus) || !c->cpus.count) {
			p_err("%s: mode cpumap needs \"cpus LIST\"", c->dev);
			goto fail;
		}
		if (c->has_qsize)
			c->cpus.qsize = qsize;
	}
	if (check(c, true))
		goto fail;
	id = xdp_our_prog(c->in, c->generic);
	if (!id) {
		p_err("%s: the port's XDP program is not attached (any more); del and add the port",
		      c->dev);
		goto fail;
	}
	err = xdp_load(&t, prog_of(c->mode), extra_of(c->mode), 0, &skel);
	if (err)
		goto fail;
	p = old;
	fill_entry(&p, c);
	p.prio = old.prio;
	p.flags |= old.flags & (BPFWD_F_CPU_TCX | BPFWD_F_OWN_CLSACT);
	/* the new mode's entries first, then the entry, then the program:
	 * every frame finds a complete configuration of one mode or the
	 * other
	 */
	err = maps_set(&t, c, &p, skel);
	if (err)
		goto fail_maps;
	err = port_put(&t, c->in, &p, BPF_EXIST);
	if (err) {
		p_err("%s: write table %s: %s", c->dev, t.dir, strerror(-err));
		goto fail_maps;
	}
	if (c->mode != old.mode) {
		err = xdp_attach(c->in, c->dev,
				 xdp_prog_fd(skel, prog_of(c->mode)),
				 c->generic, id);
		if (err) {
			port_put(&t, c->in, &old, BPF_EXIST);
			goto fail_maps;
		}
	}
	maps_clear(&t, c->in, old.slot, old.mode, c->mode);
	if (c->mode == BPFWD_MODE_CPUMAP)
		xdp_kthread_ensure(&t);
	xdp_free(skel);
	table_close(&t);
	return BPFWD_EXIT_OK;
fail_maps:
	if (c->mode != old.mode)
		maps_clear(&t, c->in, old.slot, c->mode, old.mode);
	xdp_free(skel);
fail:
	table_close(&t);
	return BPFWD_EXIT_FAIL;
}

int xdp_port_cmd(bool replace, int argc, char **argv)
{
	struct xdp_cfg c;
	int err;

	err = parse_xdp(argc, argv, &c, replace);
	if (err)
		return err;
	if (need_root())
		return BPFWD_EXIT_FAIL;
	return replace ? xdp_replace(&c) : xdp_add(&c);
}

void xdp_show_one(struct table *t, uint32_t ifindex,
		  const struct bpfwd_port *p)
{
	char in[IF_NAMESIZE], out[IF_NAMESIZE], list[512];
	struct bpfwd_cpus c;
	bool attached = xdp_port_attached(t, ifindex);
	uint32_t group;

	open_json_object(NULL);
	print_string(PRINT_ANY, "dev", "%s", ifname_of(ifindex, in));
	print_u64(PRINT_JSON, "ifindex", NULL, ifindex);
	if (p->target) {
		print_string(PRINT_ANY, "to", " to %s",
			     ifname_of(p->target, out));
		print_u64(PRINT_JSON, "to_ifindex", NULL, p->target);
	} else {
		print_null(PRINT_JSON, "to", NULL);
	}
	print_string(PRINT_ANY, "mode", " mode %s", xdp_mode_name(p->mode));
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
	print_string(PRINT_ANY, "hook", " hook %s", hook_name(p->hook));
	print_string(PRINT_ANY, "xdp_mode", " xdp-mode %s",
		     p->flags & BPFWD_F_XDP_GENERIC ? "generic" : "native");
	print_bool(PRINT_JSON, "attached", NULL, attached);
	if (!attached)
		print_string(PRINT_FP, NULL, "%s", " (detached)");
	print_u64(PRINT_JSON, "slot", NULL, p->slot);
	print_string(PRINT_JSON, "table", NULL, t->dir);
	print_nl();
	close_json_object();
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

void xdp_stats_free(struct xdp_cpumap_stats *m)
{
	if (!m)
		return;
	free(m->cs);
	free(m->k);
	free(m);
}

struct xdp_cpumap_stats *xdp_stats_read(struct table *t,
					const struct bpfwd_port *p)
{
	struct xdp_cpumap_stats *m;

	if (t->stock || p->hook != BPFWD_HOOK_XDP ||
	    p->mode != BPFWD_MODE_CPUMAP)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->cs = calloc(nr_cpus(), sizeof(*m->cs));
	m->k = calloc(nr_cpus(), sizeof(*m->k));
	if (!m->cs || !m->k || xdp_cpus_get(t, p->slot, &m->cpus) ||
	    read_percpu(t, BPFWD_MAP_CPUSTAT, p->slot, m->cs)) {
		xdp_stats_free(m);
		return NULL;
	}
	if (read_percpu(t, BPFWD_MAP_KTHREAD, 0, m->k)) {
		free(m->k);
		m->k = NULL;
	}
	return m;
}

/* The fields of @cur: counts, or with @prev rates over @secs. */
static void print_stat_fields(const struct xdp_stat_field *f, size_t n,
			      const void *cur, const void *prev, double secs)
{
	char fmt[32];
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
		print_double(PRINT_ANY, f[i].name, fmt, counter_rate(v, p, secs));
	}
}

void xdp_stats_print(const struct xdp_cpumap_stats *m,
		     const struct xdp_cpumap_stats *prev, double secs)
{
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

void xdp_probe_print(void)
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
