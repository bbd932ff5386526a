// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bridge: the fast path of an existing Linux bridge.
 *
 *   bridge add BR [hook tc|tcx|xdp] [xdp-mode native|generic] [force]
 *   bridge del BR
 *   bridge show [BR]
 *   bridge fdb show [BR]
 *   bridge stats [BR]
 *
 * add attaches bridge.o's program to every port of BR and records the
 * bridge; `bpfwd daemon` then mirrors the kernel's fdb and port states
 * into the maps, follows ports that join or leave, and keeps the
 * heartbeat without which the program passes every frame to the bridge.
 * Every check runs before anything changes; a failed add removes what it
 * did, a repeated add repairs what is missing.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "objects.h"
#include "bridge.h"
#include "lib/brmaps.h"
#include "lib/brmirror.h"
#include "lib/brnl.h"
#include "lib/json.h"
#include "lib/params.h"
#include "lib/util.h"

#define MAX_PORTS	BPFWD_MAX_PORTS
#define SYNC_WAIT_S	5.0

struct add_cfg {
	uint32_t hook;
	uint32_t xdp_mode;	/* 0 native, 1 generic */
	bool force;
};

static const char *const hook_words[] = {
	[BPFWD_HOOK_TC] = "tc", [BPFWD_HOOK_TCX] = "tcx",
	[BPFWD_HOOK_XDP] = "xdp",
};
static const char *const xdp_modes[] = { "native", "generic" };

static const struct kw add_kws[] = {
	KW_ENUM("hook", struct add_cfg, hook, hook_words, NULL, "HOOK", 0,
		"where the fast path runs (default tc)"),
	KW_ENUM("xdp-mode", struct add_cfg, xdp_mode, xdp_modes, NULL, "XMODE",
		0, "XDP in the driver (default) or on the skb path"),
	KW_FLAG("force", struct add_cfg, force, 0,
		"add even though bridge filtering would be bypassed"),
	KW_END
};

static const struct kw no_kws[] = { KW_END };

int bridge_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Usage: bpfwd bridge add BR ");
	kw_usage(stdout, add_kws, 26);
	printf("       bpfwd bridge del BR\n"
	       "       bpfwd bridge show [ BR ]\n"
	       "       bpfwd bridge fdb show [ BR ]\n"
	       "       bpfwd bridge stats [ BR ]\n");
	kw_usage_enums(stdout, add_kws, 0);
	printf("The fast path needs the daemon: bpfwd daemon (bpfwd-daemon.service).\n");
	return BPFWD_EXIT_OK;
}

/* BR, the optional first word; then the table's keywords. */
static int parse_br(int *argc, char ***argv, const char **br, bool need)
{
	*br = NULL;
	if (*argc > 0 && !kw_find(add_kws, **argv)) {
		if (is_word(**argv, "dev")) {
			if (*argc < 2)
				return usage_err("\"dev\" needs a value");
			(*argc)--;
			(*argv)++;
		}
		*br = **argv;
		(*argc)--;
		(*argv)++;
	}
	if (need && !*br)
		return usage_err("missing BR (the bridge)");
	return 0;
}

/* BR alone (optional unless @need), for del, show, fdb show, stats. */
static int parse_br_only(int argc, char **argv, const char **br, bool need)
{
	if (parse_br(&argc, &argv, br, need) ||
	    kw_parse(no_kws, argc, argv, NULL, NULL))
		return BPFWD_EXIT_USAGE;
	return 0;
}

struct port_list {
	uint32_t bridge;
	uint32_t idx[MAX_PORTS];
	int n;
};

static int collect_port(const struct brnl_port *p, void *data)
{
	struct port_list *l = data;

	if (p->master == l->bridge && l->n < MAX_PORTS)
		l->idx[l->n++] = p->ifindex;
	return 0;
}

/* The bridge and its ports, or one message. */
static int bridge_resolve(const char *br, struct brnl_bridge *nb,
			  struct port_list *ports)
{
	int idx = ifindex_of(br, NULL), err;

