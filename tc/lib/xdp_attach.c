// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * XDP port machinery (see xdp_attach.h).  The XDP maps live next to the port
 * table, in the namespace's own pin directory, and go away with the
 * namespace's last XDP port.  Every check that can refuse runs before
 * anything is attached or written, and each step that fails undoes what
 * the command did before it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "netdev.h"
#include "nl.h"
#include "pins.h"
#include "util.h"
#include "xdp_attach.h"
#include "xdp.skel.h"

#define KTHREAD_LINK	"xdp_kthread_link"

static const char *const our_progs[] = {
	"xdp_redirect", "xdp_devmap", "xdp_cpumap", "xdp_flood",
};

struct map_layout {
	const char *name;
	enum bpf_map_type type;
	uint32_t value;
	uint32_t max;		/* 0: nr_cpus() */
};

static const struct map_layout xdp_maps[] = {
	{ BPFWD_MAP_DEVMAP, BPF_MAP_TYPE_DEVMAP, sizeof(struct bpf_devmap_val),
	  BPFWD_MAX_SLOTS },
	{ BPFWD_MAP_CPUMAP, BPF_MAP_TYPE_CPUMAP, sizeof(struct bpf_cpumap_val),
	  0 },
	{ BPFWD_MAP_CPUS, BPF_MAP_TYPE_ARRAY, sizeof(struct bpfwd_cpus),
	  BPFWD_MAX_SLOTS },
	{ BPFWD_MAP_CPUSTAT, BPF_MAP_TYPE_PERCPU_ARRAY,
	  sizeof(struct bpfwd_cpustat), BPFWD_MAX_SLOTS },
	{ BPFWD_MAP_KTHREAD, BPF_MAP_TYPE_PERCPU_ARRAY,
	  sizeof(struct bpfwd_kthread), 1 },
	{ BPFWD_MAP_FLOOD, BPF_MAP_TYPE_DEVMAP_HASH,
	  sizeof(struct bpf_devmap_val), BPFWD_MAX_PORTS },
	{ BPFWD_MAP_GROUPS, BPF_MAP_TYPE_HASH, sizeof(__u32), BPFWD_MAX_PORTS },
};

static void pin_path(struct table *t, const char *name, char *buf,
		     size_t len)
{
	snprintf(buf, len, "%s/%s", t->dir, name);
}

int xdp_map_fd(struct table *t, const char *name)
{
	char path[PATH_MAX];
	int fd;

	pin_path(t, name, path, sizeof(path));
	fd = bpf_obj_get(path);
	return fd < 0 ? -errno : fd;
}

static int check_layouts(struct table *t)
{
	char path[PATH_MAX];
	bool exists;
	size_t i;
	int err;

	for (i = 0; i < ARRAY_SIZE(xdp_maps); i++) {
		pin_path(t, xdp_maps[i].name, path, sizeof(path));
		err = pin_check_map(path, xdp_maps[i].type, sizeof(__u32),
				    xdp_maps[i].value,
				    xdp_maps[i].max ?: (uint32_t)nr_cpus(),
				    &exists, false);
		if (err)
			return err;
	}
	return 0;
}

/* Devmaps: reused and pinned here (see xdp.bpf.c). */
static int reuse_devmap(struct table *t, struct bpf_map *map,
			const char *name)
{
	int fd = xdp_map_fd(t, name), err;

	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	err = bpf_map__reuse_fd(map, fd);
	close(fd);
	return err;
}

static int pin_devmap(struct table *t, struct bpf_map *map,
		      const char *name)
{
	char path[PATH_MAX];

	pin_path(t, name, path, sizeof(path));
	if (!access(path, F_OK))
		return 0;
	return bpf_obj_pin(bpf_map__fd(map), path) ? -errno : 0;
}

static struct bpf_program *prog_of(struct xdp *skel, enum xdp_prog prog)
{
	switch (prog) {
	case XP_REDIRECT:
		return skel->progs.xdp_redirect;
	case XP_DEVMAP:
		return skel->progs.xdp_devmap;
	case XP_CPUMAP:
		return skel->progs.xdp_cpumap;
	case XP_FLOOD:
		return skel->progs.xdp_flood;
	case XP_FLOOD_EGRESS:
		return skel->progs.flood_egress;
	case XP_CPU_THEN:
		return skel->progs.xdp_cpu_then;
	case XP_NONE:
		break;
	}
	return NULL;
}

