// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * The daemon's mirror (see brmirror.h).  Events are applied as they
 * come: fdb changes one by one, any link change by a new dump of the
 * bridge ports (a handful of ports, and membership, state and flags all
 * come as link messages).  A full resync runs when a bridge is added or
 * a port joins, when the event socket overflowed and, as a safety net,
 * every RESYNC_S; the programs pass everything until the first one is
 * done.  Steady state costs what changed and what was seen, not the
 * mirror's size: the fast path names the sources it saw in a ring
 * (bpfwd_br_seen), the refresh reads that, and the resync reads the
 * mirror a batch at a time and writes only the entries that differ from
 * the kernel's.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <linux/if_bridge.h>
#include <linux/if_ether.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "brmaps.h"
#include "brmirror.h"
#include "brnl.h"
#include "util.h"

/* The kernel's fdb dump restarts its walk at every 32 KB message, so a
 * dump of N entries costs it O(N^2): 0.3 s of CPU at 100000.  Events and
 * the overflow resync keep the mirror; this is only a safety net.
 */
#define RESYNC_S	300.0
/* how often an XDP port's VLAN blindness is asked again (a veth peer's
 * features change in its own namespace, with no event here)
 */
#define VLAN_CHECK_S	5.0
#define REFRESH_WINDOW_NS 2500000000ULL
#define MAX_BR		BPFWD_BR_MAX_BRIDGES
#define MAX_PORTS	BPFWD_MAX_PORTS
#define DAEMON_SOCK	"bpfwd-daemon"

struct mirror {
	struct brmaps m;
	bool open;
	struct mnl_socket *ev;
	struct brnl_batch batch;
	uint32_t br[MAX_BR];	/* configured bridges, synced once */
	int nbr;
	bool links_dirty, resync;
	bool vlans_ok;		/* bpfwd_br_vlan mirrors every port's VLANs */
	int vlans_err;		/* the last VLAN dump's error, logged once */
	double last_resync, last_beat, last_refresh, last_vlan_check;
	/* sources the fast path saw since the last refresh */
	struct ring_buffer *seen_rb;
	struct bpfwd_br_fdb_key *seen;
	int nseen, maxseen;
	/* ports' slots for the fdb entries, until the ports change */
	struct { uint32_t ifindex, bridge, pslot; } pc[16];
	int npc;
	/* ports the checks refused: logged once */
	uint32_t refused[64];
	int nrefused;
	const struct daemon_follower *f;
	bool overflow;		/* for f: events were lost */
};

void daemon_log(const char *fmt, ...)
{
	char ts[32];
	time_t t = time(NULL);
	va_list ap;

	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&t));
	va_start(ap, fmt);
	fprintf(stderr, "bpfwd daemon %s: ", ts);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

#define logmsg daemon_log

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static bool configured(struct mirror *d, uint32_t bridge)
{
	struct bpfwd_br b;

	return bridge && !br_get(&d->m, bridge, &b);
}

/* ---- ports ---- */

struct link_walk {
	struct mirror *d;
	uint32_t seen[MAX_PORTS];
	int nseen;
};

static bool was_refused(struct mirror *d, uint32_t ifindex)
{
	int i;

	for (i = 0; i < d->nrefused; i++)
		if (d->refused[i] == ifindex)
			return true;
	if (d->nrefused < (int)ARRAY_SIZE(d->refused))
		d->refused[d->nrefused++] = ifindex;
	return false;
}

/* A port whose link went down: the bridge disabled it and flushed its
 * learned entries (br_stp_disable_port), but not the ones NTF_USE
 * refreshed (they are added_by_user).  Remove those, as if learned.
 */