	if (idx < 0)
		return idx;
	err = brnl_get_bridge(idx, nb);
	if (err) {
		p_err("%s: %s", br, strerror(-err));
		return err;
	}
	if (!nb->is_bridge) {
		p_err("%s: not a bridge", br);
		return -EINVAL;
	}
	if (!ports)
		return 0;
	memset(ports, 0, sizeof(*ports));
	ports->bridge = idx;
	err = brnl_dump_ports(collect_port, ports);
	if (err) {
		p_err("%s: dump ports: %s", br, strerror(-err));
		return err;
	}
	if (!ports->n) {
		p_err("%s: the bridge has no ports; add them first (ip link set dev DEV master %s)",
		      br, br);
		return -ENOENT;
	}
	return 0;
}

static int checks(const char *br, const struct add_cfg *c)
{
	int err = bridge_hook_check(br, c->hook);
	char why[512];

	if (err)
		return err;
	if (!c->force && brnl_filtering(why, sizeof(why))) {
		p_err("%s: %s", br, why);
		return -EBUSY;
	}
	return 0;
}

/* Undo of a failed add: what it attached, and the entry if it made it. */
static void add_undo(struct brmaps *m, uint32_t bridge, uint32_t *done,
		     int ndone, bool made)
{
	int i;

	for (i = 0; i < ndone; i++)
		bridge_detach(m, done[i]);
	if (made) {
		brstats_reset(m, bridge);
		br_put(m, bridge, NULL);
	}
}

static int attach_all(struct brmaps *m, const struct port_list *pl,
		      const struct bpfwd_br *b, bool made)
{
	static uint32_t done[MAX_PORTS];
	struct bpfwd_br_port p;
	int i, nd = 0, err;

	/* every check first: a refusal leaves nothing behind */
	for (i = 0; i < pl->n; i++) {
		if (!brport_get(m, pl->idx[i], &p) && p.bridge == pl->bridge)
			continue;
		err = bridge_port_check(pl->idx[i], b);
		if (err)
			goto undo;
	}
	for (i = 0; i < pl->n; i++) {
		if (!brport_get(m, pl->idx[i], &p)) {
			if (p.bridge == pl->bridge &&
			    bridge_attached(m, pl->idx[i], &p))
				continue;	/* in place already */
			bridge_detach(m, pl->idx[i]);
		}
		err = bridge_attach(m, pl->bridge, b, pl->idx[i]);
		if (err)
			goto undo;
		done[nd++] = pl->idx[i];
	}
	return 0;
undo:
	add_undo(m, pl->bridge, done, nd, made);
	return err;
}

/* Waits for the daemon to sync the bridge and its ports. */
static bool wait_sync(struct brmaps *m, uint32_t bridge)
{
	static uint32_t idx[MAX_PORTS];
	static struct bpfwd_br_port p[MAX_PORTS];
	double t0 = now();
	struct bpfwd_br b;
	int n, i;

	while (now() - t0 < SYNC_WAIT_S) {
		if (!br_get(m, bridge, &b) && (b.flags & BPFWD_BR_F_SYNC)) {
			n = brport_list(m, bridge, idx, p, MAX_PORTS);
			for (i = 0; i < n && i < MAX_PORTS; i++)
				if (!(p[i].flags & BPFWD_BRP_SYNCED))
					break;
			if (i >= n)
				return true;
		}
		usleep(50000);
	}
	return false;
}