int xdp_load(struct table *t, enum xdp_prog prog, enum xdp_prog extra,
	     uint32_t cpumap_id, const struct xdp_fixed *fixed,
	     struct xdp **skelp)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = t->dir);
	struct bpf_program *p, *want, *also, *ktp;
	struct xdp *skel;
	int err;

	err = check_layouts(t);
	if (err)
		return err;
	skel = xdp__open_opts(&oo);
	if (!skel) {
		err = -errno;
		p_err("open xdp.o: %s", strerror(-err));
		return err;
	}
	bpf_map__set_max_entries(skel->maps.bpfwd_cpumap, nr_cpus());
	err = reuse_devmap(t, skel->maps.bpfwd_devmap, BPFWD_MAP_DEVMAP);
	if (!err)
		err = reuse_devmap(t, skel->maps.bpfwd_flood, BPFWD_MAP_FLOOD);
	if (err) {
		p_err("reuse pinned devmap in %s: %s", t->dir, strerror(-err));
		xdp__destroy(skel);
		return err;
	}
	skel->rodata->cpumap_id = cpumap_id;
	if (fixed) {
		skel->rodata->fixed_ifindex = fixed->ifindex;
		skel->rodata->fixed_slot = fixed->slot;
		skel->rodata->fixed_target = fixed->target;
	}
	want = prog_of(skel, prog);
	also = prog_of(skel, extra);
	ktp = cpumap_id ? skel->progs.kthread_tp : NULL;
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, p == want || p == also ||
					  p == ktp);
	err = xdp__load(skel);
	if (err) {
		p_err("load %s: %s (bpfwd -vv shows the verifier log)",
		      bpf_program__name(want ?: skel->progs.kthread_tp),
		      strerror(-err));
		xdp__destroy(skel);
		return err;
	}
	err = pin_devmap(t, skel->maps.bpfwd_devmap, BPFWD_MAP_DEVMAP);
	if (!err)
		err = pin_devmap(t, skel->maps.bpfwd_flood, BPFWD_MAP_FLOOD);
	if (err) {
		p_err("pin devmap in %s: %s", t->dir, strerror(-err));
		xdp__destroy(skel);
		return err;
	}
	*skelp = skel;
	return 0;
}

int xdp_prog_fd(struct xdp *skel, enum xdp_prog prog)
{
	struct bpf_program *p = prog_of(skel, prog);

	return p ? bpf_program__fd(p) : -ENOENT;
}

void xdp_free(struct xdp *skel)
{
	xdp__destroy(skel);
}

static int prog_name_of(uint32_t id, char *buf, size_t len)
{
	struct bpf_prog_info info = { 0 };
	uint32_t ilen = sizeof(info);
	int fd = bpf_prog_get_fd_by_id(id), err;

	if (fd < 0)
		return -errno;
	err = bpf_obj_get_info_by_fd(fd, &info, &ilen) ? -errno : 0;
	close(fd);
	if (!err)
		snprintf(buf, len, "%s", info.name);
	return err;
}

static bool ours(uint32_t id)
{
	char name[BPF_OBJ_NAME_LEN];
	size_t i;

	if (!id || prog_name_of(id, name, sizeof(name)))
		return false;
	for (i = 0; i < ARRAY_SIZE(our_progs); i++)
		if (!strcmp(name, our_progs[i]))
			return true;
	return false;
}

uint32_t xdp_our_prog(int ifindex, bool generic)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	uint32_t id;

	if (bpf_xdp_query(ifindex, 0, &q))
		return 0;
	id = generic ? q.skb_prog_id : q.drv_prog_id;
	return ours(id) ? id : 0;
}

/* The load-time constants of program @prog_fd: the value of its
 * .rodata map, which the tag does not cover (it hashes the
 * instructions, and they load the constants from the map).
 */
