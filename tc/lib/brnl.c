// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * rtnetlink for the bridge fast path (see brnl.h).  The kernel's own
 * words are in net/bridge/br_netlink.c (br_fill_ifinfo, port attributes
 * in IFLA_PROTINFO) and br_fdb.c (fdb_fill_info: NUD_PERMANENT for local
 * entries, NUD_NOARP for static ones, NDA_MASTER the bridge).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libmnl/libmnl.h>

#include "../../bpf/bpfwd.h"
#include "brnl.h"
#include "netdev.h"
#include "util.h"

#ifndef IFLA_BRPORT_MAB
#define IFLA_BRPORT_MAB (IFLA_BRPORT_LOCKED + 1)
#endif
#ifndef IFLA_BRPORT_NEIGH_VLAN_SUPPRESS
#define IFLA_BRPORT_NEIGH_VLAN_SUPPRESS (IFLA_BRPORT_MAB + 3)
#endif
#ifndef NTF_EXT_LOCKED
#define NTF_EXT_LOCKED (1 << 1)
#endif

#define OPER_UP 6	/* IF_OPER_UP of linux/if.h, which clashes with net/if.h */

static uint8_t u8_of(const struct nlattr *a)
{
	return mnl_attr_get_payload_len(a) >= 1 ? mnl_attr_get_u8(a) : 0;
}

static void protinfo(const struct nlattr *nest, struct brnl_port *p)
{
	static const struct {
		uint16_t type;
		uint32_t flag;
	} map[] = {
		{ IFLA_BRPORT_LEARNING, BPFWD_BRP_LEARNING },
		{ IFLA_BRPORT_UNICAST_FLOOD, BPFWD_BRP_UNICAST_FLOOD },
		{ IFLA_BRPORT_ISOLATED, BPFWD_BRP_ISOLATED },
		{ IFLA_BRPORT_MODE, BPFWD_BRP_HAIRPIN },
		{ IFLA_BRPORT_LOCKED, BPFWD_BRP_LOCKED },
		{ IFLA_BRPORT_MAB, BPFWD_BRP_MAB },
		{ IFLA_BRPORT_NEIGH_SUPPRESS, BPFWD_BRP_NEIGH_SUPPRESS },
		{ IFLA_BRPORT_NEIGH_VLAN_SUPPRESS, BPFWD_BRP_NEIGH_SUPPRESS },
		{ IFLA_BRPORT_VLAN_TUNNEL, BPFWD_BRP_VLAN_TUNNEL },
		{ IFLA_BRPORT_PROXYARP, BPFWD_BRP_PROXYARP },
		{ IFLA_BRPORT_PROXYARP_WIFI, BPFWD_BRP_PROXYARP },
	};
	const struct nlattr *a;
	size_t i;

	mnl_attr_for_each_nested(a, nest) {
		uint16_t t = mnl_attr_get_type(a);

		if (t == IFLA_BRPORT_STATE)
			p->state = u8_of(a);
		if (t == IFLA_BRPORT_BACKUP_PORT)
			p->flags |= BPFWD_BRP_BACKUP;
		for (i = 0; i < ARRAY_SIZE(map); i++)
			if (t == map[i].type && u8_of(a))
				p->flags |= map[i].flag;
	}
}

int brnl_parse_port(const struct nlmsghdr *nlh, struct brnl_port *p)
{
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;
	bool info = false;

	if ((nlh->nlmsg_type != RTM_NEWLINK && nlh->nlmsg_type != RTM_DELLINK) ||
	    ifi->ifi_family != AF_BRIDGE)
		return -ENOENT;
	memset(p, 0, sizeof(*p));
	p->ifindex = ifi->ifi_index;
	p->del = nlh->nlmsg_type == RTM_DELLINK;
	mnl_attr_for_each(a, nlh, sizeof(*ifi)) {
		switch (mnl_attr_get_type(a)) {
		case IFLA_MASTER:
			p->master = mnl_attr_get_u32(a);
			break;
		case IFLA_MTU:
			p->mtu = mnl_attr_get_u32(a);
			break;
		case IFLA_OPERSTATE:
			p->oper_up = u8_of(a) == OPER_UP;
			break;
		case IFLA_PROTINFO:
			if (a->nla_type & NLA_F_NESTED) {
				protinfo(a, p);
				info = true;
			}
			break;
		}
	}
	/* the bridge itself answers an AF_BRIDGE dump too, without
	 * port attributes (or with itself as master)
	 */
	if (!p->master || p->master == p->ifindex || (!info && !p->del))
		return -ENOENT;
	return 0;
}