static void flush_refreshed(struct mirror *d, const struct bpfwd_br_port *p,
			    uint32_t ifindex)
{
	int n = brfdb_list(&d->m, p->bridge, NULL, NULL, 0), i;
	struct bpfwd_br_fdb_key *k = calloc(n + 1, sizeof(*k));
	struct bpfwd_br_fdb *v = calloc(n + 1, sizeof(*v));
	uint8_t mac[8];

	if (k && v) {
		i = brfdb_list(&d->m, p->bridge, k, v, n);
		n = i < n ? i : n;
		for (i = 0; i < n; i++) {
			if (v[i].port != ifindex || !v[i].seen ||
			    (v[i].flags & BPFWD_FDB_NO_AGE))
				continue;
			memcpy(mac, &k[i].mac, 8);
			brnl_fdb_del(ifindex, mac, k[i].vlan);
		}
	}
	free(k);
	free(v);
}

/* An XDP port's VLAN blindness as it is now: bridge_attach() flagged
 * it once, but a NIC's rxvlan or a veth peer's tx VLAN insertion turned
 * on later would have XDP take tagged frames for untagged ones, and off
 * again gives the port its fast path back.  Returns whether @p changed.
 */
static bool vlan_follow(struct bpfwd_br_port *p, uint32_t ifindex,
			const char *dev)
{
	bool was = p->flags & BPFWD_BRP_RX_VLAN_HW, blind;
	char fix[96];

	if (p->hook != BPFWD_HOOK_XDP)
		return false;
	blind = bridge_vlan_blind(ifindex, fix, sizeof(fix));
	if (blind == was)
		return false;
	if (blind) {
		p->flags |= BPFWD_BRP_RX_VLAN_HW;
		logmsg("%s: VLAN tags can reach it outside the frame now, where XDP does not see them: its frames go through the bridge (%s)",
		       dev, fix);
	} else {
		p->flags &= ~BPFWD_BRP_RX_VLAN_HW;
		logmsg("%s: VLAN tags reach it inside the frame: fast path again",
		       dev);
	}
	return true;
}

/* vlan_follow() for each port, every VLAN_CHECK_S (a dump of the ports
 * asks each as it goes).
 */
static void vlan_recheck(struct mirror *d)
{
	static uint32_t idx[MAX_PORTS];
	struct bpfwd_br_port p;
	int n, i;

	d->last_vlan_check = now();
	n = brport_list(&d->m, 0, idx, NULL, MAX_PORTS);
	for (i = 0; i < n && i < MAX_PORTS; i++) {
		char dev[16];

		if (brport_get(&d->m, idx[i], &p))
			continue;
		ifname_of(idx[i], dev);
		if (vlan_follow(&p, idx[i], dev))
			brport_put(&d->m, idx[i], &p);
	}
}

static int port_seen(const struct brnl_port *np, void *data)
{
	struct link_walk *w = data;
	struct mirror *d = w->d;
	struct bpfwd_br_port p;
	struct bpfwd_br b;
	char dev[16];
	uint32_t keep;

	if (br_get(&d->m, np->master, &b))
		return 0;
	ifname_of(np->ifindex, dev);
	if (!brport_get(&d->m, np->ifindex, &p) && p.bridge != np->master)
		bridge_detach(&d->m, np->ifindex);	/* moved between bridges */
	if (brport_get(&d->m, np->ifindex, &p)) {
		if (bridge_port_check(np->ifindex, &b)) {
			if (!was_refused(d, np->ifindex))
				logmsg("%s: not attached (see above); frames to and from it go through the bridge",
				       dev);
			return 0;
		}
		if (bridge_attach(&d->m, np->master, &b, np->ifindex))
			return 0;
		logmsg("%s: joined bridge if%u: fast path attached (%s)", dev,
		       np->master, br_hook_name(b.hook));
		d->resync = true;	/* its fdb entries: its slot */
		brport_get(&d->m, np->ifindex, &p);
	}
	if (w->nseen < MAX_PORTS)
		w->seen[w->nseen++] = np->ifindex;
	if ((p.flags & BPFWD_BRP_SYNCED) &&
	    p.state == BPFWD_BR_STATE_FORWARDING && np->state == 0 &&
	    !np->oper_up)
		flush_refreshed(d, &p, np->ifindex);
	keep = p.flags & (BPFWD_BRP_XDP_TX | BPFWD_BRP_OWN_CLSACT |
			  BPFWD_BRP_RX_VLAN_HW);
	p.flags = keep | np->flags | BPFWD_BRP_SYNCED;
	vlan_follow(&p, np->ifindex, dev);	/* a link event: ask now */
	p.state = np->state;
	p.mtu = np->mtu;
	return brport_put(&d->m, np->ifindex, &p);
}

