// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * The bridge fast path's pins (see brmaps.h): its maps, its two
 * programs and the lock.  Attaching is in brattach.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "brmaps.h"
#include "nl.h"
#include "pins.h"
#include "ports.h"
#include "util.h"
#include "bridge.skel.h"

#define BR_TC_PRIO	1
#define PROG_TC		"prog_tc"
#define PROG_XDP	"prog_xdp"

struct map_layout {
	const char *name;
	enum bpf_map_type type;
	uint32_t key, value, max;
	size_t off;		/* of the fd in struct brmaps */
};

static const struct map_layout br_maps[] = {
	{ BPFWD_MAP_BR, BPF_MAP_TYPE_HASH, 4, sizeof(struct bpfwd_br),
	  BPFWD_BR_MAX_BRIDGES, offsetof(struct brmaps, br_fd) },
	{ BPFWD_MAP_BR_PORTS, BPF_MAP_TYPE_HASH, 4,
	  sizeof(struct bpfwd_br_port), BPFWD_MAX_PORTS,
	  offsetof(struct brmaps, ports_fd) },
	{ BPFWD_MAP_BR_FDB, BPF_MAP_TYPE_HASH, sizeof(struct bpfwd_br_fdb_key),
	  sizeof(struct bpfwd_br_fdb), BPFWD_BR_MAX_FDB,
	  offsetof(struct brmaps, fdb_fd) },
	{ BPFWD_MAP_BR_STATS, BPF_MAP_TYPE_PERCPU_ARRAY, 4,
	  sizeof(struct bpfwd_br_stats), BPFWD_BR_MAX_BRIDGES + 1,
	  offsetof(struct brmaps, stats_fd) },
	{ BPFWD_MAP_BR_SLOTS, BPF_MAP_TYPE_ARRAY, 4, sizeof(struct bpfwd_br),
	  BPFWD_BR_MAX_BRIDGES + 1, offsetof(struct brmaps, slots_fd) },
	{ BPFWD_MAP_BR_SEEN, BPF_MAP_TYPE_RINGBUF, 0, 0, BPFWD_BR_SEEN_BYTES,
	  offsetof(struct brmaps, seen_fd) },
	{ BPFWD_MAP_BR_PSLOTS, BPF_MAP_TYPE_ARRAY, 4,
	  sizeof(struct bpfwd_br_port), BPFWD_MAX_PORTS + 1,
	  offsetof(struct brmaps, pslots_fd) },
	{ BPFWD_MAP_BR_VLAN, BPF_MAP_TYPE_HASH, sizeof(struct bpfwd_br_vlan_key),
	  sizeof(struct bpfwd_br_vlan), BPFWD_BR_MAX_VLAN,
	  offsetof(struct brmaps, vlan_fd) },
};

static int *fd_of(struct brmaps *m, const struct map_layout *l)
{
	return (int *)((char *)m + l->off);
}

static void pin_path(const struct brmaps *m, const char *name, char *buf,
		     size_t len)
{
	snprintf(buf, len, "%s/%s", m->dir, name);
}