static int rodata_of(int prog_fd, uint32_t nr_maps, struct xdp__rodata *ro)
{
	struct bpf_prog_info info = { 0 };
	uint32_t ids[16], len = sizeof(info), i;
	int err = -ENOENT;

	info.nr_map_ids = nr_maps < ARRAY_SIZE(ids) ? nr_maps : ARRAY_SIZE(ids);
	info.map_ids = (uint64_t)(unsigned long)ids;
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return -errno;
	for (i = 0; i < info.nr_map_ids && i < ARRAY_SIZE(ids) && err; i++) {
		struct bpf_map_info mi = { 0 };
		uint32_t mlen = sizeof(mi), zero = 0;
		char val[256];
		size_t n;
		int fd = bpf_map_get_fd_by_id(ids[i]);

		if (fd < 0)
			continue;
		n = 0;
		if (!bpf_obj_get_info_by_fd(fd, &mi, &mlen))
			n = strlen(mi.name);
		if (n >= 7 && !strcmp(mi.name + n - 7, ".rodata") &&
		    mi.value_size >= sizeof(*ro) &&
		    mi.value_size <= sizeof(val) &&
		    !bpf_map_lookup_elem(fd, &zero, val)) {
			memcpy(ro, val, sizeof(*ro));
			err = 0;
		}
		close(fd);
	}
	return err;
}

/* What tells two loaded programs apart: name, tag, constants. */
struct prog_ident {
	char name[BPF_OBJ_NAME_LEN];
	uint8_t tag[BPF_TAG_SIZE];
	struct xdp__rodata ro;
};

static int ident_of(int fd, struct prog_ident *id)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);

	memset(id, 0, sizeof(*id));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	memcpy(id->name, info.name, sizeof(id->name));
	memcpy(id->tag, info.tag, sizeof(id->tag));
	/* a program without constants (none of ours) keeps them 0 */
	rodata_of(fd, info.nr_map_ids, &id->ro);
	return 0;
}

static int ident_of_id(uint32_t id, struct prog_ident *pi)
{
	int fd = bpf_prog_get_fd_by_id(id), err;

	if (fd < 0)
		return -errno;
	err = ident_of(fd, pi);
	close(fd);
	return err;
}

bool xdp_same_prog(uint32_t id, int fd)
{
	struct prog_ident a, b;

	return !ident_of_id(id, &a) && !ident_of(fd, &b) &&
	       !memcmp(&a, &b, sizeof(a));
}

int xdp_prog_fixed(uint32_t id, char *name, struct xdp_fixed *fx)
{
	struct prog_ident pi;
	int err = ident_of_id(id, &pi);

	if (err)
		return err;
	snprintf(name, BPF_OBJ_NAME_LEN, "%s", pi.name);
	fx->ifindex = pi.ro.fixed_ifindex;
	fx->slot = pi.ro.fixed_slot;
	fx->target = pi.ro.fixed_target;
	return 0;
}

int xdp_check_in(int ifindex, const char *dev, bool generic)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	char name[BPF_OBJ_NAME_LEN] = "?";
	uint64_t feat;
	int err;

	err = bpf_xdp_query(ifindex, 0, &q);
	if (err) {
		p_err("%s: query XDP: %s", dev, strerror(-err));
		return err;
	}
	if (q.prog_id || q.drv_prog_id || q.skb_prog_id || q.hw_prog_id) {
		uint32_t id = q.drv_prog_id ?: q.skb_prog_id ?: q.hw_prog_id ?:
			      q.prog_id;
		const char *how = q.drv_prog_id ? "xdp" :
				  q.skb_prog_id ? "xdpgeneric" : "xdpoffload";

		prog_name_of(id, name, sizeof(name));
		p_err("%s: already has an XDP program that is not a bpfwd port's (%s, id %u, %s); bpfwd does not replace it: remove it first (ip link set dev %s %s off) or use another device",
		      dev, name, id, how, dev, how);
		return -EBUSY;
	}
	if (generic)
		return 0;
	err = netdev_xdp_features(ifindex, &feat);
	if (!err && !(feat & BPFWD_XDP_ACT_BASIC)) {
		p_err("%s: the driver has no native XDP; use xdp-mode generic (XDP on the skb path: slower, but works on any device)",
		      dev);
		return -EOPNOTSUPP;
	}
	/* No MTU check: the programs take multi-buffer frames, so a jumbo
	 * MTU is fine wherever the driver does multi-buffer XDP; a driver
	 * that does not refuses the program itself, and xdp_attach() prints
	 * its reason with the fix.  Generic XDP has no MTU limit.
	 */
	return 0;
}