int brnl_parse_fdb(const struct nlmsghdr *nlh, struct brnl_fdb *f)
{
	const struct ndmsg *ndm = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;
	bool mac = false;

	if ((nlh->nlmsg_type != RTM_NEWNEIGH && nlh->nlmsg_type != RTM_DELNEIGH) ||
	    ndm->ndm_family != AF_BRIDGE || (ndm->ndm_flags & NTF_SELF))
		return -ENOENT;
	memset(f, 0, sizeof(*f));
	f->port = ndm->ndm_ifindex;
	f->del = nlh->nlmsg_type == RTM_DELNEIGH;
	if (ndm->ndm_state & NUD_PERMANENT)
		f->flags |= BPFWD_FDB_LOCAL;
	if (ndm->ndm_state & NUD_NOARP)
		f->flags |= BPFWD_FDB_STATIC;
	if (ndm->ndm_flags & NTF_EXT_LEARNED)
		f->flags |= BPFWD_FDB_EXT_LEARN;
	if (ndm->ndm_flags & NTF_STICKY)
		f->flags |= BPFWD_FDB_STICKY;
	mnl_attr_for_each(a, nlh, sizeof(*ndm)) {
		switch (mnl_attr_get_type(a)) {
		case NDA_LLADDR:
			if (mnl_attr_get_payload_len(a) == 6) {
				memcpy(f->mac, mnl_attr_get_payload(a), 6);
				mac = true;
			}
			break;
		case NDA_MASTER:
			f->bridge = mnl_attr_get_u32(a);
			break;
		case NDA_VLAN:
			f->vlan = mnl_attr_get_u16(a);
			break;
		case NDA_FLAGS_EXT:
			if (mnl_attr_get_u32(a) & NTF_EXT_LOCKED)
				f->flags |= BPFWD_FDB_LOCKED;
			break;
		}
	}
	if (!mac || !f->bridge)
		return -ENOENT;
	return 0;
}

/* The caller's callback of a dump, and its data. */
struct dump_arg {
	brnl_port_cb port;
	brnl_fdb_cb fdb;
	brnl_vlan_cb vlan;
	void *data;
};

/* One BRIDGE_VLANDB_ENTRY (br_vlan_fill_vids() in br_vlan.c). */
static int vlan_entry(const struct nlattr *nest, struct brnl_vlan *v)
{
	const struct bridge_vlan_info *info = NULL;
	const struct nlattr *a;

	v->state = BR_STATE_FORWARDING;
	v->tunnel = false;
	v->vid_end = 0;
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case BRIDGE_VLANDB_ENTRY_INFO:
			if (mnl_attr_get_payload_len(a) >= sizeof(*info))
				info = mnl_attr_get_payload(a);
			break;
		case BRIDGE_VLANDB_ENTRY_RANGE:
			v->vid_end = mnl_attr_get_u16(a);
			break;
		case BRIDGE_VLANDB_ENTRY_STATE:
			v->state = u8_of(a);
			break;
		case BRIDGE_VLANDB_ENTRY_TUNNEL_INFO:
			v->tunnel = true;
			break;
		}
	}
	if (!info || !info->vid || info->vid >= 4095)
		return -ENOENT;
	v->vid = info->vid;
	v->flags = info->flags;
	if (v->vid_end < v->vid || v->vid_end >= 4095)
		v->vid_end = v->vid;
	return 0;
}

static int vlan_msg(const struct nlmsghdr *nlh, struct dump_arg *da)
{
	const struct br_vlan_msg *bvm = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;
	struct brnl_vlan v = { .port = bvm->ifindex };
	int err;

	mnl_attr_for_each(a, nlh, sizeof(*bvm)) {
		if (mnl_attr_get_type(a) != BRIDGE_VLANDB_ENTRY ||
		    vlan_entry(a, &v))
			continue;
		err = da->vlan(&v, da->data);
		if (err)
			return err;
	}
	return 0;
}