static int add_locked(struct brmaps *m, const char *br,
		      const struct add_cfg *c, const struct brnl_bridge *nb,
		      const struct port_list *pl)
{
	struct bpfwd_br b = { 0 };
	bool made = false;
	int err;

	if (!br_get(m, pl->bridge, &b)) {
		if (b.hook != c->hook ||
		    !!(b.flags & BPFWD_BR_F_XDP_GENERIC) != !!c->xdp_mode) {
			p_err("%s: already has the fast path on hook %s%s; remove it first (bpfwd bridge del %s)",
			      br, br_hook_name(b.hook),
			      b.flags & BPFWD_BR_F_XDP_GENERIC ? " (generic)" : "",
			      br);
			return -EEXIST;
		}
	} else {
		b.hook = c->hook;
		b.flags = (c->xdp_mode ? BPFWD_BR_F_XDP_GENERIC : 0) |
			  (c->force ? BPFWD_BR_F_FORCE : 0);
		b.mac = mac_key(nb->mac);
		err = br_slot_alloc(m);
		if (err < 0) {
			p_err("%s: no free bridge slot: bpfwd keeps at most %d bridges",
			      br, BPFWD_BR_MAX_BRIDGES);
			return err;
		}
		b.slot = err;
		err = br_put(m, pl->bridge, &b);
		if (!err)
			err = brstats_reset(m, pl->bridge);
		if (err) {
			p_err("%s: write bridge entry: %s", br, strerror(-err));
			br_put(m, pl->bridge, NULL);
			return err;
		}
		made = true;
	}
	return attach_all(m, pl, &b, made);
}

/* The maps, created if need be, locked; again if the daemon removed the
 * pins between the open and the lock (its last bridge had gone).
 */
static int open_locked(struct brmaps *m, const char *br)
{
	int err, tries;

	for (tries = 0; tries < 3; tries++) {
		err = brmaps_open(m, true);
		if (err) {
			if (err != -EEXIST)
				p_err("%s: open bridge maps: %s", br,
				      strerror(-err));
			return err;
		}
		brmaps_lock(m);
		if (brmaps_pinned(m))
			return 0;
		brmaps_unlock(m);
		brmaps_close(m);
	}
	p_err("%s: the bridge maps keep going away", br);
	return -EAGAIN;
}

static int do_add(int argc, char **argv)
{
	static struct port_list pl;
	struct add_cfg c = { .hook = BPFWD_HOOK_TC };
	struct brnl_bridge nb;
	struct brmaps m;
	const char *br;
	int err;

	opts.cmd = "bridge add";

	if (parse_br(&argc, &argv, &br, true) ||
	    kw_parse(add_kws, argc, argv, &c, NULL))
		return BPFWD_EXIT_USAGE;
	if (c.xdp_mode && c.hook != BPFWD_HOOK_XDP)
		return usage_err("xdp-mode applies to hook xdp only");
	if (need_root() || bridge_resolve(br, &nb, &pl) || checks(br, &c))
		return BPFWD_EXIT_FAIL;
	err = open_locked(&m, br);
	if (err)
		return BPFWD_EXIT_FAIL;
	err = add_locked(&m, br, &c, &nb, &pl);
	brmaps_unlock(&m);
	if (err) {
		brmaps_gc(&m);
		brmaps_close(&m);
		return BPFWD_EXIT_FAIL;
	}
	if (!brmirror_running())
		pr_warn("warning: %s: bpfwd daemon is not running in this namespace: every frame goes through the bridge until it does; start it: bpfwd daemon (or systemctl start bpfwd-daemon)",
			br);
	else if (!wait_sync(&m, pl.bridge))
		pr_warn("warning: %s: the daemon has not synced it yet: frames go through the bridge meanwhile",
			br);
	brmaps_close(&m);
	return BPFWD_EXIT_OK;
}

