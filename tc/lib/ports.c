// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Port tables in pinned maps (see ports.h).
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loader.h"
#include "netdev.h"
#include "pins.h"
#include "ports.h"
#include "util.h"

int nr_cpus(void)
{
	static int n;

	if (!n)
		n = libbpf_num_possible_cpus();
	return n > 0 ? n : 1;
}

static int open_pin(struct table *t, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", t->dir, name);
	return bpf_obj_get(path);
}

static int table_path(struct table *t, bool create)
{
	return t->stock ? stock_dir(t->dir, sizeof(t->dir), create) :
			  ns_dir(t->dir, sizeof(t->dir), create);
}

/* Finds (with @create makes) the table's directory and locks it: the
 * lock comes before anything is read, so what the command decides from
 * the table (a free slot, whether it exists) holds until it ends.
 */
static int table_dir_lock(struct table *t, bool create)
{
	int i, err = 0;

	for (i = 0; i < 8; i++) {
		err = table_path(t, create);
		if (err)
			return err;
		err = pin_dir_lock(t->dir);
		if (err != -ESTALE)	/* removed meanwhile: look again */
			break;
	}
	if (err == -ENOENT && !create)
		return err;
	if (err)
		p_err("lock %s: %s", t->dir, strerror(-err));
	return err;
}

/* A writer that found the table with table_open_read() locks it at its
 * first change (a no-op when table_open() did).  Its callers report.
 */
static int table_lock(struct table *t)
{
	return pin_dir_lock(t->dir);
}

static int table_open_as(struct table *t, bool stock, bool create,
			 bool change)
{
	struct redirect *skel;
	bool exists;
	int err;

	memset(t, 0, sizeof(*t));
	t->ports_fd = t->stats_fd = -1;
	t->stock = stock;
	err = bpffs_ensure();
	if (err)
		return err;
	err = change ? table_dir_lock(t, create) : table_path(t, false);
	if (err)
		return err;
	err = table_check_layout(t->dir, &exists, false);
	if (err)
		return err;
	if (!exists) {
		if (!create)
			return -ENOENT;
		err = loader_load_prog(t->dir, RD_MAPS, 0, &skel, NULL, NULL);
		if (err)
			return err;
		loader_free(skel);
		t->created = true;
	}
	t->ports_fd = open_pin(t, BPFWD_MAP_PORTS);
	t->stats_fd = open_pin(t, BPFWD_MAP_STATS);
	if (t->ports_fd < 0 || t->stats_fd < 0) {
		err = -errno;
		p_err("open table in %s: %s", t->dir, strerror(-err));
		table_close(t);
		return err;
	}
	return 0;
}

int table_open(struct table *t, bool stock, bool create)
{
	return table_open_as(t, stock, create, true);
}

int stock_check_layout(bool warn)
{
	char dir[PATH_MAX];
	int err = stock_dir(dir, sizeof(dir), false);

	return err ? err : table_check_layout(dir, NULL, warn);
}

int table_open_read(struct table *t, bool stock)
{
	/* once per process: a monitor looks ports up every interval */
	static int stale = -1;

	/* the stock table is shared by every namespace: one an older
	 * bpfwd left must not hide this namespace's ports
	 */
	if (stock && stale < 0)
		stale = stock_check_layout(true) == -EEXIST;
	if (stock && stale)
		return -ENOENT;
	return table_open_as(t, stock, false, false);
}

void table_close(struct table *t)
{
	if (t->ports_fd >= 0)
		close(t->ports_fd);
	if (t->stats_fd >= 0)
		close(t->stats_fd);
	t->ports_fd = t->stats_fd = -1;
}

void table_gc(struct table *t)
{
	char path[PATH_MAX];
	uint32_t key;

	if (t->stock || t->ports_fd < 0 || table_lock(t))
		return;
	if (!bpf_map_get_next_key(t->ports_fd, NULL, &key))
		return;
	snprintf(path, sizeof(path), "%s/%s", t->dir, BPFWD_MAP_PORTS);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s", t->dir, BPFWD_MAP_STATS);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s", t->dir, BPFWD_MAP_NAMES);
	unlink(path);
	if (rmdir(t->dir) && errno != ENOENT)
		pr_info("%s: %s", t->dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/bpfwd", bpffs_root());
	rmdir(path);	/* only when empty: other namespaces' dirs stay */
}

