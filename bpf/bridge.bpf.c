// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * The fast path of an existing Linux bridge: attached to the ingress of
 * every port (tc, tcx or XDP), it redirects a frame straight to the port
 * the bridge would send it to, and passes everything else to the bridge.
 * The bridge stays in charge: `bpfwd daemon` mirrors its fdb, port states
 * and flags into the maps below, and the rule only forwards a frame when
 * the mirror says the bridge would forward it to exactly one port, the
 * same way (net/bridge/br_input.c br_handle_frame_finish(), br_forward.c
 * should_deliver()):
 *
 *   - the mirror is in sync and its heartbeat is fresh;
 *   - without vlan_filtering a tag is payload: the fdb is looked up in
 *     VLAN 0 and the frame leaves as it came (br_allowed_ingress());
 *   - with vlan_filtering the frame's VLAN is the bridge's (its outer tag
 *     of the bridge's vlan_protocol, or the port's pvid for an untagged
 *     or priority-tagged frame), on the ingress port and forwarding
 *     there (__allowed_ingress()); the fdb is looked up in that VLAN; the
 *     egress port has the VLAN, forwarding (br_allowed_egress()), and the
 *     frame leaves tagged or untagged as that port's VLAN says
 *     (br_handle_vlan()), PCP and DEI kept;
 *   - unicast, not for the bridge (its address, local fdb entries);
 *   - the ingress port is forwarding and none of its flags (locked, mab,
 *     neigh_suppress, proxyarp) asks the bridge to look at the frame;
 *   - the source is known on this same port (a new or moved station goes
 *     to the bridge, which learns it);
 *   - the destination is in the mirror on another forwarding port of the
 *     same bridge, the pair is not isolated, the frame fits its MTU.
 *
 * The ingress port's entry is read by the slot that bpfwd loads into the
 * port's own copy of the program (in_pslot), the egress port's by the
 * slot its fdb entry carries, each checked against the port's ifindex:
 * the fdb is the only hash the rule looks in, and with vlan_filtering
 * the port VLANs (bpfwd_br_vlan, by ifindex and vid).
 *
 * Every frame counts once, forwarded or passed with its reason.  A moved
 * station's entry is dropped from the mirror at once, so frames to it go
 * through the bridge until the daemon writes where it is now.  Never a
 * drop: anything unclear is passed.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "bpfwd.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFWD_BR_MAX_BRIDGES);
	__type(key, __u32);
	__type(value, struct bpfwd_br);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_br SEC(".maps");

/* the same entries by slot: what the programs read */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BPFWD_BR_MAX_BRIDGES + 1);
	__type(key, __u32);
	__type(value, struct bpfwd_br);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_br_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFWD_MAX_PORTS);
	__type(key, __u32);
	__type(value, struct bpfwd_br_port);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_br_ports SEC(".maps");

/* the same entries by the port's slot: what the programs read */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BPFWD_MAX_PORTS + 1);
	__type(key, __u32);
	__type(value, struct bpfwd_br_port);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_br_pslots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFWD_BR_MAX_FDB);
	__type(key, struct bpfwd_br_fdb_key);
	__type(value, struct bpfwd_br_fdb);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_br_fdb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BPFWD_BR_MAX_BRIDGES + 1);
	__type(key, __u32);
	__type(value, struct bpfwd_br_stats);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_br_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, BPFWD_BR_SEEN_BYTES);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_br_seen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BPFWD_BR_MAX_VLAN);
	__type(key, struct bpfwd_br_vlan_key);
	__type(value, struct bpfwd_br_vlan);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
} bpfwd_br_vlan SEC(".maps");

/* The slot of the port this copy of the program is attached to, set by
 * bpfwd when it loads it; 0: any port, looked up by ifindex.
 */
const volatile __u32 in_pslot = 0;

/* A source's last-seen time is written at most this often. */
#define SEEN_GRAIN_NS	1000000000ULL

static __always_inline __u64 mac_of(const __u8 *p)
{
	__u64 m = 0;

	__builtin_memcpy(&m, p, ETH_ALEN);
	return m;
}

static __always_inline bool link_local(const __u8 *d)
{
	/* 01:80:c2:00:00:00 - 01:80:c2:00:00:0f (STP, LACP, LLDP, 802.1X) */
	return d[0] == 0x01 && d[1] == 0x80 && d[2] == 0xc2 && !d[3] &&
	       !d[4] && !(d[5] & 0xf0);
}