static int do_del(int argc, char **argv)
{
	static uint32_t idx[MAX_PORTS];
	struct bpfwd_br b;
	struct brmaps m;
	const char *br;
	int bridge, n, i, err = 0;

	opts.cmd = "bridge del";

	if (parse_br_only(argc, argv, &br, true))
		return BPFWD_EXIT_USAGE;
	if (need_root())
		return BPFWD_EXIT_FAIL;
	bridge = ifindex_of(br, NULL);
	if (bridge < 0)
		return BPFWD_EXIT_FAIL;
	if (brmaps_open(&m, false) || br_get(&m, bridge, &b)) {
		p_err("%s: no bpfwd fast path on it", br);
		brmaps_close(&m);
		return BPFWD_EXIT_FAIL;
	}
	brmaps_lock(&m);
	/* the entry first: the daemon stops attaching to its ports */
	brstats_reset(&m, bridge);
	br_put(&m, bridge, NULL);
	n = brport_list(&m, bridge, idx, NULL, MAX_PORTS);
	for (i = 0; i < n && i < MAX_PORTS; i++)
		if (bridge_detach(&m, idx[i]))
			err = -EIO;
	brfdb_flush(&m, bridge, 0);
	brmaps_unlock(&m);
	brmaps_gc(&m);
	brmaps_close(&m);
	return err ? BPFWD_EXIT_FAIL : BPFWD_EXIT_OK;
}

static const char *const state_names[] = {
	"disabled", "listening", "learning", "forwarding", "blocking",
};

static const char *state_name(uint32_t s)
{
	return s < ARRAY_SIZE(state_names) ? state_names[s] : "?";
}

static const struct {
	uint32_t flag;
	const char *name;
} port_flags[] = {
	{ BPFWD_BRP_LEARNING, "learning" },
	{ BPFWD_BRP_UNICAST_FLOOD, "flood" },
	{ BPFWD_BRP_ISOLATED, "isolated" },
	{ BPFWD_BRP_HAIRPIN, "hairpin" },
	{ BPFWD_BRP_LOCKED, "locked" },
	{ BPFWD_BRP_MAB, "mab" },
	{ BPFWD_BRP_NEIGH_SUPPRESS, "neigh_suppress" },
	{ BPFWD_BRP_PROXYARP, "proxyarp" },
	{ BPFWD_BRP_BACKUP, "backup_port" },
	{ BPFWD_BRP_VLAN_TUNNEL, "vlan_tunnel" },
	{ BPFWD_BRP_RX_VLAN_HW, "rx_vlan_offload" },
};

static double age_of(uint64_t ns)
{
	return ns ? now() - ns / 1e9 : -1;
}

static bool br_synced(const struct bpfwd_br *b)
{
	return (b->flags & BPFWD_BR_F_SYNC) && b->heartbeat &&
	       age_of(b->heartbeat) * 1e9 <= BPFWD_BR_STALE_NS;
}

/* With vlan_filtering: the port's pvid and how many VLANs it has */
static void show_port_vlans(struct brmaps *m, uint32_t ifindex)
{
	uint32_t pvid = 0;
	int n = brvlan_count(m, ifindex, &pvid);

	if (pvid)
		print_u64(PRINT_ANY, "pvid", " pvid %llu", pvid);
	else
		print_null(PRINT_ANY, "pvid", " pvid none");
	print_u64(PRINT_ANY, "vlans", " vlans %llu", n);
}

static void show_port(struct brmaps *m, uint32_t ifindex,
		      const struct bpfwd_br_port *p, bool vlans)
{
	char dev[IF_NAMESIZE];
	size_t i;
	int n = 0;

	open_json_object(NULL);
	print_string(PRINT_ANY, "dev", "    %s", ifname_of(ifindex, dev));
	print_u64(PRINT_JSON, "ifindex", NULL, ifindex);
	print_bool(PRINT_JSON, "synced", NULL, p->flags & BPFWD_BRP_SYNCED);
	if (p->flags & BPFWD_BRP_SYNCED)
		print_string(PRINT_ANY, "state", " %s", state_name(p->state));
	else
		print_null(PRINT_ANY, "state", " (not synced)");
	open_json_array("flags");
	for (i = 0; i < ARRAY_SIZE(port_flags); i++)
		if (p->flags & port_flags[i].flag)
			print_string(PRINT_ANY, NULL, n++ ? ",%s" : " %s",
				     port_flags[i].name);
	close_json_array();
	print_u64(PRINT_ANY, "mtu", " mtu %llu", p->mtu);
	if (vlans)
		show_port_vlans(m, ifindex);
	print_bool(PRINT_ANY, "attached", " attached %s",
		   bridge_attached(m, ifindex, p));
	if (p->hook == BPFWD_HOOK_XDP)
		print_bool(PRINT_ANY, "xdp_target", " xdp-target %s",
			   p->flags & BPFWD_BRP_XDP_TX);
	close_json_object();
	print_nl();
}