static int br_dir(char *buf, size_t len)
{
	char ns[PATH_MAX];
	int err = ns_dir(ns, sizeof(ns), false);

	if (err)
		return err;
	if ((size_t)snprintf(buf, len, "%s/bridge", ns) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static int open_pins(struct brmaps *m)
{
	char path[PATH_MAX];
	bool exists;
	size_t i;
	int err;

	for (i = 0; i < ARRAY_SIZE(br_maps); i++) {
		const struct map_layout *l = &br_maps[i];

		pin_path(m, l->name, path, sizeof(path));
		err = pin_check_map(path, l->type, l->key, l->value, l->max,
				    &exists, false);
		if (err)
			return err;
		if (!exists)
			return -ENOENT;
		*fd_of(m, l) = bpf_obj_get(path);
		if (*fd_of(m, l) < 0)
			return -errno;
	}
	return 0;
}

/* Loads bridge.o with the directory as pin root: its maps are made (or
 * reused) and pinned by name; then pins its programs, once.
 */
static int load_and_pin(struct brmaps *m)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = m->dir);
	struct bpf_program *progs[2];
	const char *names[2] = { PROG_TC, PROG_XDP };
	struct bridge *skel;
	char path[PATH_MAX];
	int err, i;

	skel = bridge__open_opts(&oo);
	if (!skel) {
		err = -errno;
		p_err("open bridge.o: %s", strerror(-err));
		return err;
	}
	bpf_program__set_type(skel->progs.br_tc, BPF_PROG_TYPE_SCHED_CLS);
	bpf_program__set_type(skel->progs.br_xdp, BPF_PROG_TYPE_XDP);
	err = bridge__load(skel);
	if (err) {
		p_err("load bridge.o: %s (bpfwd -vv shows the verifier log)",
		      strerror(-err));
		goto out;
	}
	progs[0] = skel->progs.br_tc;
	progs[1] = skel->progs.br_xdp;
	for (i = 0; i < 2; i++) {
		pin_path(m, names[i], path, sizeof(path));
		if (!access(path, F_OK))
			continue;
		if (bpf_obj_pin(bpf_program__fd(progs[i]), path)) {
			err = -errno;
			p_err("pin %s: %s", path, strerror(-err));
			goto out;
		}
	}
out:
	bridge__destroy(skel);
	return err;
}

int brmaps_prog(struct brmaps *m, bool xdp, uint32_t pslot)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = m->dir);
	struct bridge *skel = bridge__open_opts(&oo);
	struct bpf_program *p;
	int err, fd;

	if (!skel) {
		err = -errno;
		p_err("open bridge.o: %s", strerror(-err));
		return err;
	}
	p = xdp ? skel->progs.br_xdp : skel->progs.br_tc;
	bpf_program__set_type(p, xdp ? BPF_PROG_TYPE_XDP :
				       BPF_PROG_TYPE_SCHED_CLS);
	bpf_program__set_autoload(xdp ? skel->progs.br_tc : skel->progs.br_xdp,
				  false);
	skel->rodata->in_pslot = pslot;
	err = bridge__load(skel);
	if (err) {
		p_err("load bridge.o: %s (bpfwd -vv shows the verifier log)",
		      strerror(-err));
		bridge__destroy(skel);
		return err;
	}
	fd = dup(bpf_program__fd(p));
	err = -errno;
	bridge__destroy(skel);
	return fd < 0 ? err : fd;
}

int brmaps_open(struct brmaps *m, bool create)
{
	size_t i;
	int err;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < ARRAY_SIZE(br_maps); i++)
		*fd_of(m, &br_maps[i]) = -1;
	m->lock_fd = -1;
	err = br_dir(m->dir, sizeof(m->dir));
	if (err)
		return err;
	if (create) {
		err = bpffs_ensure();
		if (!err)
			err = mkdir_p(m->dir, 0700);
		if (err) {
			p_err("%s: %s", m->dir, strerror(-err));
			return err;
		}
	}
	m->lock_fd = open(m->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (m->lock_fd < 0)
		return errno == ENOENT ? -ENOENT : -errno;
	err = open_pins(m);
	if (err == -ENOENT && create) {
		brmaps_close(m);
		m->lock_fd = open(m->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		err = m->lock_fd < 0 ? -errno : load_and_pin(m);
		if (!err)
			err = open_pins(m);
	}
	if (err)
		brmaps_close(m);
	return err;
}

void brmaps_close(struct brmaps *m)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(br_maps); i++) {
		int *fd = fd_of(m, &br_maps[i]);

		if (*fd >= 0)
			close(*fd);
		*fd = -1;
	}
	if (m->lock_fd >= 0)
		close(m->lock_fd);
	m->lock_fd = -1;
}