static int dump_msg(const struct nlmsghdr *nlh, void *data)
{
	struct dump_arg *da = data;
	struct brnl_port p;
	struct brnl_fdb f;
	int err = 0;

	if (da->vlan && nlh->nlmsg_type == RTM_NEWVLAN)
		err = vlan_msg(nlh, da);
	else if (da->port && !brnl_parse_port(nlh, &p))
		err = da->port(&p, da->data);
	else if (da->fdb && !brnl_parse_fdb(nlh, &f))
		err = da->fdb(&f, da->data);
	return err ? MNL_CB_ERROR : MNL_CB_OK;
}

/* An AF_BRIDGE dump of @type; ifinfomsg and ndmsg both start with the
 * family, and are all the request has.
 */
static int dump(uint16_t type, size_t hdr, struct dump_arg *da)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	uint8_t *family;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	family = mnl_nlmsg_put_extra_header(nlh, hdr);
	*family = AF_BRIDGE;
	return netdev_talk(NETLINK_ROUTE, nlh, dump_msg, da);
}

int brnl_dump_ports(brnl_port_cb cb, void *data)
{
	struct dump_arg da = { .port = cb, .data = data };

	return dump(RTM_GETLINK, sizeof(struct ifinfomsg), &da);
}

int brnl_dump_vlans(brnl_vlan_cb cb, void *data)
{
	struct dump_arg da = { .vlan = cb, .data = data };

	return dump(RTM_GETVLAN, sizeof(struct br_vlan_msg), &da);
}

int brnl_dump_fdb(brnl_fdb_cb cb, void *data)
{
	struct dump_arg da = { .fdb = cb, .data = data };

	return dump(RTM_GETNEIGH, sizeof(struct ndmsg), &da);
}

static void br_info(const struct nlattr *linkinfo, struct brnl_bridge *b)
{
	const struct nlattr *a, *d;

	mnl_attr_for_each_nested(a, linkinfo) {
		if (mnl_attr_get_type(a) == IFLA_INFO_KIND)
			b->is_bridge = !strcmp(mnl_attr_get_str(a), "bridge");
		if (mnl_attr_get_type(a) != IFLA_INFO_DATA)
			continue;
		mnl_attr_for_each_nested(d, a) {
			if (mnl_attr_get_type(d) == IFLA_BR_VLAN_FILTERING)
				b->vlan_filtering = u8_of(d);
			if (mnl_attr_get_type(d) == IFLA_BR_VLAN_PROTOCOL)
				b->vlan_proto = ntohs(mnl_attr_get_u16(d));
			if (mnl_attr_get_type(d) == IFLA_BR_AGEING_TIME)
				b->ageing = mnl_attr_get_u32(d);
			if (mnl_attr_get_type(d) == IFLA_BR_NF_CALL_IPTABLES)
				b->nf_ip4 = u8_of(d);
			if (mnl_attr_get_type(d) == IFLA_BR_NF_CALL_IP6TABLES)
				b->nf_ip6 = u8_of(d);
		}
	}
}

static int bridge_msg(const struct nlmsghdr *nlh, void *data)
{
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	struct brnl_bridge *b = data;
	const struct nlattr *a;

	b->ifindex = ifi->ifi_index;
	mnl_attr_for_each(a, nlh, sizeof(*ifi)) {
		switch (mnl_attr_get_type(a)) {
		case IFLA_ADDRESS:
			if (mnl_attr_get_payload_len(a) == 6)
				memcpy(b->mac, mnl_attr_get_payload(a), 6);
			break;
		case IFLA_IFNAME:
			snprintf(b->name, sizeof(b->name), "%s",
				 mnl_attr_get_str(a));
			break;
		case IFLA_LINKINFO:
			br_info(a, b);
			break;
		}
	}
	return MNL_CB_OK;
}

int brnl_get_bridge(uint32_t ifindex, struct brnl_bridge *b)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;

	memset(b, 0, sizeof(*b));
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	return netdev_talk(NETLINK_ROUTE, nlh, bridge_msg, b);
}