/* Ports in the map that the dump did not show as members: gone. */
static void ports_gone(struct mirror *d, struct link_walk *w)
{
	static uint32_t idx[MAX_PORTS];
	struct bpfwd_br_port p[64];
	int n, i, j;

	n = brport_list(&d->m, 0, idx, NULL, MAX_PORTS);
	for (i = 0; i < n && i < MAX_PORTS; i++) {
		char dev[16];

		for (j = 0; j < w->nseen; j++)
			if (w->seen[j] == idx[i])
				break;
		if (j < w->nseen || brport_get(&d->m, idx[i], &p[0]))
			continue;
		ifname_of(idx[i], dev);
		bridge_detach(&d->m, idx[i]);
		brport_put(&d->m, idx[i], NULL);
		brfdb_flush(&d->m, p[0].bridge, idx[i]);
		logmsg("%s: left bridge if%u: fast path detached", dev,
		       p[0].bridge);
	}
}

/* The bridges' own settings: address, vlan_filtering, and whether
 * br_netfilter looks at their IP frames (sysctls have no events: this
 * runs with every heartbeat).
 */
static void bridges_update(struct mirror *d)
{
	bool nf4 = brnl_sysctl_on("bridge-nf-call-iptables");
	bool nf6 = brnl_sysctl_on("bridge-nf-call-ip6tables");
	bool nfv = brnl_sysctl_on("bridge-nf-filter-vlan-tagged");
	uint32_t br[MAX_BR];
	int n = br_list(&d->m, br, MAX_BR), i;

	for (i = 0; i < n && i < MAX_BR; i++) {
		struct brnl_bridge nb;
		struct bpfwd_br b;

		if (br_get(&d->m, br[i], &b))
			continue;
		if (brnl_get_bridge(br[i], &nb) || !nb.is_bridge) {
			logmsg("bridge if%u is gone: its configuration goes too",
			       br[i]);
			brfdb_flush(&d->m, br[i], 0);
			brstats_reset(&d->m, br[i]);
			br_put(&d->m, br[i], NULL);
			d->links_dirty = true;	/* its ports: detached */
			continue;
		}
		if (nb.vlan_filtering && !d->vlans_ok &&
		    !(b.flags & BPFWD_BR_F_VLAN_FILTERING))
			logmsg("%s: vlan_filtering is on, but the port VLANs cannot be read (%s): every frame goes through the bridge",
			       nb.name, strerror(-d->vlans_err));
		b.flags &= ~(BPFWD_BR_F_VLAN_FILTERING | BPFWD_BR_F_NF_IP4 |
			     BPFWD_BR_F_NF_IP6 | BPFWD_BR_F_NF_VLAN |
			     BPFWD_BR_F_VLAN_SYNC | BPFWD_BR_F_8021AD);
		if (nb.vlan_filtering)
			b.flags |= BPFWD_BR_F_VLAN_FILTERING;
		if (d->vlans_ok)
			b.flags |= BPFWD_BR_F_VLAN_SYNC;
		if (nb.vlan_proto == ETH_P_8021AD)
			b.flags |= BPFWD_BR_F_8021AD;
		if (nfv)
			b.flags |= BPFWD_BR_F_NF_VLAN;
		if (nf4 || nb.nf_ip4)
			b.flags |= BPFWD_BR_F_NF_IP4;
		if (nf6 || nb.nf_ip6)
			b.flags |= BPFWD_BR_F_NF_IP6;
		b.mac = mac_key(nb.mac);
		br_put(&d->m, br[i], &b);
	}
}