/* @ifindex's veth link, with its peer's name and tx checksum offload;
 * -ENODEV for a device that is not a veth.
 */
static int veth_peer_csum(int ifindex, struct link_info *l, char *peer,
			  bool *on)
{
	if (netdev_link(ifindex, l) || strcmp(l->kind, "veth"))
		return -ENODEV;
	snprintf(peer, IF_NAMESIZE, "PEER");
	return netdev_peer_tx_csum(l, peer, on);
}

int xdp_check_offload(int ifindex, const char *dev, bool fix)
{
	char peer[IF_NAMESIZE];
	struct link_info l;
	bool on = false;
	int err;

	err = veth_peer_csum(ifindex, &l, peer, &on);
	if (err == -ENODEV)
		return 0;
	if (err) {
		pr_warn("%s: cannot inspect its veth peer%s (%s): if that peer sends with tx checksum offload on, XDP drops the TCP and UDP it sends; turn it off there (ethtool -K PEER tx-checksumming off)",
			dev, l.link_other_ns ? " in another namespace" : "",
			strerror(-err));
		return 0;
	}
	if (!on || fix)
		return 0;
	p_err("%s: its veth peer %s%s sends with tx checksum offload, whose unfinished checksums and TSO frames do not survive an XDP redirect (TCP and UDP sent from there would be dropped); turn it off (ethtool -K %s tx-checksumming off), or add fix-offload to have bpfwd do it",
	      dev, peer, l.link_other_ns ? " (in another namespace)" : "",
	      peer);
	return -EOPNOTSUPP;
}

int xdp_check_vlan(int ifindex, const char *dev, bool fix)
{
	char how[96];
	struct link_info l;
	bool blind = false, veth;
	int err;

	veth = !netdev_link(ifindex, &l) && !strcmp(l.kind, "veth");
	err = netdev_vlan_blind(ifindex, how, sizeof(how), &blind);
	if (err) {
		pr_warn("%s: cannot inspect %s (%s): if VLAN tags reach it outside the frame, native XDP sends its tagged frames on untagged; turn that off (%s)",
			dev, veth ? "its veth peer" : "its VLAN offload",
			strerror(-err), how);
		return 0;
	}
	if (!blind || (fix && veth))
		return 0;
	p_err("%s: VLAN tags reach it outside the frame (%s), where native XDP does not see them and a redirect drops them: tagged frames would leave untagged; turn that off (%s)%s, or use xdp-mode generic",
	      dev, veth ? "its veth peer inserts them on transmit" :
			  "rx VLAN offload", how,
	      veth ? ", add fix-offload to have bpfwd do it" : "");
	return -EOPNOTSUPP;
}

uint32_t xdp_offload_fixable(int ifindex, bool generic)
{
	char peer[IF_NAMESIZE];
	struct link_info l;
	uint32_t what = 0;
	bool on = false;

	if (veth_peer_csum(ifindex, &l, peer, &on))
		return 0;
	if (on)
		what |= BPFWD_F_FIXED_OFFLOAD;
	if (!generic && !netdev_peer_tx_vlan(&l, NULL, &on) && on)
		what |= BPFWD_F_FIXED_TXVLAN;
	return what;
}

