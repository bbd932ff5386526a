// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * The pins, the lock and the counters of `bpfwd route` (route_maps.h).
 * The directory is made 0700 by bpfwd and refused when it is not (a
 * symlink, another owner, group or world writable).  The devmap is
 * pinned here rather than by libbpf, as xdp.o's are: the kernel adds
 * BPF_F_RDONLY_PROG to a devmap's flags, which libbpf 1.1 then takes
 * for a mismatch when it reuses the pin.
 *
 * bpfwd_rt_cfg is the source of truth; bpfwd_rt_idx, what the programs
 * read, is its copy by ifindex: written after the hash, cleared before
 * it, and filled from it again on every load (pins of an older bpfwd
 * have no copy yet).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "lib/pins.h"
#include "lib/ports.h"
#include "lib/util.h"
#include "route.skel.h"
#include "route_maps.h"

static const char *const reason_names[__BPFWD_RT_MAX] = {
	[BPFWD_RT_NOT_IP] = "not_ip",
	[BPFWD_RT_NOT_HOST] = "not_host",
	[BPFWD_RT_MULTICAST] = "multicast",
	[BPFWD_RT_OPTIONS] = "options",
	[BPFWD_RT_FRAGMENT] = "fragment",
	[BPFWD_RT_BAD_HEADER] = "bad_header",
	[BPFWD_RT_TTL] = "ttl",
	[BPFWD_RT_MARTIAN] = "martian",
	[BPFWD_RT_ICMP_ERROR] = "icmp_error",
	[BPFWD_RT_NOT_FWDED] = "not_fwded",
	[BPFWD_RT_BLACKHOLE] = "blackhole",
	[BPFWD_RT_UNREACHABLE] = "unreachable",
	[BPFWD_RT_PROHIBIT] = "prohibit",
	[BPFWD_RT_FWD_DISABLED] = "fwd_disabled",
	[BPFWD_RT_FRAG_NEEDED] = "frag_needed",
	[BPFWD_RT_NO_NEIGH] = "no_neigh",
	[BPFWD_RT_UNSUPPORTED] = "unsupported",
	[BPFWD_RT_SAME_DEV] = "same_dev",
	[BPFWD_RT_NO_DEVMAP] = "no_devmap",
	[BPFWD_RT_RPF] = "rp_filter",
	[BPFWD_RT_ERROR] = "error",
};

const char *rt_reason_name(int reason)
{
	return reason >= 0 && reason < __BPFWD_RT_MAX ? reason_names[reason] :
							NULL;
}

static void pin_of(const struct rt *r, const char *name, char *buf,
		   size_t len)
{
	snprintf(buf, len, "%s/%s", r->dir, name);
}

static int map_fd(const struct rt *r, const char *name)
{
	char path[PATH_MAX];
	int fd;

	pin_of(r, name, path, sizeof(path));
	fd = bpf_obj_get(path);
	return fd < 0 ? -errno : fd;
}

static int dir_safe(const char *dir)
{
	struct stat st;

	if (lstat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 022)) {
		p_err("%s: not a directory bpfwd made (a symlink, another owner, or group/world writable); remove it",
		      dir);
		return -EPERM;
	}
	return 0;
}

static int make_dir(struct rt *r)
{
	char ns[PATH_MAX];
	int err;

	err = bpffs_ensure();
	if (err)
		return err;
	err = ns_dir(ns, sizeof(ns), true);
	if (!err && (size_t)snprintf(r->dir, sizeof(r->dir), "%s/route", ns) >=
		    sizeof(r->dir))
		err = -ENAMETOOLONG;
	if (!err && mkdir(r->dir, 0700) && errno != EEXIST)
		err = -errno;
	if (err)
		p_err("pin directory %s: %s", r->dir[0] ? r->dir : ns,
		      strerror(-err));
	return err;
}