static __always_inline void count(__u32 slot, __u32 reason, __u32 len)
{
	struct bpfwd_br_stats *s = bpf_map_lookup_elem(&bpfwd_br_stats, &slot);

	if (!s)
		return;
	if (reason < __BPFWD_BRC_MAX)
		s->c[reason]++;
	if (reason == BPFWD_BRC_FORWARDED)
		s->c[BPFWD_BRC_BYTES] += len;
}

/* Tells the daemon that a source whose kernel entry ages was seen.  The
 * daemon drains the ring once a second; a quarter full wakes it sooner.
 * False when the ring is full.
 */
static __always_inline bool seen_note(const struct bpfwd_br_fdb_key *k,
				      __u32 flags)
{
	__u64 wake = BPF_RB_NO_WAKEUP;

	if (flags & BPFWD_FDB_NO_AGE)
		return true;
	if (bpf_ringbuf_query(&bpfwd_br_seen, BPF_RB_AVAIL_DATA) >
	    BPFWD_BR_SEEN_BYTES / 4)
		wake = BPF_RB_FORCE_WAKEUP;
	return !bpf_ringbuf_output(&bpfwd_br_seen, (void *)k, sizeof(*k), wake);
}

/* The source must be known on the ingress port.  Returns 0 or a reason.
 * A source the mirror has on another port is a station that moved: when
 * the bridge learns on this port it moves the entry too (br_fdb_update(),
 * static ones included, sticky and local ones not), so the mirror's entry
 * goes at once; frames to the station then pass to the bridge until the
 * daemon writes the new port.  This runs for every frame a port may
 * learn from, multicast too, as the bridge learns from those as well.
 */
static __always_inline __u32 check_src(struct bpfwd_br_fdb_key *k,
				       const __u8 *src,
				       const struct bpfwd_br_port *ip,
				       __u32 in, __u64 now)
{
	struct bpfwd_br_fdb *s;

	k->mac = mac_of(src);
	if ((src[0] & 1) || !k->mac)
		return BPFWD_BRC_UNKNOWN_SRC;	/* the bridge drops these */
	s = bpf_map_lookup_elem(&bpfwd_br_fdb, k);
	if (!s)
		return BPFWD_BRC_UNKNOWN_SRC;
	if (s->port != in || (s->flags & BPFWD_FDB_LOCAL)) {
		if (!(s->flags & BPFWD_FDB_NO_MOVE) &&
		    (ip->flags & BPFWD_BRP_LEARNING) &&
		    (ip->state == BPFWD_BR_STATE_FORWARDING ||
		     ip->state == BPFWD_BR_STATE_LEARNING))
			bpf_map_delete_elem(&bpfwd_br_fdb, k);
		return BPFWD_BRC_MOVED_SRC;
	}
	if (now - s->seen > SEEN_GRAIN_NS && seen_note(k, s->flags))
		s->seen = now;
	return 0;
}

/* The destination's port, if the bridge would send the frame there and
 * only there.  Returns 0 with *out set, or a reason.
 */
static __always_inline __u32 check_dst(struct bpfwd_br_fdb_key *k,
				       const __u8 *dst,
				       const struct bpfwd_br_port *ip,
				       __u32 in, __u32 len, bool xdp,
				       __u32 *out)
{
	const struct bpfwd_br_port *op;
	struct bpfwd_br_fdb *d;
	__u32 pslot;

	k->mac = mac_of(dst);
	d = bpf_map_lookup_elem(&bpfwd_br_fdb, k);
	if (!d)
		return BPFWD_BRC_UNKNOWN_DST;
	if (d->flags & BPFWD_FDB_LOCAL)
		return BPFWD_BRC_LOCAL;
	if (d->flags & BPFWD_FDB_LOCKED)
		return BPFWD_BRC_EGRESS;
	*out = d->port;
	if (*out == in)
		return BPFWD_BRC_ISOLATION;	/* hairpin or a drop: the bridge's */
	pslot = d->pslot;
	op = bpf_map_lookup_elem(&bpfwd_br_pslots, &pslot);
	if (!op || op->ifindex != *out || op->bridge != ip->bridge ||
	    op->state != BPFWD_BR_STATE_FORWARDING ||
	    (op->flags & (BPFWD_BRP_SYNCED | BPFWD_BRP_BACKUP)) !=
		    BPFWD_BRP_SYNCED ||
	    (xdp && !(op->flags & BPFWD_BRP_XDP_TX)))
		return BPFWD_BRC_EGRESS;
	if ((ip->flags & BPFWD_BRP_ISOLATED) && (op->flags & BPFWD_BRP_ISOLATED))
		return BPFWD_BRC_ISOLATION;
	if (len > op->mtu + ETH_HLEN)
		return BPFWD_BRC_MTU;
	return 0;
}