int xdp_fix_offload(int ifindex, const char *dev, uint32_t what,
		    uint32_t *changed)
{
	const char *in_ns;
	char peer[IF_NAMESIZE];
	struct link_info l;
	bool on = false;
	int err;

	*changed = 0;
	if (veth_peer_csum(ifindex, &l, peer, &on))
		return 0;	/* not a veth, or xdp_check_offload() warned */
	in_ns = l.link_other_ns ? " (in another namespace)" : "";
	if ((what & BPFWD_F_FIXED_OFFLOAD) && on) {
		err = netdev_peer_tx_csum_set(&l, false);
		if (err) {
			p_err("%s: fix-offload: turn tx checksumming off on veth peer %s: %s",
			      dev, peer, strerror(-err));
			return err;
		}
		pr_info("%s: fix-offload: tx checksumming is off on veth peer %s%s now",
			dev, peer, in_ns);
		*changed |= BPFWD_F_FIXED_OFFLOAD;
	}
	if ((what & BPFWD_F_FIXED_TXVLAN) &&
	    !netdev_peer_tx_vlan(&l, NULL, &on) && on) {
		err = netdev_peer_tx_vlan_set(&l, false);
		if (err) {
			p_err("%s: fix-offload: turn tx VLAN insertion off on veth peer %s: %s",
			      dev, peer, strerror(-err));
			xdp_unfix_offload(ifindex, *changed);
			*changed = 0;
			return err;
		}
		pr_info("%s: fix-offload: tx VLAN insertion is off on veth peer %s%s now",
			dev, peer, in_ns);
		*changed |= BPFWD_F_FIXED_TXVLAN;
	}
	return 0;
}

void xdp_unfix_offload(int ifindex, uint32_t what)
{
	struct link_info l;

	if (netdev_link(ifindex, &l))
		return;
	if (what & BPFWD_F_FIXED_OFFLOAD)
		netdev_peer_tx_csum_set(&l, true);
	if (what & BPFWD_F_FIXED_TXVLAN)
		netdev_peer_tx_vlan_set(&l, true);
}

int xdp_check_target(int ifindex, const char *dev)
{
	char out[IF_NAMESIZE], peer[64];
	struct link_info l;
	uint64_t feat;
	int err;

	ifname_of(ifindex, out);
	if (!netdev_link(ifindex, &l) && !l.up)
		pr_warn("%s: target %s is down: XDP drops what it redirects there until it is up",
			dev, out);
	err = netdev_xdp_features(ifindex, &feat);
	if (err == -EOPNOTSUPP) {
		pr_info("this kernel does not tell XDP features (Linux < 6.3): cannot check that %s takes XDP frames",
			out);
		return 0;
	}
	if (err || (feat & BPFWD_XDP_ACT_NDO_XMIT))
		return 0;
	if (netdev_link(ifindex, &l))
		memset(&l, 0, sizeof(l));
	if (!strcmp(l.kind, "veth")) {
		if (l.link_other_ns || !if_indextoname(l.link, peer))
			snprintf(peer, sizeof(peer), "PEER");
		p_err("%s: target %s cannot take XDP frames: its veth peer%s%s has neither GRO nor an XDP program, so nothing receives them there; turn GRO on where the peer lives (ethtool -K %s gro on) or attach an XDP program to it, or use xdp-mode generic",
		      dev, out, l.link_other_ns ? " (in another namespace)" :
						  " ", l.link_other_ns ? "" : peer,
		      peer);
		return -EOPNOTSUPP;
	}
	p_err("%s: target %s cannot take XDP frames (its driver%s%s has no ndo_xdp_xmit); use xdp-mode generic, or a tc port",
	      dev, out, l.kind[0] ? ", " : "", l.kind);
	return -EOPNOTSUPP;
}

static uint32_t mode_flag(bool generic)
{
	return generic ? XDP_FLAGS_SKB_MODE : XDP_FLAGS_DRV_MODE;
}

int xdp_attach(int ifindex, const char *dev, int prog_fd, bool generic,
	       uint32_t old_id)
{
	uint32_t flags = mode_flag(generic);
	int old_fd = -1, err;
	const char *why;

	if (old_id) {
		old_fd = bpf_prog_get_fd_by_id(old_id);
		if (old_fd < 0) {
			err = -errno;
			p_err("%s: the port's XDP program (id %u) is gone: %s; del and add the port",
			      dev, old_id, strerror(-err));
			return err;
		}
		flags |= XDP_FLAGS_REPLACE;
	} else {
		flags |= XDP_FLAGS_UPDATE_IF_NOEXIST;
	}
	err = nl_xdp_set(ifindex, prog_fd, flags, old_fd);
	if (old_fd >= 0)
		close(old_fd);
	if (!err)
		return 0;
	why = nl_extack();
	if (err == -EOPNOTSUPP && !generic && !why[0])
		why = "no native XDP here; use xdp-mode generic";
	if (err == -EBUSY || err == -EEXIST)
		why = "another XDP program is there; bpfwd does not replace it";
	if (err == -ERANGE && !generic)
		p_err("%s: attach XDP (native): %s (%s); the frames that arrive are too large for this driver's XDP: lower the MTU of the device that sends to %s (its veth peer), or use xdp-mode generic",
		      dev, strerror(-err), why[0] ? why : "MTU", dev);
	else if (why[0])
		p_err("%s: attach XDP (%s): %s (%s)", dev,
		      generic ? "generic" : "native", strerror(-err), why);
	else
		p_err("%s: attach XDP (%s): %s", dev,
		      generic ? "generic" : "native", strerror(-err));
	return err;
}