int rt_open(struct rt *r, bool create)
{
	char ns[PATH_MAX];
	int err;

	memset(r, 0, sizeof(*r));
	r->lock_fd = r->cfg_fd = r->stats_fd = r->dev_fd = r->idx_fd = -1;
	if (create) {
		err = make_dir(r);
		if (err)
			return err;
	} else {
		err = ns_dir(ns, sizeof(ns), false);
		if (err)
			return err;
		snprintf(r->dir, sizeof(r->dir), "%s/route", ns);
		if (access(r->dir, F_OK))
			return -ENOENT;
	}
	err = dir_safe(r->dir);
	if (err)
		return err;
	r->lock_fd = open(r->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->lock_fd < 0 || flock(r->lock_fd, LOCK_EX)) {
		err = -errno;
		p_err("lock %s: %s", r->dir, strerror(-err));
		rt_close(r);
		return err;
	}
	r->cfg_fd = map_fd(r, BPFWD_MAP_RT_CFG);
	r->stats_fd = map_fd(r, BPFWD_MAP_RT_STATS);
	r->dev_fd = map_fd(r, BPFWD_MAP_RT_DEV);
	r->idx_fd = map_fd(r, BPFWD_MAP_RT_IDX);
	if (!create && r->cfg_fd < 0) {
		rt_close(r);
		return -ENOENT;
	}
	return 0;
}

void rt_close(struct rt *r)
{
	int *fds[] = { &r->cfg_fd, &r->stats_fd, &r->dev_fd, &r->idx_fd,
		       &r->lock_fd };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fds); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

static int check_layouts(struct rt *r)
{
	static const struct {
		const char *name;
		enum bpf_map_type type;
		uint32_t value, max;
	} maps[] = {
		{ BPFWD_MAP_RT_CFG, BPF_MAP_TYPE_HASH,
		  sizeof(struct bpfwd_route_cfg), BPFWD_RT_MAX_DEVS },
		{ BPFWD_MAP_RT_IDX, BPF_MAP_TYPE_ARRAY,
		  sizeof(struct bpfwd_route_cfg), BPFWD_RT_IDX_MAX },
		{ BPFWD_MAP_RT_STATS, BPF_MAP_TYPE_PERCPU_ARRAY,
		  sizeof(struct bpfwd_route_stats), BPFWD_RT_MAX_DEVS },
		{ BPFWD_MAP_RT_DEV, BPF_MAP_TYPE_DEVMAP_HASH,
		  sizeof(struct bpf_devmap_val), BPFWD_RT_MAX_DEVS },
	};
	char path[PATH_MAX];
	bool exists;
	size_t i;
	int err;

	for (i = 0; i < ARRAY_SIZE(maps); i++) {
		pin_of(r, maps[i].name, path, sizeof(path));
		err = pin_check_map(path, maps[i].type, sizeof(__u32),
				    maps[i].value, maps[i].max, &exists,
				    false);
		if (err)
			return err;
	}
	return 0;
}

/* The devmap: the pinned one, or this object's, pinned now. */
static int devmap_reuse(struct rt *r, struct route *skel)
{
	return r->dev_fd >= 0 ?
		bpf_map__reuse_fd(skel->maps.bpfwd_rt_dev, r->dev_fd) : 0;
}

static int devmap_pin(struct rt *r, struct route *skel)
{
	char path[PATH_MAX];
	int fd = bpf_map__fd(skel->maps.bpfwd_rt_dev);

	if (r->dev_fd >= 0)
		return 0;
	pin_of(r, BPFWD_MAP_RT_DEV, path, sizeof(path));
	if (bpf_obj_pin(fd, path))
		return -errno;
	r->dev_fd = dup(fd);
	return r->dev_fd < 0 ? -errno : 0;
}

static int idx_set(struct rt *r, uint32_t ifindex,
		   const struct bpfwd_route_cfg *c)
{
	struct bpfwd_route_cfg v = { 0 };

	if (r->idx_fd < 0 || ifindex >= BPFWD_RT_IDX_MAX)
		return 0;
	if (c) {
		v = *c;
		v.flags |= BPFWD_RT_F_ON;
	}
	return bpf_map_update_elem(r->idx_fd, &ifindex, &v, 0) ? -errno : 0;
}