/* ---- VLANs ---- */

struct vlan_walk {
	struct mirror *d;
	struct bpfwd_br_vlan_key *k;	/* the entries written */
	int n, max;
	int err;
};

static int vlan_put(struct vlan_walk *w, uint32_t port, uint32_t vid,
		    const struct bpfwd_br_vlan *v)
{
	struct bpfwd_br_vlan_key k = { .port = port, .vid = vid };

	if (w->n == w->max) {
		int max = w->max ? w->max * 2 : 256;
		struct bpfwd_br_vlan_key *nk = realloc(w->k, max * sizeof(*nk));

		if (!nk)
			return -ENOMEM;
		w->k = nk;
		w->max = max;
	}
	if (bpf_map_update_elem(w->d->m.vlan_fd, &k, v, 0)) {
		/* a missing VLAN only costs speed: its frames pass */
		if (!w->err)
			logmsg("vlan mirror: %s", strerror(errno));
		w->err = -errno;
		return 0;
	}
	w->k[w->n++] = k;
	return 0;
}

static int vlan_seen(const struct brnl_vlan *nv, void *data)
{
	struct vlan_walk *w = data;
	struct bpfwd_br_port p;
	struct bpfwd_br_vlan v = { .state = nv->state };
	uint32_t vid;
	int err = 0;

	/* ports of the bridges configured here only (not the bridge) */
	if (brport_get(&w->d->m, nv->port, &p))
		return 0;
	if (nv->flags & BRIDGE_VLAN_INFO_UNTAGGED)
		v.flags |= BPFWD_BRV_UNTAGGED;
	if (nv->tunnel || (p.flags & BPFWD_BRP_VLAN_TUNNEL))
		v.flags |= BPFWD_BRV_TUNNEL;
	if (nv->flags & BRIDGE_VLAN_INFO_PVID) {
		struct bpfwd_br_vlan pe = { .pvid = nv->vid };

		v.flags |= BPFWD_BRV_PVID;
		err = vlan_put(w, nv->port, 0, &pe);
	}
	for (vid = nv->vid; !err && vid <= nv->vid_end; vid++)
		err = vlan_put(w, nv->port, vid, &v);
	return err;
}

static int vkey_cmp(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct bpfwd_br_vlan_key));
}

/* Every port's VLANs again; the entries the kernel no longer has go.
 * Without them (a kernel without RTM_GETVLAN) the map is emptied and a
 * vlan_filtering bridge passes everything.
 */
static void sync_vlans(struct mirror *d)
{
	struct vlan_walk w = { .d = d };
	struct bpfwd_br_vlan_key k, next, *prev = NULL;
	bool was = d->vlans_ok;
	int err;

	err = brnl_dump_vlans(vlan_seen, &w);
	if (err)
		w.n = 0;	/* nothing is known: all entries go */
	if (w.n)	/* qsort and bsearch of NULL, 0 are undefined */
		qsort(w.k, w.n, sizeof(*w.k), vkey_cmp);
	while (!bpf_map_get_next_key(d->m.vlan_fd, prev, &next)) {
		k = next;
		if ((!w.n || !bsearch(&k, w.k, w.n, sizeof(*w.k), vkey_cmp)) &&
		    !bpf_map_delete_elem(d->m.vlan_fd, &k))
			continue;	/* deleted: start over from prev */
		prev = &k;
	}
	free(w.k);
	d->vlans_ok = !err;
	/* a kernel without them says so for a bridge with vlan_filtering */
	if (err && err != d->vlans_err && err != -EOPNOTSUPP)
		logmsg("dump bridge VLANs: %s: vlan_filtering bridges pass every frame",
		       strerror(-err));
	d->vlans_err = err;
	if (was != d->vlans_ok)
		bridges_update(d);
}