int xdp_detach(int ifindex, const char *dev, bool generic, uint32_t id)
{
	int fd, err;

	if (!id)
		return 0;
	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0)
		return 0;	/* gone already */
	err = nl_xdp_set(ifindex, -1, mode_flag(generic) | XDP_FLAGS_REPLACE,
			 fd);
	close(fd);
	if (err == -ENODEV)
		return 0;
	if (err)
		p_err("%s: detach XDP: %s%s%s", dev, strerror(-err),
		      nl_extack()[0] ? ": " : "", nl_extack());
	return err;
}

static int map_update(struct table *t, const char *map, uint32_t key,
		      const void *val)
{
	int fd = xdp_map_fd(t, map), err;

	if (fd < 0)
		return fd;
	err = val ? bpf_map_update_elem(fd, &key, val, 0) :
		    bpf_map_delete_elem(fd, &key);
	err = err ? -errno : 0;
	close(fd);
	if (!val && err == -ENOENT)
		err = 0;
	return err;
}

int xdp_devmap_set(struct table *t, uint32_t slot, uint32_t ifindex)
{
	struct bpf_devmap_val v = { .ifindex = ifindex };

	return map_update(t, BPFWD_MAP_DEVMAP, slot, ifindex ? &v : NULL);
}

int xdp_devmap_get(struct table *t, uint32_t slot, uint32_t *ifindex)
{
	struct bpf_devmap_val v = { 0 };
	int fd = xdp_map_fd(t, BPFWD_MAP_DEVMAP), err;

	*ifindex = 0;
	if (fd < 0)
		return fd;
	err = bpf_map_lookup_elem(fd, &slot, &v) ? -errno : 0;
	close(fd);
	if (!err)
		*ifindex = v.ifindex;
	return err;
}

int xdp_flood_set(struct table *t, uint32_t ifindex, bool member,
		  uint32_t group, int egress_fd)
{
	struct bpf_devmap_val v = { .ifindex = ifindex,
				    .bpf_prog.fd = egress_fd };
	int err;

	if (!member) {
		map_update(t, BPFWD_MAP_FLOOD, ifindex, NULL);
		return map_update(t, BPFWD_MAP_GROUPS, ifindex, NULL);
	}
	/* the group first: a copy to a port without one is dropped */
	err = map_update(t, BPFWD_MAP_GROUPS, ifindex, &group);
	if (!err)
		err = map_update(t, BPFWD_MAP_FLOOD, ifindex, &v);
	return err;
}

int xdp_flood_group(struct table *t, uint32_t ifindex, uint32_t *group)
{
	int fd = xdp_map_fd(t, BPFWD_MAP_GROUPS), err;

	if (fd < 0)
		return fd;
	err = bpf_map_lookup_elem(fd, &ifindex, group) ? -errno : 0;
	close(fd);
	return err;
}

int xdp_cpus_get(struct table *t, uint32_t slot, struct bpfwd_cpus *c)
{
	int fd = xdp_map_fd(t, BPFWD_MAP_CPUS), err;

	memset(c, 0, sizeof(*c));
	if (fd < 0)
		return fd;
	err = bpf_map_lookup_elem(fd, &slot, c) ? -errno : 0;
	close(fd);
	return err;
}

struct cpus_owner {
	uint32_t skip;		/* an ifindex */
	uint32_t *owner;	/* nr_cpus() entries */
};