static void show_bridge(struct brmaps *m, uint32_t bridge,
			const struct bpfwd_br *b)
{
	static uint32_t idx[MAX_PORTS];
	static struct bpfwd_br_port p[MAX_PORTS];
	char name[IF_NAMESIZE];
	int n, i;

	open_json_object(NULL);
	print_string(PRINT_ANY, "bridge", "%s", ifname_of(bridge, name));
	print_u64(PRINT_JSON, "ifindex", NULL, bridge);
	print_string(PRINT_ANY, "hook", " hook %s", br_hook_name(b->hook));
	if (b->hook == BPFWD_HOOK_XDP)
		print_string(PRINT_ANY, "xdp_mode", " xdp-mode %s",
			     b->flags & BPFWD_BR_F_XDP_GENERIC ? "generic" :
								"native");
	print_bool(PRINT_ANY, "sync", " sync %s", br_synced(b));
	if (b->heartbeat)
		print_double(PRINT_ANY, "heartbeat_age", " heartbeat %.1fs",
			     age_of(b->heartbeat));
	else
		print_null(PRINT_ANY, "heartbeat_age", " heartbeat none");
	print_u64(PRINT_ANY, "daemon", " daemon %llu", b->daemon);
	print_bool(PRINT_ANY, "vlan_filtering", " vlan_filtering %s",
		   b->flags & BPFWD_BR_F_VLAN_FILTERING);
	if (b->flags & BPFWD_BR_F_VLAN_FILTERING) {
		print_string(PRINT_ANY, "vlan_protocol", " vlan_protocol %s",
			     b->flags & BPFWD_BR_F_8021AD ? "802.1ad" :
							    "802.1Q");
		print_bool(PRINT_ANY, "vlans_synced", " vlans_synced %s",
			   b->flags & BPFWD_BR_F_VLAN_SYNC);
	}
	/* br_netfilter's checks the fast path repeats for IPv4 / IPv6 */
	print_bool(PRINT_ANY, "nf_call_iptables", " nf_call_iptables %s",
		   b->flags & BPFWD_BR_F_NF_IP4);
	print_bool(PRINT_ANY, "nf_call_ip6tables", " nf_call_ip6tables %s",
		   b->flags & BPFWD_BR_F_NF_IP6);
	print_u64(PRINT_ANY, "fdb", " fdb %llu",
		  brfdb_list(m, bridge, NULL, NULL, 0));
	if (b->flags & BPFWD_BR_F_FORCE)
		print_bool(PRINT_ANY, "force", " force %s", true);
	print_nl();
	n = brport_list(m, bridge, idx, p, MAX_PORTS);
	open_json_array("ports");
	for (i = 0; i < n && i < MAX_PORTS; i++)
		show_port(m, idx[i], &p[i],
			  b->flags & BPFWD_BR_F_VLAN_FILTERING);
	close_json_array();
	close_json_object();
}

/* The bridges to show: @br alone (an error if it has no fast path), or
 * all of them.  Returns how many, or -errno with a message.
 */
static int pick_bridges(struct brmaps *m, const char *br, uint32_t *out,
			int max)
{
	struct bpfwd_br b;
	int idx, n;

	if (!br) {
		n = br_list(m, out, max);
		return n < max ? n : max;
	}
	idx = ifindex_of(br, NULL);
	if (idx < 0)
		return idx;
	if (br_get(m, idx, &b)) {
		p_err("%s: no bpfwd fast path on it", br);
		return -ENOENT;
	}
	out[0] = idx;
	return 1;
}