static __always_inline bool csum_ok(const __u16 *w)
{
	__u32 sum = 0;
	int i;

#pragma unroll
	for (i = 0; i < 10; i++)
		sum += w[i];
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return sum == 0xffff;
}

/* br_netfilter's br_validate_ipv4() and br_validate_ipv6(), which run
 * for bridged IP when bridge-nf-call-ip(6)tables is on, with or without
 * rules: a header they drop goes to the bridge (it drops it), and *trim
 * gets the length they cut the frame to (0: as it is).  Returns 0 or a
 * reason.  IPv4 options and IPv6 hop-by-hop headers go to the bridge.
 */
static __always_inline __u32 check_nf(const struct bpfwd_br *br,
				      struct ethhdr *eth, void *data_end,
				      __u32 len, __u32 *trim)
{
	__u32 ip_len;

	if (eth->h_proto == bpf_htons(ETH_P_IP) &&
	    (br->flags & BPFWD_BR_F_NF_IP4)) {
		__u8 *ip = (void *)(eth + 1);

		if ((void *)(ip + 20) > data_end || ip[0] != 0x45 ||
		    !csum_ok((const __u16 *)ip))
			return BPFWD_BRC_MALFORMED;
		ip_len = (ip[2] << 8) | ip[3];
		if (ip_len < 20 || ip_len + ETH_HLEN > len)
			return BPFWD_BRC_MALFORMED;
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6) &&
		   (br->flags & BPFWD_BR_F_NF_IP6)) {
		__u8 *ip6 = (void *)(eth + 1);

		if ((void *)(ip6 + 40) > data_end || (ip6[0] >> 4) != 6 ||
		    ip6[6] == 0 /* hop-by-hop */)
			return BPFWD_BRC_MALFORMED;
		ip_len = ((ip6[4] << 8) | ip6[5]) + 40;
		if (ip_len + ETH_HLEN > len)
			return BPFWD_BRC_MALFORMED;
	} else {
		return 0;
	}
	if (ip_len + ETH_HLEN < len)
		*trim = ip_len + ETH_HLEN;
	return 0;
}

/* The ingress port's entry: by this copy's slot, or by ifindex. */
static __always_inline const struct bpfwd_br_port *in_port(__u32 in)
{
	const struct bpfwd_br_port *p;
	__u32 pslot = in_pslot;

	if (!pslot)
		return bpf_map_lookup_elem(&bpfwd_br_ports, &in);
	p = bpf_map_lookup_elem(&bpfwd_br_pslots, &pslot);
	return p && p->ifindex == in ? p : NULL;
}

/* ---- VLANs (net/bridge/br_vlan.c) ---- */

/* The frame's outer tag as it arrives, and what the bridge makes of it. */
struct br_vlan {
	__u16 proto;		/* TPID of the outer tag (network order), 0: none */
	__u16 tci;		/* its TCI (host order) */
	bool learn;		/* the bridge learns the source in @vid */
	__u16 vid;		/* the bridge's VLAN: the fdb's (0: no filtering) */
	__u16 out_tci;		/* the tag the bridge carries it with */
	__u8 op;		/* BR_VLAN_*: what leaves the egress port */
};

enum { BR_VLAN_KEEP, BR_VLAN_POP, BR_VLAN_PUSH, BR_VLAN_RETAG };

/* what the rewrite left: the frame as it came, or a frame that is
 * neither (it cannot go to the bridge either)
 */
enum { BR_VLAN_OK, BR_VLAN_UNCHANGED, BR_VLAN_BROKEN };

#define VLAN_HLEN	4
#define VLAN_VID_MASK	0x0fff

struct vlan_tag {
	__be16 tci;
	__be16 proto;		/* the ethertype after it */
};