static int note_cpus(struct table *t, uint32_t ifindex,
		     const struct bpfwd_port *p, void *data)
{
	struct cpus_owner *o = data;
	struct bpfwd_cpus c;
	uint32_t j;

	if (ifindex == o->skip || p->hook != BPFWD_HOOK_XDP ||
	    p->mode != BPFWD_MODE_CPUMAP || xdp_cpus_get(t, p->slot, &c))
		return 0;
	for (j = 0; j < c.count && j < BPFWD_MAX_CPU_LIST; j++)
		if (c.cpu[j] < (uint32_t)nr_cpus())
			o->owner[c.cpu[j]] = ifindex;
	return 0;
}

/* For each CPU that a cpumap port other than @skip (an ifindex) lists,
 * @owner[cpu] gets the ifindex of one such port; 0 for the others.
 */
static void cpus_in_use(struct table *t, uint32_t skip, uint32_t *owner)
{
	struct cpus_owner o = { .skip = skip, .owner = owner };

	table_each(t, note_cpus, &o);
}

int xdp_cpus_set(struct table *t, uint32_t slot, uint32_t ifindex,
		 const struct bpfwd_cpus *c, int cpu_prog_fd)
{
	uint32_t *owner = calloc(nr_cpus(), sizeof(*owner));
	bool *made = calloc(nr_cpus(), sizeof(*made));
	char dev[IF_NAMESIZE], other[IF_NAMESIZE];
	int fd, cpus_fd = -1, err = 0;
	uint32_t i, cpu;

	fd = xdp_map_fd(t, BPFWD_MAP_CPUMAP);
	if (!owner || !made || fd < 0) {
		err = fd < 0 ? fd : -ENOMEM;
		p_err("%s: cpumap: %s", ifname_of(ifindex, dev),
		      strerror(-err));
		goto out;
	}
	cpus_in_use(t, ifindex, owner);
	for (i = 0; i < c->count; i++) {
		struct bpf_cpumap_val v = { 0 };

		cpu = c->cpu[i];
		if (!bpf_map_lookup_elem(fd, &cpu, &v) && v.qsize) {
			if (v.qsize == c->qsize)
				continue;
			if (owner[cpu]) {
				p_err("%s: cpu %u already queues frames of port %s with qsize %u; give the same qsize, or change that port first",
				      ifname_of(ifindex, dev), cpu,
				      ifname_of(owner[cpu], other), v.qsize);
				err = -EBUSY;
				goto undo;
			}
		}
		v.qsize = c->qsize;
		v.bpf_prog.fd = cpu_prog_fd;
		if (bpf_map_update_elem(fd, &cpu, &v, 0)) {
			err = -errno;
			p_err("%s: make the cpumap queue of cpu %u: %s",
			      ifname_of(ifindex, dev), cpu, strerror(-err));
			goto undo;
		}
		made[cpu] = !owner[cpu];
	}
	cpus_fd = xdp_map_fd(t, BPFWD_MAP_CPUS);
	if (cpus_fd < 0 || bpf_map_update_elem(cpus_fd, &slot, c, 0)) {
		err = cpus_fd < 0 ? cpus_fd : -errno;
		p_err("%s: write %s: %s", ifname_of(ifindex, dev),
		      BPFWD_MAP_CPUS, strerror(-err));
		goto undo;
	}
	goto out;
undo:
	for (cpu = 0; cpu < (uint32_t)nr_cpus(); cpu++)
		if (made[cpu])
			bpf_map_delete_elem(fd, &cpu);
out:
	if (cpus_fd >= 0)
		close(cpus_fd);
	if (fd >= 0)
		close(fd);
	free(owner);
	free(made);
	return err;
}

void xdp_cpus_gc(struct table *t, uint32_t skip_ifindex)
{
	uint32_t *owner = calloc(nr_cpus(), sizeof(*owner));
	int fd = xdp_map_fd(t, BPFWD_MAP_CPUMAP);
	uint32_t cpu;

	if (owner && fd >= 0) {
		cpus_in_use(t, skip_ifindex, owner);
		for (cpu = 0; cpu < (uint32_t)nr_cpus(); cpu++)
			if (!owner[cpu])
				bpf_map_delete_elem(fd, &cpu);
	}
	if (fd >= 0)
		close(fd);
	free(owner);
}