static int sync_links(struct mirror *d)
{
	static struct link_walk w;
	int err;

	memset(&w, 0, sizeof(w));
	w.d = d;
	d->npc = 0;
	bridges_update(d);
	err = brnl_dump_ports(port_seen, &w);
	if (err) {
		logmsg("dump bridge ports: %s", strerror(-err));
		return err;
	}
	ports_gone(d, &w);
	sync_vlans(d);
	d->links_dirty = false;
	return 0;
}

/* ---- fdb ---- */

/* The slot of @port if it is an attached port of @bridge, else 0. */
static uint32_t port_slot(struct mirror *d, uint32_t port, uint32_t bridge)
{
	struct bpfwd_br_port p;
	uint32_t slot;
	int i;

	for (i = 0; i < d->npc; i++)
		if (d->pc[i].ifindex == port && d->pc[i].bridge == bridge)
			return d->pc[i].pslot;
	slot = !brport_get(&d->m, port, &p) && p.bridge == bridge ?
		p.pslot : 0;
	if (d->npc < (int)ARRAY_SIZE(d->pc)) {
		d->pc[d->npc].ifindex = port;
		d->pc[d->npc].bridge = bridge;
		d->pc[d->npc++].pslot = slot;
	}
	return slot;
}

static int fdb_apply(struct mirror *d, const struct brnl_fdb *f)
{
	struct bpfwd_br_fdb_key k = { .bridge = f->bridge, .vlan = f->vlan,
				      .mac = mac_key(f->mac) };
	struct bpfwd_br_fdb v = { .port = f->port, .flags = f->flags }, old;

	if (!f->del)
		v.pslot = port_slot(d, f->port, f->bridge);
	if (f->del) {
		bpf_map_delete_elem(d->m.fdb_fd, &k);
		return 0;
	}
	/* the fast path's last-seen stays while the station stays put */
	if (!bpf_map_lookup_elem(d->m.fdb_fd, &k, &old) && old.port == v.port)
		v.seen = old.seen;
	if (bpf_map_update_elem(d->m.fdb_fd, &k, &v, 0)) {
		int err = -errno;

		/* a full mirror only costs speed: unknown means passed */
		logmsg("fdb mirror: %s", strerror(-err));
		return err == -E2BIG || err == -ENOMEM ? 0 : err;
	}
	return 0;
}

struct fdb_pair {
	struct bpfwd_br_fdb_key k;
	struct bpfwd_br_fdb v;
};

/* The mirror as it was before the dump, sorted by key, and which of its
 * entries the kernel still has.
 */
struct fdb_set {
	struct mirror *d;
	struct fdb_pair *p;
	bool *hit;
	int n;
	uint32_t bridge;	/* the last bridge asked about, and whether */
	bool bridge_ok;		/* it is configured */
};

static int key_cmp(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct bpfwd_br_fdb_key));
}

static int fdb_seen(const struct brnl_fdb *f, void *data)
{
	struct fdb_set *s = data;
	struct bpfwd_br_fdb_key k = { .bridge = f->bridge, .vlan = f->vlan,
				      .mac = mac_key(f->mac) };
	struct fdb_pair *p;

	if (f->bridge != s->bridge) {
		s->bridge = f->bridge;
		s->bridge_ok = configured(s->d, f->bridge);
	}
	if (!s->bridge_ok)
		return 0;
	p = s->n ? bsearch(&k, s->p, s->n, sizeof(*p), key_cmp) : NULL;
	if (p) {
		s->hit[p - s->p] = true;
		if (p->v.port == f->port && p->v.flags == f->flags &&
		    p->v.pslot == port_slot(s->d, f->port, f->bridge))
			return 0;	/* as it is: nothing to write */
	}
	return fdb_apply(s->d, f);
}