void brmaps_gc(struct brmaps *m)
{
	static const char *const progs[] = { PROG_TC, PROG_XDP };
	char path[PATH_MAX];
	uint32_t key;
	size_t i;

	if (m->br_fd < 0 || !bpf_map_get_next_key(m->br_fd, NULL, &key))
		return;
	if (m->ports_fd >= 0 && !bpf_map_get_next_key(m->ports_fd, NULL, &key))
		return;
	for (i = 0; i < ARRAY_SIZE(br_maps); i++) {
		pin_path(m, br_maps[i].name, path, sizeof(path));
		unlink(path);
	}
	for (i = 0; i < ARRAY_SIZE(progs); i++) {
		pin_path(m, progs[i], path, sizeof(path));
		unlink(path);
	}
	if (rmdir(m->dir) && errno != ENOENT)
		pr_info("%s: %s", m->dir, strerror(errno));
	/* the namespace's and bpfwd's directories, when nothing else is there */
	snprintf(path, sizeof(path), "%s", m->dir);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	snprintf(path, sizeof(path), "%s/bpfwd", bpffs_root());
	rmdir(path);
}

int brmaps_lock(struct brmaps *m)
{
	return flock(m->lock_fd, LOCK_EX) ? -errno : 0;
}

bool brmaps_pinned(struct brmaps *m)
{
	char path[PATH_MAX];

	pin_path(m, BPFWD_MAP_BR, path, sizeof(path));
	return !access(path, F_OK);
}

void brmaps_unlock(struct brmaps *m)
{
	flock(m->lock_fd, LOCK_UN);
}

int br_get(struct brmaps *m, uint32_t bridge, struct bpfwd_br *b)
{
	return bpf_map_lookup_elem(m->br_fd, &bridge, b) ? -errno : 0;
}

/* The entry, and its copy by slot that the programs read: the copy goes
 * first, comes last.
 */
int br_put(struct brmaps *m, uint32_t bridge, const struct bpfwd_br *b)
{
	struct bpfwd_br old, none = { 0 };

	if (!b) {
		if (!br_get(m, bridge, &old) && old.slot &&
		    old.slot <= BPFWD_BR_MAX_BRIDGES)
			bpf_map_update_elem(m->slots_fd, &old.slot, &none, 0);
		return bpf_map_delete_elem(m->br_fd, &bridge) ? -errno : 0;
	}
	if (bpf_map_update_elem(m->br_fd, &bridge, b, 0))
		return -errno;
	if (b->slot && b->slot <= BPFWD_BR_MAX_BRIDGES &&
	    bpf_map_update_elem(m->slots_fd, &b->slot, b, 0))
		return -errno;
	return 0;
}

int br_list(struct brmaps *m, uint32_t *bridges, int max)
{
	uint32_t key, next;
	int n = 0;
	void *prev = NULL;

	while (!bpf_map_get_next_key(m->br_fd, prev, &next)) {
		if (n < max)
			bridges[n] = next;
		n++;
		key = next;
		prev = &key;
	}
	return n;
}

int brport_get(struct brmaps *m, uint32_t ifindex, struct bpfwd_br_port *p)
{
	return bpf_map_lookup_elem(m->ports_fd, &ifindex, p) ? -errno : 0;
}

static bool pslot_ok(uint32_t pslot)
{
	return pslot && pslot <= BPFWD_MAX_PORTS;
}

/* The entry, and its copy by slot that the programs read: the copy goes
 * first, comes last.
 */
int brport_put(struct brmaps *m, uint32_t ifindex,
	       const struct bpfwd_br_port *p)
{
	struct bpfwd_br_port old, none = { 0 };
	int err;

	if (p) {
		if (bpf_map_update_elem(m->ports_fd, &ifindex, p, 0))
			return -errno;
		if (pslot_ok(p->pslot) &&
		    bpf_map_update_elem(m->pslots_fd, &p->pslot, p, 0))
			return -errno;
		return 0;
	}
	if (!brport_get(m, ifindex, &old) && pslot_ok(old.pslot))
		bpf_map_update_elem(m->pslots_fd, &old.pslot, &none, 0);
	err = bpf_map_delete_elem(m->ports_fd, &ifindex) ? -errno : 0;
	return err == -ENOENT ? 0 : err;
}