int port_get(struct table *t, uint32_t ifindex, struct bpfwd_port *p)
{
	return bpf_map_lookup_elem(t->ports_fd, &ifindex, p) ? -errno : 0;
}

int port_put(struct table *t, uint32_t ifindex, const struct bpfwd_port *p,
	     uint64_t flags)
{
	int err = table_lock(t);

	if (err)
		return err;
	return bpf_map_update_elem(t->ports_fd, &ifindex, p, flags) ? -errno : 0;
}

int port_delete(struct table *t, uint32_t ifindex)
{
	int err = table_lock(t);

	if (err)
		return err;
	return bpf_map_delete_elem(t->ports_fd, &ifindex) ? -errno : 0;
}

int port_list(struct table *t, uint32_t *ifindex, struct bpfwd_port *p,
	      int max)
{
	uint32_t key, next;
	void *prev = NULL;
	int n = 0;

	while (!bpf_map_get_next_key(t->ports_fd, prev, &next)) {
		key = next;
		prev = &key;
		if (n < max) {
			if (port_get(t, key, &p[n]))
				continue;	/* deleted meanwhile */
			ifindex[n] = key;
		}
		n++;
	}
	return n;
}

int table_each(struct table *t, port_fn fn, void *data)
{
	struct bpfwd_port *p = calloc(BPFWD_MAX_PORTS, sizeof(*p));
	uint32_t *idx = calloc(BPFWD_MAX_PORTS, sizeof(*idx));
	int i, n, err, ret = 0;

	if (!p || !idx) {
		ret = -ENOMEM;
		goto out;
	}
	n = port_list(t, idx, p, BPFWD_MAX_PORTS);
	for (i = 0; i < n && i < BPFWD_MAX_PORTS; i++) {
		err = fn(t, idx[i], &p[i], data);
		if (err && !ret)
			ret = err;
	}
out:
	free(p);
	free(idx);
	return ret;
}

static int mark_slot(struct table *t, uint32_t ifindex,
		     const struct bpfwd_port *p, void *data)
{
	unsigned char *used = data;

	if (p->slot < BPFWD_MAX_SLOTS)
		used[p->slot] = 1;
	return 0;
}

int slot_alloc(struct table *t, uint32_t *slot)
{
	unsigned char used[BPFWD_MAX_SLOTS] = { 0 };
	int i, err;

	err = table_lock(t);
	if (err)
		return err;
	err = table_each(t, mark_slot, used);
	if (err)
		return err;
	for (i = 1; i < BPFWD_MAX_SLOTS; i++) {
		if (!used[i]) {
			*slot = i;
			return 0;
		}
	}
	return -ENOSPC;
}

const char *const port_mode_words[__BPFWD_MODE_MAX] = {
	[BPFWD_MODE_REDIRECT] = "redirect",
	[BPFWD_MODE_CLONE] = "clone",
	[BPFWD_MODE_PEER] = "peer",
	[BPFWD_MODE_NEIGH] = "neigh",
	[BPFWD_MODE_MIRROR] = "mirror",
	[BPFWD_MODE_MAP] = "map",
	[BPFWD_MODE_CPUMAP] = "cpumap",
	[BPFWD_MODE_FLOOD] = "flood",
};

const char *port_mode_name(uint32_t mode)
{
	return mode < __BPFWD_MODE_MAX && port_mode_words[mode] ?
		port_mode_words[mode] : "?";
}

bool port_owned(const struct table *t, const struct bpfwd_port *p)
{
	return !t->stock || p->netns == netns_cookie();
}