/* The mirror before the dump, sorted: a few batch syscalls. */
static int fdb_snapshot(struct mirror *d, struct fdb_set *s)
{
	int n = brfdb_list(&d->m, 0, NULL, NULL, 0), i;
	struct bpfwd_br_fdb_key *k = calloc(n + 1, sizeof(*k));
	struct bpfwd_br_fdb *v = calloc(n + 1, sizeof(*v));

	s->p = calloc(n + 1, sizeof(*s->p));
	s->hit = calloc(n + 1, sizeof(*s->hit));
	if (!k || !v || !s->p || !s->hit) {
		free(k);
		free(v);
		return -ENOMEM;
	}
	i = brfdb_list(&d->m, 0, k, v, n);
	n = i < n ? i : n;	/* only the fast path writes, and only deletes */
	for (i = 0; i < n; i++) {
		s->p[i].k = k[i];
		s->p[i].v = v[i];
	}
	s->n = n;
	qsort(s->p, n, sizeof(*s->p), key_cmp);
	free(k);
	free(v);
	return 0;
}

/* The whole fdb again: writes the entries that are new or differ, then
 * drops the mirror's entries the kernel no longer has.
 */
static int sync_fdb(struct mirror *d)
{
	struct fdb_set s = { .d = d };
	int err, i;

	err = fdb_snapshot(d, &s);
	if (!err)
		err = brnl_dump_fdb(fdb_seen, &s);
	if (err) {
		logmsg("dump fdb: %s", strerror(-err));
	} else {
		for (i = 0; i < s.n; i++)
			if (!s.hit[i])
				bpf_map_delete_elem(d->m.fdb_fd, &s.p[i].k);
	}
	free(s.p);
	free(s.hit);
	return err;
}

/* ---- heartbeat, refresh ---- */

static void set_sync(struct mirror *d, bool on)
{
	uint32_t br[MAX_BR];
	int n = br_list(&d->m, br, MAX_BR), i;
	uint64_t ns = mono_ns();

	for (i = 0; i < n && i < MAX_BR; i++) {
		struct bpfwd_br b;

		if (br_get(&d->m, br[i], &b))
			continue;
		b.flags = on ? b.flags | BPFWD_BR_F_SYNC :
			       b.flags & ~BPFWD_BR_F_SYNC;
		b.heartbeat = on ? ns : 0;
		b.daemon = on ? getpid() : 0;
		br_put(&d->m, br[i], &b);
	}
}

static int seen_add(void *ctx, void *data, size_t len)
{
	struct mirror *d = ctx;
	struct bpfwd_br_fdb_key *k;

	/* past a few per entry (no refresh for long: resyncs failing) the
	 * rest waits for its next stamp
	 */
	if (len < sizeof(*k) || d->nseen >= 4 * BPFWD_BR_MAX_FDB)
		return 0;
	if (d->nseen == d->maxseen) {
		int max = d->maxseen ? d->maxseen * 2 : 1024;

		k = realloc(d->seen, max * sizeof(*k));
		if (!k)
			return 0;	/* its next stamp names it again */
		d->seen = k;
		d->maxseen = max;
	}
	memcpy(&d->seen[d->nseen++], data, sizeof(*k));
	return 0;
}

static void seen_open(struct mirror *d)
{
	d->seen_rb = ring_buffer__new(d->m.seen_fd, seen_add, d, NULL);
	if (!d->seen_rb)
		logmsg("%s: %s: the refresh walks the whole mirror instead",
		       BPFWD_MAP_BR_SEEN, strerror(errno));
}

static void mirror_close(struct mirror *d)
{
	ring_buffer__free(d->seen_rb);
	d->seen_rb = NULL;
	d->nseen = 0;
	brmaps_close(&d->m);
	d->open = false;
	d->nbr = 0;
}

/* Without the ring: every entry of the mirror, a batch at a time. */
static void seen_all(struct mirror *d)
{
	int n = brfdb_list(&d->m, 0, NULL, NULL, 0);
	struct bpfwd_br_fdb_key *k = calloc(n + 1, sizeof(*k));

	if (k) {
		int got = brfdb_list(&d->m, 0, k, NULL, n);

		n = got < n ? got : n;
		while (n-- > 0)
			seen_add(d, &k[n], sizeof(*k));
	}
	free(k);
}