static __always_inline bool tpid(__u16 proto)
{
	return proto == bpf_htons(ETH_P_8021Q) || proto == bpf_htons(ETH_P_8021AD);
}

/* XDP: the outer tag is in the frame.  Returns 0 or a reason. */
static __always_inline __u32 br_vlan_parse(struct ethhdr *eth, void *data_end,
					   struct br_vlan *v)
{
	struct vlan_tag *vh = (void *)(eth + 1);

	if (!tpid(eth->h_proto))
		return 0;
	if ((void *)(vh + 1) > data_end)
		return BPFWD_BRC_MALFORMED;
	v->proto = eth->h_proto;
	v->tci = bpf_ntohs(vh->tci);
	return 0;
}

/* __allowed_ingress(): the frame's VLAN on a vlan_filtering bridge.
 * Returns 0 when the frame may be forwarded in @v->vid, or a reason;
 * @v->learn says whether the bridge learns its source in @v->vid all the
 * same.  An outer tag of the other TPID makes the bridge take the frame
 * as untagged (the pvid) and stack its own tag over it, and a port with
 * vlan_tunnel maps tags to tunnel ids: both left to the bridge.
 */
static __always_inline __u32 br_vlan_in(const struct bpfwd_br *br,
					const struct bpfwd_br_port *ip,
					__u32 in, struct br_vlan *v)
{
	__u16 proto = bpf_htons((br->flags & BPFWD_BR_F_8021AD) ?
				ETH_P_8021AD : ETH_P_8021Q);
	struct bpfwd_br_vlan_key vk = { .port = in };
	const struct bpfwd_br_vlan *e;
	bool other = v->proto && v->proto != proto;

	if (!(br->flags & BPFWD_BR_F_VLAN_SYNC))
		return BPFWD_BRC_VLAN;
	v->vid = other ? 0 : v->tci & VLAN_VID_MASK;
	v->out_tci = v->tci;
	if (!v->vid) {
		/* untagged or priority-tagged: the pvid, PCP kept */
		e = bpf_map_lookup_elem(&bpfwd_br_vlan, &vk);
		if (!e || !e->pvid || e->pvid >= VLAN_VID_MASK)
			return BPFWD_BRC_VLAN;	/* no pvid: the bridge drops it */
		v->vid = e->pvid;
		v->out_tci = v->proto ? (v->tci | v->vid) : v->vid;
	}
	vk.vid = v->vid;
	e = bpf_map_lookup_elem(&bpfwd_br_vlan, &vk);
	if (!e)
		return BPFWD_BRC_VLAN;		/* not on the port: dropped */
	/* a port in learning state learns whatever its VLAN's state */
	v->learn = e->state == BPFWD_BR_STATE_FORWARDING ||
		   e->state == BPFWD_BR_STATE_LEARNING ||
		   ip->state == BPFWD_BR_STATE_LEARNING;
	if (e->state != BPFWD_BR_STATE_FORWARDING || other ||
	    (e->flags & BPFWD_BRV_TUNNEL) || (ip->flags & BPFWD_BRP_VLAN_TUNNEL))
		return BPFWD_BRC_VLAN;
	return 0;
}

/* br_allowed_egress() and br_handle_vlan() on the egress port: 0 with
 * @v->op set, or a reason.
 */
static __always_inline __u32 br_vlan_out(__u32 out, struct br_vlan *v)
{
	struct bpfwd_br_vlan_key vk = { .port = out, .vid = v->vid };
	const struct bpfwd_br_vlan *e = bpf_map_lookup_elem(&bpfwd_br_vlan, &vk);

	if (!e || e->state != BPFWD_BR_STATE_FORWARDING ||
	    (e->flags & BPFWD_BRV_TUNNEL))
		return BPFWD_BRC_VLAN;
	if (e->flags & BPFWD_BRV_UNTAGGED)
		v->op = v->proto ? BR_VLAN_POP : BR_VLAN_KEEP;
	else if (!v->proto)
		v->op = BR_VLAN_PUSH;
	else
		v->op = v->out_tci != v->tci ? BR_VLAN_RETAG : BR_VLAN_KEEP;
	return 0;
}

/* tc: the tag is the skb's (the stack took it out of the frame); a
 * second one stays in the frame.  Returns BR_VLAN_*.
 */