int brport_slot_alloc(struct brmaps *m)
{
	static struct bpfwd_br_port p[BPFWD_MAX_PORTS];
	static uint32_t idx[BPFWD_MAX_PORTS];
	static bool used[BPFWD_MAX_PORTS + 1];
	int n = brport_list(m, 0, idx, p, BPFWD_MAX_PORTS), i;
	struct bpfwd_br_port v;

	memset(used, 0, sizeof(used));
	for (i = 0; i < n && i < BPFWD_MAX_PORTS; i++)
		if (pslot_ok(p[i].pslot))
			used[p[i].pslot] = true;
	for (i = 1; i <= BPFWD_MAX_PORTS; i++) {
		/* nor one a copy still holds (a port half removed) */
		if (used[i] ||
		    (!bpf_map_lookup_elem(m->pslots_fd, &i, &v) && v.ifindex))
			continue;
		return i;
	}
	return -ENOSPC;
}

int brport_list(struct brmaps *m, uint32_t bridge, uint32_t *ifindex,
		struct bpfwd_br_port *p, int max)
{
	struct bpfwd_br_port v;
	uint32_t key, next;
	void *prev = NULL;
	int n = 0;

	while (!bpf_map_get_next_key(m->ports_fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(m->ports_fd, &key, &v) ||
		    (bridge && v.bridge != bridge))
			continue;
		if (n < max) {
			ifindex[n] = key;
			if (p)
				p[n] = v;
		}
		n++;
	}
	return n;
}

/* Not a slot a bridge has, nor one the ports of a bridge that is gone
 * still count in (the daemon detaches those later).
 */
int br_slot_alloc(struct brmaps *m)
{
	static struct bpfwd_br_port p[BPFWD_MAX_PORTS];
	static uint32_t idx[BPFWD_MAX_PORTS];
	bool used[BPFWD_BR_MAX_BRIDGES + 1] = { false };
	uint32_t br[BPFWD_BR_MAX_BRIDGES];
	int n = br_list(m, br, BPFWD_BR_MAX_BRIDGES), i;
	struct bpfwd_br b;

	for (i = 0; i < n && i < BPFWD_BR_MAX_BRIDGES; i++)
		if (!br_get(m, br[i], &b) && b.slot <= BPFWD_BR_MAX_BRIDGES)
			used[b.slot] = true;
	n = brport_list(m, 0, idx, p, BPFWD_MAX_PORTS);
	for (i = 0; i < n && i < BPFWD_MAX_PORTS; i++)
		if (p[i].slot <= BPFWD_BR_MAX_BRIDGES)
			used[p[i].slot] = true;
	for (i = 1; i <= BPFWD_BR_MAX_BRIDGES; i++)
		if (!used[i])
			return i;
	return -ENOSPC;
}

/* The bpfwd_br_stats index of @bridge: its slot, 0 for none. */
static int stats_slot(struct brmaps *m, uint32_t bridge, uint32_t *slot)
{
	struct bpfwd_br b;
	int err;

	*slot = 0;
	if (!bridge)
		return 0;
	err = br_get(m, bridge, &b);
	if (err)
		return err;
	if (!b.slot || b.slot > BPFWD_BR_MAX_BRIDGES)
		return -ENOENT;
	*slot = b.slot;
	return 0;
}

int brstats_read(struct brmaps *m, uint32_t bridge,
		 struct bpfwd_br_stats *s)
{
	int cpus = nr_cpus(), i, j;
	struct bpfwd_br_stats *pc;
	uint32_t slot;

	memset(s, 0, sizeof(*s));
	if (cpus <= 0)
		return -EINVAL;
	i = stats_slot(m, bridge, &slot);
	if (i)
		return i;
	pc = calloc(cpus, sizeof(*pc));
	if (!pc)
		return -ENOMEM;
	if (bpf_map_lookup_elem(m->stats_fd, &slot, pc)) {
		int err = -errno;

		free(pc);
		return err;
	}
	for (i = 0; i < cpus; i++)
		for (j = 0; j < __BPFWD_BRC_MAX; j++)
			s->c[j] += pc[i].c[j];
	free(pc);
	return 0;
}

int brstats_reset(struct brmaps *m, uint32_t bridge)
{
	int cpus = nr_cpus(), err;
	struct bpfwd_br_stats *pc;
	uint32_t slot;

	if (cpus <= 0)
		return -EINVAL;
	err = stats_slot(m, bridge, &slot);
	if (err)
		return err;
	pc = calloc(cpus, sizeof(*pc));
	if (!pc)
		return -ENOMEM;
	err = bpf_map_update_elem(m->stats_fd, &slot, pc, 0) ? -errno : 0;
	free(pc);
	return err;
}