/* NTF_USE for the sources the fast path saw lately (those the ring
 * named, each once, where the mirror still has it on the same port and
 * seen recently): the kernel's entry is updated as when the bridge
 * learns from a frame.
 */
static void refresh(struct mirror *d)
{
	uint64_t ns = mono_ns();
	struct bpfwd_br_fdb_key *k;
	struct bpfwd_br_fdb v;
	uint8_t mac[8];
	int i;

	if (d->seen_rb)
		ring_buffer__consume(d->seen_rb);
	else
		seen_all(d);
	if (d->nseen)	/* qsort(NULL, 0, ...) is undefined (UBSan) */
		qsort(d->seen, d->nseen, sizeof(*d->seen), key_cmp);
	for (i = 0; i < d->nseen; i++) {
		k = &d->seen[i];
		if ((i && !key_cmp(k, k - 1)) ||
		    bpf_map_lookup_elem(d->m.fdb_fd, k, &v) || !v.seen ||
		    (int64_t)(ns - v.seen) > (int64_t)REFRESH_WINDOW_NS ||
		    (v.flags & BPFWD_FDB_NO_AGE))
			continue;
		memcpy(mac, &k->mac, 8);
		brnl_batch_use(&d->batch, v.port, mac, k->vlan);
	}
	brnl_batch_flush(&d->batch);
	d->nseen = 0;
}

/* ---- the loop ---- */

static void event(struct mirror *d, const struct nlmsghdr *nlh)
{
	struct brnl_fdb f;

	switch (nlh->nlmsg_type) {
	case RTM_NEWNEIGH:
	case RTM_DELNEIGH:
		if (!brnl_parse_fdb(nlh, &f) && configured(d, f.bridge))
			fdb_apply(d, &f);
		break;
	case RTM_NEWLINK:
	case RTM_DELLINK:
	case RTM_NEWVLAN:
	case RTM_DELVLAN:
		d->links_dirty = true;
		break;
	}
}

static void read_events(struct mirror *d)
{
	static char buf[1 << 16];
	ssize_t n;

	while ((n = recv(mnl_socket_get_fd(d->ev), buf, sizeof(buf),
			 MSG_DONTWAIT)) != 0) {
		struct nlmsghdr *m = (struct nlmsghdr *)buf;
		int len = n;

		if (n < 0) {
			if (errno == ENOBUFS) {
				logmsg("events overflowed: resync");
				d->resync = true;
				d->overflow = true;
				continue;
			}
			break;
		}
		for (; mnl_nlmsg_ok(m, len); m = mnl_nlmsg_next(m, &len)) {
			if (d->f && (m->nlmsg_type == RTM_NEWLINK ||
				     m->nlmsg_type == RTM_DELLINK))
				d->f->link_event(m);
			if (d->open)
				event(d, m);
		}
	}
}

/* New bridges in the map make a full resync; so does time. */
static void check_bridges(struct mirror *d)
{
	uint32_t br[MAX_BR];
	int n = br_list(&d->m, br, MAX_BR), i, j;

	for (i = 0; i < n && i < MAX_BR; i++) {
		for (j = 0; j < d->nbr; j++)
			if (d->br[j] == br[i])
				break;
		if (j == d->nbr)
			d->resync = true;
	}
	if (now() - d->last_resync > RESYNC_S)
		d->resync = true;
}