static __always_inline int br_vlan_skb(struct __sk_buff *skb,
				       const struct br_vlan *v, __u16 proto)
{
	if (v->op == BR_VLAN_KEEP)
		return BR_VLAN_OK;
	if (v->op == BR_VLAN_PUSH)
		return bpf_skb_vlan_push(skb, proto, v->out_tci) ?
		       BR_VLAN_UNCHANGED : BR_VLAN_OK;
	if (bpf_skb_vlan_pop(skb))
		return BR_VLAN_UNCHANGED;
	if (v->op == BR_VLAN_POP ||
	    !bpf_skb_vlan_push(skb, proto, v->out_tci))
		return BR_VLAN_OK;
	/* the tag it came with goes back, or it must not go on */
	return bpf_skb_vlan_push(skb, v->proto, v->tci) ? BR_VLAN_BROKEN :
							  BR_VLAN_UNCHANGED;
}

/* XDP: the tag is in the frame; the addresses move in front of it.
 * Returns BR_VLAN_*.
 */
static __always_inline int br_vlan_xdp(struct xdp_md *ctx,
				       const struct br_vlan *v, __u16 proto)
{
	void *data, *data_end;
	__u8 *p;
	int i;

	if (v->op == BR_VLAN_KEEP)
		return BR_VLAN_OK;
	if (v->op == BR_VLAN_PUSH && bpf_xdp_adjust_head(ctx, -VLAN_HLEN))
		return BR_VLAN_UNCHANGED;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	p = data;
	if ((void *)(p + ETH_HLEN + VLAN_HLEN) > data_end) {
		if (v->op == BR_VLAN_PUSH && bpf_xdp_adjust_head(ctx, VLAN_HLEN))
			return BR_VLAN_BROKEN;
		return BR_VLAN_UNCHANGED;
	}
	if (v->op == BR_VLAN_PUSH) {
#pragma unroll
		for (i = 0; i < 2 * ETH_ALEN; i++)
			p[i] = p[i + VLAN_HLEN];
		*(__u16 *)(p + 12) = proto;
	} else if (v->op == BR_VLAN_POP) {
#pragma unroll
		for (i = 2 * ETH_ALEN - 1; i >= 0; i--)
			p[i + VLAN_HLEN] = p[i];
		return bpf_xdp_adjust_head(ctx, VLAN_HLEN) ? BR_VLAN_BROKEN :
							     BR_VLAN_OK;
	}
	*(__u16 *)(p + 14) = bpf_htons(v->out_tci);
	return BR_VLAN_OK;
}

/* The rule.  Returns 0 with *out, the egress ifindex, and @v->op, or a
 * reason; the frame is counted for its bridge either way.  @v has the
 * outer tag as the frame came; @proto gets the bridge's vlan_protocol.
 */