static int open_read(struct brmaps *m, const char *br)
{
	int err = brmaps_open(m, false);

	if (err == -ENOENT && br) {
		p_err("%s: no bpfwd fast path on it", br);
		return err;
	}
	return err == -ENOENT ? 0 : err;
}

static int do_show(int argc, char **argv)
{
	uint32_t br[BPFWD_BR_MAX_BRIDGES];
	struct brmaps m;
	struct bpfwd_br b;
	const char *name;
	int n = 0, i, err;

	opts.cmd = "bridge show";

	if (parse_br_only(argc, argv, &name, false))
		return BPFWD_EXIT_USAGE;
	err = open_read(&m, name);
	if (err)
		return BPFWD_EXIT_FAIL;
	if (m.br_fd > 0)
		n = pick_bridges(&m, name, br, ARRAY_SIZE(br));
	if (n < 0) {
		brmaps_close(&m);
		return BPFWD_EXIT_FAIL;
	}
	json_begin();
	open_json_array(NULL);
	for (i = 0; i < n; i++)
		if (!br_get(&m, br[i], &b))
			show_bridge(&m, br[i], &b);
	close_json_array();
	json_end();
	if (m.br_fd > 0)
		brmaps_close(&m);
	return BPFWD_EXIT_OK;
}

static const char *const fdb_flag_names[] = {
	"local", "static", "extern_learn", "sticky", "locked",
};

struct fdb_row {
	struct bpfwd_br_fdb_key k;
	struct bpfwd_br_fdb v;
};

struct fdb_rows {
	const uint32_t *br;
	int nbr;
	struct fdb_row *r;
	int n, max;
};

static int row_add(struct fdb_rows *s, const struct bpfwd_br_fdb_key *k,
		   const struct bpfwd_br_fdb *v)
{
	struct fdb_row *r;
	int i;

	for (i = 0; i < s->nbr; i++)
		if (s->br[i] == k->bridge)
			break;
	if (i == s->nbr)
		return 0;
	if (s->n == s->max) {
		s->max = s->max ? s->max * 2 : 256;
		r = realloc(s->r, s->max * sizeof(*r));
		if (!r)
			return -ENOMEM;
		s->r = r;
	}
	s->r[s->n].k = *k;
	s->r[s->n].v = *v;
	s->n++;
	return 0;
}

static int kernel_row(const struct brnl_fdb *f, void *data)
{
	struct bpfwd_br_fdb_key k = { .bridge = f->bridge, .vlan = f->vlan,
				      .mac = mac_key(f->mac) };
	struct bpfwd_br_fdb v = { .port = f->port, .flags = f->flags };

	return row_add(data, &k, &v);
}

static int row_cmp(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct bpfwd_br_fdb_key));
}

static void print_side(const char *key, const char *text,
		       const struct fdb_row *r, bool seen)
{
	char dev[IF_NAMESIZE];
	size_t i;

	if (!r) {
		print_null(PRINT_ANY, key, text);
		return;
	}
	open_json_object(key);
	print_string(PRINT_FP, NULL, "%s", text);
	print_string(PRINT_ANY, "dev", " %s", ifname_of(r->v.port, dev));
	open_json_array("flags");
	for (i = 0; i < ARRAY_SIZE(fdb_flag_names); i++)
		if (r->v.flags & (1U << i))
			print_string(PRINT_ANY, NULL, " %s", fdb_flag_names[i]);
	close_json_array();
	if (seen && r->v.seen)
		print_double(PRINT_ANY, "seen_age", " seen %.1fs ago",
			     age_of(r->v.seen));
	else if (seen)
		print_null(PRINT_JSON, "seen_age", NULL);
	close_json_object();
}