int xdp_kthread_ensure(struct table *t)
{
	struct bpf_map_info info = { 0 };
	uint32_t ilen = sizeof(info);
	struct bpf_link *link;
	char path[PATH_MAX];
	struct xdp *skel;
	int fd, err;

	pin_path(t, KTHREAD_LINK, path, sizeof(path));
	if (!access(path, F_OK))
		return 0;
	fd = xdp_map_fd(t, BPFWD_MAP_CPUMAP);
	if (fd < 0)
		return fd;
	err = bpf_obj_get_info_by_fd(fd, &info, &ilen) ? -errno : 0;
	close(fd);
	if (err)
		return err;
	err = xdp_load(t, XP_NONE, XP_NONE, info.id, NULL, &skel);
	if (err)
		return err;
	link = bpf_program__attach(skel->progs.kthread_tp);
	err = libbpf_get_error(link);
	if (!err) {
		err = bpf_link__pin(link, path);
		bpf_link__destroy(link);
	}
	if (err)
		pr_warn("cpumap kthread figures unavailable: tracepoint xdp_cpumap_kthread: %s",
			strerror(-err));
	xdp_free(skel);
	return 0;	/* the figures are extra: the port works without */
}

static int is_other_xdp(struct table *t, uint32_t ifindex,
			const struct bpfwd_port *p, void *data)
{
	return ifindex != *(uint32_t *)data && p->hook == BPFWD_HOOK_XDP;
}

/* Whether a table has an XDP port other than @skip. */
static bool other_xdp_port(struct table *t, uint32_t skip)
{
	return table_each(t, is_other_xdp, &skip) != 0;
}

static void unpin_all(struct table *t)
{
	char path[PATH_MAX];
	size_t i;

	pin_path(t, KTHREAD_LINK, path, sizeof(path));
	unlink(path);
	for (i = 0; i < ARRAY_SIZE(xdp_maps); i++) {
		pin_path(t, xdp_maps[i].name, path, sizeof(path));
		unlink(path);
	}
}

void xdp_cpus_clear(struct table *t, uint32_t slot, uint32_t skip_ifindex)
{
	static const struct bpfwd_cpus none;
	int fd = xdp_map_fd(t, BPFWD_MAP_CPUS);

	if (fd >= 0) {
		bpf_map_update_elem(fd, &slot, &none, 0);
		close(fd);
	}
	xdp_cpus_gc(t, skip_ifindex);
}

void xdp_pins_gc(struct table *t, uint32_t skip_ifindex)
{
	if (other_xdp_port(t, skip_ifindex))
		return;
	xdp_cpus_gc(t, skip_ifindex);
	unpin_all(t);
}

/* One CPU number at @s: -EINVAL when there is none, -ERANGE when it is
 * not a CPU of this machine (however large: no wrap to 32 bits).
 */
static int cpu_num(const char *s, char **end, uint32_t *cpu)
{
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, end, 10);
	if (errno == ERANGE || v >= (unsigned long)nr_cpus())
		return -ERANGE;
	*cpu = v;
	return 0;
}

int parse_cpu_list(const char *s, struct bpfwd_cpus *c)
{
	uint32_t lo, hi, cpu, i;
	char *end;
	int err;

	memset(c, 0, sizeof(*c));
	while (*s) {
		err = cpu_num(s, &end, &lo);
		hi = lo;
		if (!err && *end == '-') {
			s = end + 1;
			err = cpu_num(s, &end, &hi);
		}
		if (err)
			return err;
		if (hi < lo || (*end && *end != ','))
			return -EINVAL;
		for (cpu = lo; cpu <= hi; cpu++) {
			for (i = 0; i < c->count; i++)
				if (c->cpu[i] == cpu)
					return -EEXIST;
			if (c->count == BPFWD_MAX_CPU_LIST)
				return -E2BIG;
			c->cpu[c->count++] = cpu;
		}
		s = *end ? end + 1 : end;
		if (*end && !*s)
			return -EINVAL;
	}
	return c->count ? 0 : -EINVAL;
}

void format_cpu_list(const struct bpfwd_cpus *c, char *buf, size_t len)
{
	size_t off = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < c->count && i < BPFWD_MAX_CPU_LIST && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%u", i ? "," : "",
				c->cpu[i]);
}