static __always_inline __u32 br_rule(void *data, void *data_end, __u32 in,
				     __u32 len, bool gso, bool xdp,
				     struct br_vlan *v, __u16 *proto,
				     __u32 *out, __u32 *trim)
{
	struct bpfwd_br_fdb_key k = {};
	const struct bpfwd_br_port *ip;
	struct ethhdr *eth = data;
	struct bpfwd_br *br;
	__u32 reason, src, vreason = 0, slot = 0;
	__u64 now;

	ip = in_port(in);
	k.bridge = ip ? ip->bridge : 0;
	br = ip ? bpf_map_lookup_elem(&bpfwd_br_slots, &ip->slot) : NULL;
	if (!br || !br->slot || br->slot != ip->slot) {
		reason = BPFWD_BRC_NOT_PORT;
		goto out;
	}
	slot = ip->slot;
	/* the coarse clock: a load, not a clock read; behind the daemon's
	 * CLOCK_MONOTONIC by a tick at most, hence the signed compare
	 */
	now = bpf_ktime_get_coarse_ns();
	if (!(br->flags & BPFWD_BR_F_SYNC) ||
	    !(ip->flags & BPFWD_BRP_SYNCED) ||
	    (__s64)(now - br->heartbeat) > (__s64)BPFWD_BR_STALE_NS) {
		reason = BPFWD_BRC_STALE;
		goto out;
	}
	if ((void *)(eth + 1) > data_end) {
		reason = BPFWD_BRC_MALFORMED;
		goto out;
	}
	/* a tag the device keeps out of the frame: XDP cannot see it */
	if (xdp && (ip->flags & BPFWD_BRP_RX_VLAN_HW)) {
		reason = BPFWD_BRC_VLAN;
		goto out;
	}
	/* tc: the stack took the outer tag out of the frame before tc
	 * (skb_vlan_untag); one left in it is not understood
	 */
	if (xdp)
		reason = br_vlan_parse(eth, data_end, v);
	else
		reason = !v->proto && tpid(eth->h_proto) ? BPFWD_BRC_VLAN : 0;
	if (reason)
		goto out;
	*proto = bpf_htons((br->flags & BPFWD_BR_F_8021AD) ? ETH_P_8021AD :
							      ETH_P_8021Q);
	if (br->flags & BPFWD_BR_F_VLAN_FILTERING) {
		/* a frame the bridge drops on ingress is not learnt from */
		vreason = br_vlan_in(br, ip, in, v);
		if (vreason && !v->learn) {
			reason = vreason;
			goto out;
		}
		k.vlan = v->vid;
	}
	src = check_src(&k, eth->h_source, ip, in, now);
	if (vreason) {
		reason = vreason;
		goto out;
	}
	if (eth->h_dest[0] & 1) {
		reason = link_local(eth->h_dest) ? BPFWD_BRC_LINK_LOCAL :
						   BPFWD_BRC_MULTICAST;
		goto out;
	}
	if (ip->state != BPFWD_BR_STATE_FORWARDING ||
	    (ip->flags & BPFWD_BRP_IN_PASS)) {
		reason = BPFWD_BRC_PORT_STATE;
		goto out;
	}
	reason = src;
	if (reason)
		goto out;
	if (mac_of(eth->h_dest) == br->mac) {
		reason = BPFWD_BRC_LOCAL;
		goto out;
	}
	/* GSO frames are segmented to the MTU on the way out, as the
	 * bridge's is_skb_forwardable() allows
	 */
	reason = check_dst(&k, eth->h_dest, ip, in, gso ? 0 : len, xdp, out);
	if (!reason && (br->flags & BPFWD_BR_F_VLAN_FILTERING))
		reason = br_vlan_out(*out, v);
	if (reason || !(br->flags & (BPFWD_BR_F_NF_IP4 | BPFWD_BR_F_NF_IP6)))
		goto out;
	/* br_netfilter sees the frame as it came: tagged IP only with
	 * bridge-nf-filter-vlan-tagged, then left to it
	 */
	if (v->proto)
		reason = (br->flags & BPFWD_BR_F_NF_VLAN) ? BPFWD_BRC_VLAN : 0;
	else
		reason = check_nf(br, eth, data_end, len, trim);
out:
	count(slot, reason, len);
	return reason;
}

SEC("tc")
int br_tc(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct br_vlan v = {};
	__u32 out = 0, trim = 0;
	__u16 proto = 0;
	int err;

	/* the outer tag: the stack took it out of the frame
	 * (skb_vlan_untag) before tc; a second one is payload
	 */
	if (skb->vlan_present) {
		v.proto = skb->vlan_proto;
		v.tci = skb->vlan_tci;
	}
	if (br_rule(data, data_end, skb->ifindex, skb->len, skb->gso_size,
		    false, &v, &proto, &out, &trim))
		return TC_ACT_OK;
	if (trim && bpf_skb_change_tail(skb, trim, 0))
		return TC_ACT_OK;
	err = br_vlan_skb(skb, &v, proto);
	if (err)
		return err == BR_VLAN_BROKEN ? TC_ACT_SHOT : TC_ACT_OK;
	return bpf_redirect(out, 0);
}

SEC("xdp")
int br_xdp(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct br_vlan v = {};
	__u32 out = 0, trim = 0;
	__u16 proto = 0;
	int err;

	if (br_rule(data, data_end, ctx->ingress_ifindex, data_end - data,
		    false, true, &v, &proto, &out, &trim))
		return XDP_PASS;
	if (trim && bpf_xdp_adjust_tail(ctx, (int)trim - (int)(data_end - data)))
		return XDP_PASS;
	err = br_vlan_xdp(ctx, &v, proto);
	if (err)
		return err == BR_VLAN_BROKEN ? XDP_DROP : XDP_PASS;
	return bpf_redirect(out, 0);
}

char LICENSE[] SEC("license") = "GPL";