int port_find(uint32_t ifindex, struct table *t, struct bpfwd_port *p)
{
	int s, err;

	for (s = 0; s < 2; s++) {
		err = table_open_read(t, s);
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

int ports_walk(port_fn fn, void *data, bool gc)
{
	return ports_walk_tables(NULL, fn, data, gc);
}

struct owned_walk {
	port_fn fn;
	void *data;
};

static int if_owned(struct table *t, uint32_t ifindex,
		    const struct bpfwd_port *p, void *data)
{
	struct owned_walk *w = data;

	return port_owned(t, p) ? w->fn(t, ifindex, p, w->data) : 0;
}

int ports_walk_tables(table_fn tfn, port_fn fn, void *data, bool gc)
{
	struct owned_walk w = { .fn = fn, .data = data };
	int s, err, ret = 0;
	struct table t;

	for (s = 0; s < 2; s++) {
		err = table_open_read(&t, s);
		if (err == -ENOENT)
			continue;
		if (err)
			return err;
		if (tfn) {
			err = tfn(&t, data);
			if (err && !ret)
				ret = err;
		}
		err = table_each(&t, if_owned, &w);
		if (err && !ret)
			ret = err;
		if (gc)
			table_gc(&t);
		table_close(&t);
	}
	return ret;
}

int stats_read(struct table *t, uint32_t slot, struct bpfwd_stats *sum,
	       struct bpfwd_stats *percpu)
{
	int n = nr_cpus(), i;
	struct bpfwd_stats *v = calloc(n, sizeof(*v));

	if (!v)
		return -ENOMEM;
	memset(sum, 0, sizeof(*sum));
	if (bpf_map_lookup_elem(t->stats_fd, &slot, v)) {
		int err = -errno;

		free(v);
		return err;
	}
	for (i = 0; i < n; i++) {
		sum->packets += v[i].packets;
		sum->bytes += v[i].bytes;
		sum->dropped += v[i].dropped;
		sum->err_clone += v[i].err_clone;
		sum->err_redirect += v[i].err_redirect;
		sum->no_target += v[i].no_target;
		sum->runt += v[i].runt;
		sum->vlan += v[i].vlan;
	}
	if (percpu)
		memcpy(percpu, v, n * sizeof(*v));
	free(v);
	return 0;
}

/* Whether an entry of the table counts in @slot. */
static bool slot_used(struct table *t, uint32_t slot)
{
	struct bpfwd_port p;
	uint32_t key, next;
	void *prev = NULL;

	while (!bpf_map_get_next_key(t->ports_fd, prev, &next)) {
		key = next;
		prev = &key;
		if (!port_get(t, key, &p) && p.slot == slot)
			return true;
	}
	return false;
}

int stats_clear(struct table *t, uint32_t slot)
{
	struct bpfwd_stats *v;
	int err = table_lock(t);

	if (err)
		return err;
	/* a port's entry read before the lock may be stale: its slot
	 * can be another port's by now
	 */
	if (slot_used(t, slot))
		return -EBUSY;
	v = calloc(nr_cpus(), sizeof(*v));
	if (!v)
		return -ENOMEM;
	err = bpf_map_update_elem(t->stats_fd, &slot, v, 0) ? -errno : 0;
	free(v);
	return err;
}

void link_pin_path(struct table *t, uint32_t ifindex, bool egress,
		   char *buf, size_t len)
{
	snprintf(buf, len, "%s/link_%u_%s", t->dir, ifindex,
		 egress ? "egress" : "ingress");
}

const char *const port_target_state_names[] = {
	[TS_NONE] = "-", [TS_UP] = "up", [TS_DOWN] = "down",
	[TS_NO_CARRIER] = "no-carrier", [TS_GONE] = "gone",
	[TS_UNKNOWN] = "unknown",
};

enum port_target_state port_target_state(uint32_t ifindex)
{
	struct link_info li;
	int err;

	if (!ifindex)
		return TS_NONE;
	err = netdev_link(ifindex, &li);
	if (err == -ENODEV)
		return TS_GONE;
	if (err)
		return TS_UNKNOWN;
	if (!li.up)
		return TS_DOWN;
	return li.carrier ? TS_UP : TS_NO_CARRIER;
}

/* The names map of @t, made with @create when missing; an fd or -errno. */
static int names_open(struct table *t, bool create)
{
	LIBBPF_OPTS(bpf_map_create_opts, o);
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", t->dir, BPFWD_MAP_NAMES);
	fd = bpf_obj_get(path);
	if (fd >= 0 || !create)
		return fd < 0 ? -errno : fd;
	/* a name for each port's device and one for its target */
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, BPFWD_MAP_NAMES, sizeof(__u32),
			    IF_NAMESIZE, 2 * BPFWD_MAX_PORTS, &o);
	if (fd < 0)
		return -errno;
	/* a command that pinned it meanwhile: take that one */
	if (bpf_obj_pin(fd, path)) {
		close(fd);
		fd = bpf_obj_get(path);
		if (fd < 0)
			return -errno;
	}
	return fd;
}

/* The key of a port's target's name: the port's ifindex with the top
 * bit set (ifindexes are positive ints).
 */
#define NAME_OF_TARGET	(1U << 31)

static int name_put(struct table *t, uint32_t key, const char *name)
{
	char v[IF_NAMESIZE] = { 0 };
	int fd, err;

	/* stock tc's directory holds what tc pins (and users remove) */
	if (t->stock)
		return 0;
	fd = names_open(t, true);
	if (fd < 0)
		return fd;
	snprintf(v, sizeof(v), "%s", name);
	err = bpf_map_update_elem(fd, &key, v, 0) ? -errno : 0;
	close(fd);
	return err;
}

static int name_get(struct table *t, uint32_t key, char *name)
{
	int fd = names_open(t, false), err;

	if (fd < 0)
		return -ENOENT;
	err = bpf_map_lookup_elem(fd, &key, name) ? -ENOENT : 0;
	close(fd);
	if (!err)
		name[IF_NAMESIZE - 1] = '\0';
	return err;
}

int port_name_put(struct table *t, uint32_t ifindex, const char *name)
{
	return name_put(t, ifindex, name);
}

int port_name_get(struct table *t, uint32_t ifindex, char *name)
{
	return name_get(t, ifindex, name);
}

int port_target_name_put(struct table *t, uint32_t ifindex, const char *name)
{
	return name_put(t, ifindex | NAME_OF_TARGET, name);
}

int port_target_name_get(struct table *t, uint32_t ifindex, char *name)
{
	return name_get(t, ifindex | NAME_OF_TARGET, name);
}

void port_name_del(struct table *t, uint32_t ifindex)
{
	uint32_t key = ifindex | NAME_OF_TARGET;
	int fd = names_open(t, false);

	if (fd < 0)
		return;
	bpf_map_delete_elem(fd, &ifindex);
	bpf_map_delete_elem(fd, &key);
	close(fd);
}

struct gone_find {
	const char *name;
	uint32_t ifindex;
	struct bpfwd_port p;
	bool found;
};

static int gone_match(struct table *t, uint32_t ifindex,
		      const struct bpfwd_port *p, void *data)
{
	struct gone_find *g = data;
	char name[IF_NAMESIZE];

	if (g->found || !port_owned(t, p) || if_indextoname(ifindex, name) ||
	    port_name_get(t, ifindex, name) || strcmp(name, g->name))
		return 0;
	g->found = true;
	g->ifindex = ifindex;
	g->p = *p;
	return 0;
}

int port_find_gone(const char *name, uint32_t *ifindex, struct table *t,
		   struct bpfwd_port *p)
{
	struct gone_find g = { .name = name };
	int s, err;

	for (s = 0; s < 2; s++) {
		err = table_open_read(t, s);
		if (err == -ENOENT)
			continue;
		if (err)
			return err;
		table_each(t, gone_match, &g);
		if (g.found) {
			*ifindex = g.ifindex;
			*p = g.p;
			return 0;
		}
		table_close(t);
	}
	return -ENOENT;
}