static void print_row(const struct fdb_row *kr, const struct fdb_row *mr)
{
	const struct fdb_row *r = kr ? kr : mr;
	char mac[18], name[IF_NAMESIZE];

	mac_str(r->k.mac, mac);
	open_json_object(NULL);
	print_string(PRINT_ANY, "mac", "%s", mac);
	print_u64(PRINT_ANY, "vlan", " vlan %llu", r->k.vlan);
	print_string(PRINT_ANY, "bridge", " %s", ifname_of(r->k.bridge, name));
	print_side("kernel", " kernel", kr, false);
	print_side("mirror", " mirror", mr, true);
	if (!kr || !mr || kr->v.port != mr->v.port ||
	    kr->v.flags != mr->v.flags)
		print_bool(PRINT_ANY, "match", " (differs)", false);
	else
		print_bool(PRINT_JSON, "match", NULL, true);
	close_json_object();
	print_nl();
}

static void fdb_print(struct fdb_rows *kern, struct fdb_rows *mir)
{
	int i = 0, j = 0, c;

	if (kern->n)	/* no rows: r may be NULL, and qsort(NULL) is undefined */
		qsort(kern->r, kern->n, sizeof(*kern->r), row_cmp);
	if (mir->n)
		qsort(mir->r, mir->n, sizeof(*mir->r), row_cmp);
	json_begin();
	open_json_array(NULL);
	while (i < kern->n || j < mir->n) {
		if (i == kern->n)
			c = 1;
		else if (j == mir->n)
			c = -1;
		else
			c = row_cmp(&kern->r[i], &mir->r[j]);
		print_row(c <= 0 ? &kern->r[i] : NULL, c >= 0 ? &mir->r[j] : NULL);
		i += c <= 0;
		j += c >= 0;
	}
	close_json_array();
	json_end();
}

static int fdb_show(struct brmaps *m, const uint32_t *br, int nbr)
{
	struct fdb_rows kern = { .br = br, .nbr = nbr };
	struct fdb_rows mir = { .br = br, .nbr = nbr };
	struct bpfwd_br_fdb_key *k = NULL;
	struct bpfwd_br_fdb *v = NULL;
	int n, i, err;

	err = brnl_dump_fdb(kernel_row, &kern);
	if (err) {
		p_err("dump fdb: %s", strerror(-err));
		goto out;
	}
	n = brfdb_list(m, 0, NULL, NULL, 0);
	k = calloc(n + 1, sizeof(*k));
	v = calloc(n + 1, sizeof(*v));
	if (!k || !v) {
		err = -ENOMEM;
		goto out;
	}
	n = brfdb_list(m, 0, k, v, n);
	for (i = 0; i < n && !err; i++)
		err = row_add(&mir, &k[i], &v[i]);
	if (!err)
		fdb_print(&kern, &mir);
out:
	free(k);
	free(v);
	free(kern.r);
	free(mir.r);
	return err;
}

static int do_fdb_show(int argc, char **argv)
{
	uint32_t br[BPFWD_BR_MAX_BRIDGES];
	struct brmaps m;
	const char *name;
	int n = 0, err;

	opts.cmd = "bridge fdb show";

	if (parse_br_only(argc, argv, &name, false))
		return BPFWD_EXIT_USAGE;
	err = open_read(&m, name);
	if (err)
		return BPFWD_EXIT_FAIL;
	if (m.br_fd < 0) {
		json_begin();
		open_json_array(NULL);
		close_json_array();
		json_end();
		return BPFWD_EXIT_OK;
	}
	n = pick_bridges(&m, name, br, ARRAY_SIZE(br));
	err = n < 0 ? n : fdb_show(&m, br, n);
	brmaps_close(&m);
	return err ? BPFWD_EXIT_FAIL : BPFWD_EXIT_OK;
}

static int do_fdb(int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "show", do_fdb_show },
		{ "list", do_fdb_show },
		{ "help", bridge_help },
		{ 0 }
	};

	if (argc < 1)
		return do_fdb_show(0, NULL);
	return cmd_select(cmds, argc, argv, "command", bridge_help);
}