static void tick(struct mirror *d)
{
	int was = d->nbr;

	if (!d->open) {
		if (brmaps_open(&d->m, false))
			return;
		d->open = true;
		d->resync = true;
		seen_open(d);
	}
	brmaps_lock(&d->m);
	if (!br_list(&d->m, NULL, 0) &&
	    !brport_list(&d->m, 0, NULL, NULL, 0)) {
		/* nothing configured (the pins may be gone): look again later */
		brmaps_unlock(&d->m);
		mirror_close(d);
		return;
	}
	check_bridges(d);
	/* first: a port that joins makes a resync (its entries get its slot) */
	if (!d->resync && d->links_dirty)
		sync_links(d);
	if (d->resync) {
		d->nbr = br_list(&d->m, d->br, MAX_BR);
		if (d->nbr > MAX_BR)
			d->nbr = MAX_BR;
		if (!sync_links(d) && !sync_fdb(d)) {
			if (d->nbr != was)
				logmsg("in sync: %d bridge%s, %d fdb entries",
				       d->nbr, d->nbr == 1 ? "" : "s",
				       brfdb_list(&d->m, 0, NULL, NULL, 0));
			d->resync = false;
			d->last_resync = now();
			d->last_beat = 0;
		}
	}
	if (d->resync || now() - d->last_beat >= 0.5) {
		if (!d->resync)
			bridges_update(d);
		set_sync(d, !d->resync);
		d->last_beat = now();
	}
	if (d->links_dirty)
		sync_links(d);
	if (now() - d->last_vlan_check >= VLAN_CHECK_S)
		vlan_recheck(d);
	if (!br_list(&d->m, NULL, 0)) {
		/* its last bridge was deleted: the pins go, as with bridge del */
		logmsg("no bridge left: the fast path's pins are removed");
		brmaps_gc(&d->m);
		brmaps_unlock(&d->m);
		mirror_close(d);
		return;
	}
	brmaps_unlock(&d->m);
}

static int claim_socket(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	/* abstract: one name per network namespace, gone with the process */
	memcpy(sa.sun_path + 1, DAEMON_SOCK, strlen(DAEMON_SOCK));
	if (bind(fd, (struct sockaddr *)&sa,
		 offsetof(struct sockaddr_un, sun_path) + 1 + strlen(DAEMON_SOCK))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

bool brmirror_running(void)
{
	int fd = claim_socket();

	if (fd >= 0)
		close(fd);
	return fd == -EADDRINUSE;
}

int brmirror_run(const struct daemon_follower *f)
{
	static struct mirror d;
	struct pollfd pfd[2];
	int lock, err;

	memset(&d, 0, sizeof(d));
	d.f = f;
	lock = claim_socket();
	if (lock < 0) {
		p_err("%s", lock == -EADDRINUSE ?
		      "another bpfwd daemon runs in this network namespace" :
		      strerror(-lock));
		return lock;
	}
	d.ev = brnl_events_open();
	err = d.ev ? brnl_batch_open(&d.batch) : -errno;
	if (err) {
		p_err("rtnetlink: %s", strerror(-err));
		goto out;
	}
	logmsg("started (pid %d)", getpid());
	pfd[0].fd = mnl_socket_get_fd(d.ev);
	pfd[0].events = pfd[1].events = POLLIN;
	while (!stop_signal) {
		tick(&d);
		/* once a second, however many events come */
		if (d.open && !d.resync && now() - d.last_refresh >= 1.0) {
			refresh(&d);
			d.last_refresh = now();
		}
		/* outside the bridge maps' lock: it takes the ports' */
		if (f)
			f->tick(d.overflow);
		d.overflow = false;
		/* the ring wakes us when a quarter full: drained into d.seen */
		pfd[1].fd = d.seen_rb ? ring_buffer__epoll_fd(d.seen_rb) : -1;
		pfd[1].revents = 0;
		if (poll(pfd, 2, 1000) <= 0)
			continue;
		if (pfd[1].revents)
			ring_buffer__consume(d.seen_rb);
		if (pfd[0].revents) {
			if (d.open)
				brmaps_lock(&d.m);
			read_events(&d);
			if (d.open)
				brmaps_unlock(&d.m);
		}
	}
	logmsg("stopping on signal %d: bridges pass everything now, ports stay as they are",
	       (int)stop_signal);
	if (d.open) {
		brmaps_lock(&d.m);
		set_sync(&d, false);
		brmaps_unlock(&d.m);
		mirror_close(&d);
	}
	free(d.seen);
out:
	if (d.ev)
		mnl_socket_close(d.ev);
	brnl_batch_close(&d.batch);
	close(lock);
	return err;
}