/* The copy from the hash, whole: what an older bpfwd left lacks it. */
static int idx_sync(struct rt *r)
{
	struct bpfwd_route_cfg c;
	uint32_t key, *prev = NULL;
	int err;

	while (!bpf_map_get_next_key(r->cfg_fd, prev, &key)) {
		prev = &key;
		if (bpf_map_lookup_elem(r->cfg_fd, &key, &c))
			continue;
		err = idx_set(r, key, &c);
		if (err)
			return err;
	}
	return 0;
}

int rt_load(struct rt *r, bool xdp, void **skelp, const char **name)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = r->dir);
	struct route *skel;
	int err;

	err = check_layouts(r);
	if (err)
		return err;
	skel = route__open_opts(&oo);
	if (!skel) {
		err = -errno;
		p_err("open route.o: %s", strerror(-err));
		return err;
	}
	err = devmap_reuse(r, skel);
	if (err) {
		p_err("reuse %s/%s: %s", r->dir, BPFWD_MAP_RT_DEV, strerror(-err));
		goto fail;
	}
	bpf_program__set_autoload(skel->progs.route_tc, !xdp);
	bpf_program__set_autoload(skel->progs.route_xdp, xdp);
	err = route__load(skel);
	if (err) {
		p_err("load %s: %s (bpfwd -vv shows the verifier log)",
		      xdp ? "route_xdp" : "route_tc", strerror(-err));
		goto fail;
	}
	err = devmap_pin(r, skel);
	if (err) {
		p_err("pin %s in %s: %s", BPFWD_MAP_RT_DEV, r->dir, strerror(-err));
		goto fail;
	}
	if (r->cfg_fd < 0)
		r->cfg_fd = dup(bpf_map__fd(skel->maps.bpfwd_rt_cfg));
	if (r->stats_fd < 0)
		r->stats_fd = dup(bpf_map__fd(skel->maps.bpfwd_rt_stats));
	if (r->idx_fd < 0)
		r->idx_fd = dup(bpf_map__fd(skel->maps.bpfwd_rt_idx));
	err = r->idx_fd < 0 ? -errno : idx_sync(r);
	if (err) {
		p_err("fill %s in %s: %s", BPFWD_MAP_RT_IDX, r->dir, strerror(-err));
		goto fail;
	}
	*skelp = skel;
	*name = xdp ? "route_xdp" : "route_tc";
	return bpf_program__fd(xdp ? skel->progs.route_xdp :
				     skel->progs.route_tc);
fail:
	route__destroy(skel);
	return err;
}

void rt_unload(void *skel)
{
	route__destroy(skel);
}

void rt_gc(struct rt *r)
{
	static const char *const pins[] = {
		BPFWD_MAP_RT_CFG, BPFWD_MAP_RT_IDX, BPFWD_MAP_RT_STATS,
		BPFWD_MAP_RT_DEV,
	};
	char path[PATH_MAX], *slash;
	size_t i;

	if (r->cfg_fd >= 0 && rt_list(r, NULL, 0) > 0)
		return;
	for (i = 0; i < ARRAY_SIZE(pins); i++) {
		pin_of(r, pins[i], path, sizeof(path));
		unlink(path);
	}
	if (rmdir(r->dir))
		return;		/* something else is left in it */
	snprintf(path, sizeof(path), "%s", r->dir);
	/* the netns dir, then <root>/bpfwd, when nothing else uses them */
	for (i = 0; i < 2 && (slash = strrchr(path, '/')); i++) {
		*slash = '\0';
		if (rmdir(path))
			break;
	}
}

int rt_get(struct rt *r, uint32_t ifindex, struct bpfwd_route_cfg *c)
{
	if (r->cfg_fd < 0)
		return -ENOENT;
	return bpf_map_lookup_elem(r->cfg_fd, &ifindex, c) ? -errno : 0;
}