static struct nlmsghdr *fdb_msg_put(char *buf, uint16_t type,
				    uint16_t flags, uint8_t ntf,
				    uint32_t port, const uint8_t mac[6],
				    uint32_t vlan)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ndmsg *ndm;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	ndm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ndm));
	ndm->ndm_family = AF_BRIDGE;
	ndm->ndm_ifindex = port;
	ndm->ndm_state = NUD_REACHABLE;
	ndm->ndm_flags = ntf;
	mnl_attr_put(nlh, NDA_LLADDR, 6, mac);
	if (vlan)
		mnl_attr_put_u16(nlh, NDA_VLAN, vlan);
	return nlh;
}

static int fdb_req(uint16_t type, uint16_t flags, uint8_t ntf,
		   uint32_t port, const uint8_t mac[6], uint32_t vlan)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];

	return netdev_talk(NETLINK_ROUTE,
		    fdb_msg_put(buf, type, flags, ntf, port, mac, vlan),
		    NULL, NULL);
}

int brnl_batch_open(struct brnl_batch *b)
{
	memset(b, 0, sizeof(*b));
	b->nl = mnl_socket_open(NETLINK_ROUTE);
	if (!b->nl)
		return -errno;
	if (mnl_socket_bind(b->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		int err = -errno;

		mnl_socket_close(b->nl);
		b->nl = NULL;
		return err;
	}
	return 0;
}

void brnl_batch_close(struct brnl_batch *b)
{
	if (b->nl)
		mnl_socket_close(b->nl);
	b->nl = NULL;
}

static void batch_drain(struct brnl_batch *b)
{
	char rbuf[8192];
	ssize_t n;

	while ((n = recv(mnl_socket_get_fd(b->nl), rbuf, sizeof(rbuf),
			 MSG_DONTWAIT)) > 0) {
		struct nlmsghdr *m = (struct nlmsghdr *)rbuf;
		int len = n;

		for (; mnl_nlmsg_ok(m, len); m = mnl_nlmsg_next(m, &len))
			if (m->nlmsg_type == NLMSG_ERROR &&
			    ((struct nlmsgerr *)mnl_nlmsg_get_payload(m))->error)
				b->failed++;
	}
}

void brnl_batch_flush(struct brnl_batch *b)
{
	if (b->nl && b->len &&
	    mnl_socket_sendto(b->nl, b->buf, b->len) < 0)
		b->failed++;
	b->len = 0;
	if (b->nl)
		batch_drain(b);
}

void brnl_batch_use(struct brnl_batch *b, uint32_t port,
		    const uint8_t mac[6], uint32_t vlan)
{
	char one[256];
	struct nlmsghdr *nlh;

	if (!b->nl)
		return;
	nlh = fdb_msg_put(one, RTM_NEWNEIGH, NLM_F_CREATE | NLM_F_REPLACE,
			  NTF_USE | NTF_MASTER, port, mac, vlan);
	nlh->nlmsg_seq = ++b->seq;
	if (b->len + nlh->nlmsg_len > sizeof(b->buf))
		brnl_batch_flush(b);
	memcpy(b->buf + b->len, nlh, nlh->nlmsg_len);
	b->len += NLMSG_ALIGN(nlh->nlmsg_len);
	b->sent++;
}

int brnl_fdb_use(uint32_t port, const uint8_t mac[6], uint32_t vlan)
{
	return fdb_req(RTM_NEWNEIGH, NLM_F_CREATE | NLM_F_REPLACE,
		       NTF_USE | NTF_MASTER, port, mac, vlan);
}

int brnl_fdb_del(uint32_t port, const uint8_t mac[6], uint32_t vlan)
{
	return fdb_req(RTM_DELNEIGH, 0, NTF_MASTER, port, mac, vlan);
}

struct mnl_socket *brnl_events_open(void)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_ROUTE);
	int bufsz = 4 << 20, grp = RTNLGRP_BRVLAN;

	if (!nl)
		return NULL;

	if (mnl_socket_bind(nl, (1 << (RTNLGRP_LINK - 1)) |
				(1 << (RTNLGRP_NEIGH - 1)),
			    MNL_SOCKET_AUTOPID) < 0) {
		mnl_socket_close(nl);
		return NULL;
	}
	/* groups above 32 only by setsockopt; a kernel without it still
	 * sends RTM_NEWLINK for membership changes
	 */
	mnl_socket_setsockopt(nl, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp));
	/* a burst of learning must not overflow it; if it does, a resync */
	setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUFFORCE, &bufsz,
		   sizeof(bufsz));
	return nl;
}