/* The walk one entry at a time: two syscalls an entry. */
static int fdb_walk(struct brmaps *m, uint32_t bridge,
		    struct bpfwd_br_fdb_key *k, struct bpfwd_br_fdb *v, int max)
{
	struct bpfwd_br_fdb_key key, next;
	struct bpfwd_br_fdb val;
	void *prev = NULL;
	int n = 0;

	while (!bpf_map_get_next_key(m->fdb_fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bridge && key.bridge != bridge)
			continue;
		if (n < max && (k || v)) {
			if (bpf_map_lookup_elem(m->fdb_fd, &key, &val))
				continue;
			if (k)
				k[n] = key;
			if (v)
				v[n] = val;
		}
		n++;
	}
	return n;
}

#define FDB_BATCH	4096

/* A batch at a time (BPF_MAP_LOOKUP_BATCH, Linux 5.6): a walk of the
 * whole mirror costs a syscall per FDB_BATCH entries.  Where the kernel
 * has none, or a batch fails midway, the walk one by one.
 */
int brfdb_list(struct brmaps *m, uint32_t bridge,
	       struct bpfwd_br_fdb_key *k, struct bpfwd_br_fdb *v, int max)
{
	static struct bpfwd_br_fdb_key bk[FDB_BATCH];
	static struct bpfwd_br_fdb bv[FDB_BATCH];
	LIBBPF_OPTS(bpf_map_batch_opts, o);
	uint32_t in = 0, out = 0, cnt, i;
	bool first = true;
	int n = 0, err;

	do {
		cnt = FDB_BATCH;
		err = bpf_map_lookup_batch(m->fdb_fd, first ? NULL : &in, &out,
					   bk, bv, &cnt, &o);
		if (err && err != -ENOENT)
			return fdb_walk(m, bridge, k, v, max);
		for (i = 0; i < cnt && i < FDB_BATCH; i++) {
			if (bridge && bk[i].bridge != bridge)
				continue;
			if (n < max && k)
				k[n] = bk[i];
			if (n < max && v)
				v[n] = bv[i];
			n++;
		}
		in = out;
		first = false;
	} while (!err);
	return n;
}

int brvlan_count(struct brmaps *m, uint32_t port, uint32_t *pvid)
{
	struct bpfwd_br_vlan_key key, next;
	struct bpfwd_br_vlan val;
	void *prev = NULL;
	int n = 0;

	*pvid = 0;
	while (!bpf_map_get_next_key(m->vlan_fd, prev, &next)) {
		key = next;
		prev = &key;
		if (key.port != port)
			continue;
		if (key.vid)
			n++;
		else if (!bpf_map_lookup_elem(m->vlan_fd, &key, &val))
			*pvid = val.pvid;
	}
	return n;
}

void brfdb_flush(struct brmaps *m, uint32_t bridge, uint32_t port)
{
	int n = brfdb_list(m, bridge, NULL, NULL, 0), i, got;
	struct bpfwd_br_fdb_key *k;
	struct bpfwd_br_fdb *v;

	if (n <= 0)
		return;
	/* collect, then delete: a walk that deletes as it goes restarts */
	k = calloc(n, sizeof(*k));
	v = calloc(n, sizeof(*v));
	if (k && v) {
		got = brfdb_list(m, bridge, k, v, n);
		for (i = 0; i < got && i < n; i++)
			if (!port || v[i].port == port)
				bpf_map_delete_elem(m->fdb_fd, &k[i]);
	}
	free(k);
	free(v);
}

uint64_t mac_key(const uint8_t mac[6])
{
	uint64_t k = 0;

	memcpy(&k, mac, 6);
	return k;
}

void mac_str(uint64_t key, char *buf)
{
	uint8_t m[8];

	memcpy(m, &key, 8);
	snprintf(buf, 18, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
		 m[3], m[4], m[5]);
}