int rt_put(struct rt *r, uint32_t ifindex, const struct bpfwd_route_cfg *c,
	   uint64_t flags)
{
	int err;

	if (bpf_map_update_elem(r->cfg_fd, &ifindex, c, flags))
		return -errno;
	err = idx_set(r, ifindex, c);
	if (err && flags == BPF_NOEXIST)
		bpf_map_delete_elem(r->cfg_fd, &ifindex);
	return err;
}

int rt_del(struct rt *r, uint32_t ifindex)
{
	int err = idx_set(r, ifindex, NULL);

	if (err)
		return err;
	if (bpf_map_delete_elem(r->cfg_fd, &ifindex) && errno != ENOENT)
		return -errno;
	return 0;
}

static int cmp_dev(const void *a, const void *b)
{
	const struct rt_dev *x = a, *y = b;

	return x->ifindex < y->ifindex ? -1 : x->ifindex > y->ifindex;
}

int rt_list(struct rt *r, struct rt_dev *d, int max)
{
	uint32_t key, *prev = NULL;
	int n = 0;

	if (r->cfg_fd < 0)
		return 0;
	while (!bpf_map_get_next_key(r->cfg_fd, prev, &key)) {
		prev = &key;
		if (n < max && !bpf_map_lookup_elem(r->cfg_fd, &key, &d[n].cfg))
			d[n].ifindex = key;
		else if (n < max)
			continue;
		n++;
	}
	if (d && n)
		qsort(d, n < max ? n : max, sizeof(*d), cmp_dev);
	return n;
}

int rt_slot_alloc(struct rt *r, uint32_t *slot)
{
	static struct rt_dev d[BPFWD_RT_MAX_DEVS];
	bool used[BPFWD_RT_MAX_DEVS] = { 0 };
	int n = rt_list(r, d, BPFWD_RT_MAX_DEVS), i;

	for (i = 0; i < n && i < BPFWD_RT_MAX_DEVS; i++)
		if (d[i].cfg.slot < BPFWD_RT_MAX_DEVS)
			used[d[i].cfg.slot] = true;
	for (i = 0; i < BPFWD_RT_MAX_DEVS; i++) {
		if (!used[i]) {
			*slot = i;
			return 0;
		}
	}
	return -ENOSPC;
}

int rt_stats_read(struct rt *r, uint32_t slot, struct bpfwd_route_stats *s)
{
	int n = nr_cpus(), c, i;
	struct bpfwd_route_stats *v;

	memset(s, 0, sizeof(*s));
	if (r->stats_fd < 0)
		return -ENOENT;
	v = calloc(n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(r->stats_fd, &slot, v)) {
		free(v);
		return -errno;
	}
	for (c = 0; c < n; c++) {
		s->forwarded += v[c].forwarded;
		s->bytes += v[c].bytes;
		s->neigh += v[c].neigh;
		for (i = 0; i < BPFWD_RT_REASONS; i++)
			s->passed[i] += v[c].passed[i];
	}
	free(v);
	return 0;
}

int rt_stats_clear(struct rt *r, uint32_t slot)
{
	struct bpfwd_route_stats *v = calloc(nr_cpus(), sizeof(*v));
	int err;

	if (!v)
		return -ENOMEM;
	err = bpf_map_update_elem(r->stats_fd, &slot, v, 0) ? -errno : 0;
	free(v);
	return err;
}

int rt_devmap_set(struct rt *r, uint32_t ifindex, bool on)
{
	struct bpf_devmap_val v = { .ifindex = ifindex };

	if (r->dev_fd < 0)
		return on ? -ENOENT : 0;
	if (on)
		return bpf_map_update_elem(r->dev_fd, &ifindex, &v, 0) ? -errno : 0;
	if (bpf_map_delete_elem(r->dev_fd, &ifindex) && errno != ENOENT)
		return -errno;
	return 0;
}