static const char *const counter_names[__BPFWD_BRC_MAX] = {
	[BPFWD_BRC_FORWARDED] = "forwarded",
	[BPFWD_BRC_BYTES] = "bytes",
	[BPFWD_BRC_NOT_PORT] = "not_port",
	[BPFWD_BRC_STALE] = "stale",
	[BPFWD_BRC_VLAN] = "vlan",
	[BPFWD_BRC_LINK_LOCAL] = "link_local",
	[BPFWD_BRC_MULTICAST] = "multicast",
	[BPFWD_BRC_PORT_STATE] = "port_state",
	[BPFWD_BRC_UNKNOWN_SRC] = "unknown_src",
	[BPFWD_BRC_MOVED_SRC] = "moved_src",
	[BPFWD_BRC_LOCAL] = "local",
	[BPFWD_BRC_UNKNOWN_DST] = "unknown_dst",
	[BPFWD_BRC_EGRESS] = "egress",
	[BPFWD_BRC_ISOLATION] = "isolation",
	[BPFWD_BRC_MTU] = "mtu",
	[BPFWD_BRC_MALFORMED] = "malformed",
};

static void stats_one(uint32_t bridge, const struct bpfwd_br_stats *s)
{
	char name[IF_NAMESIZE];
	uint64_t passed = 0;
	int i;

	for (i = BPFWD_BRC_NOT_PORT; i < __BPFWD_BRC_MAX; i++)
		passed += s->c[i];
	open_json_object(NULL);
	if (bridge)
		print_string(PRINT_ANY, "bridge", "%s", ifname_of(bridge, name));
	else
		print_null(PRINT_ANY, "bridge", "(no bridge)");
	print_u64(PRINT_ANY, "forwarded", " forwarded %llu",
		  s->c[BPFWD_BRC_FORWARDED]);
	print_u64(PRINT_ANY, "bytes", " bytes %llu", s->c[BPFWD_BRC_BYTES]);
	print_u64(PRINT_ANY, "passed", " passed %llu", passed);
	open_json_object("reasons");
	for (i = BPFWD_BRC_NOT_PORT; i < __BPFWD_BRC_MAX; i++) {
		char fmt[64];

		snprintf(fmt, sizeof(fmt), " %s %%llu", counter_names[i]);
		print_u64(s->c[i] ? PRINT_ANY : PRINT_JSON, counter_names[i],
			  fmt, s->c[i]);
	}
	close_json_object();
	close_json_object();
	print_nl();
}

int bridge_stats_show(const char *br, const char *key)
{
	uint32_t list[BPFWD_BR_MAX_BRIDGES + 1];
	struct bpfwd_br_stats s;
	struct brmaps m;
	int n, i, err;

	err = open_read(&m, br);
	if (err || m.br_fd < 0)
		return err;
	n = pick_bridges(&m, br, list, BPFWD_BR_MAX_BRIDGES);
	if (n < 0) {
		brmaps_close(&m);
		return n;
	}
	if (!br)	/* frames on ports no bridge of ours owns */
		list[n++] = 0;
	open_json_array(key);
	for (i = 0; i < n; i++)
		if (!brstats_read(&m, list[i], &s) &&
		    (list[i] || s.c[BPFWD_BRC_NOT_PORT]))
			stats_one(list[i], &s);
	close_json_array();
	brmaps_close(&m);
	return 0;
}

static int do_stats_cmd(int argc, char **argv)
{
	const char *name;
	int err;

	opts.cmd = "bridge stats";

	if (parse_br_only(argc, argv, &name, false))
		return BPFWD_EXIT_USAGE;
	json_begin();
	err = bridge_stats_show(name, NULL);
	json_end();
	return err ? BPFWD_EXIT_FAIL : BPFWD_EXIT_OK;
}

int do_bridge(int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "add", do_add },
		{ "del", do_del },
		{ "delete", do_del },
		{ "show", do_show },
		{ "list", do_show },
		{ "fdb", do_fdb },
		{ "stats", do_stats_cmd },
		{ "help", bridge_help },
		{ 0 }
	};

	if (argc < 1)
		return do_show(0, NULL);
	opts.cmd = "bridge";
	return cmd_select(cmds, argc, argv, "command", bridge_help);
}
