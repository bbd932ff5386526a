// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Device facts over rtnetlink and genetlink (libmnl): one request, one
 * answer, no state kept.  Used by bpfwd gen to check a device before it
 * sends and to count what the device really took, and by bpfwd bench.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/ethtool.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/net_namespace.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <libmnl/libmnl.h>

#include "netdev.h"

/* linux/netdev.h (kernel >= 6.3) */
#define NETDEV_FAMILY_NAME		"netdev"
#define NETDEV_CMD_DEV_GET		1
#define NETDEV_A_DEV_IFINDEX		1
#define NETDEV_A_DEV_XDP_FEATURES	3

#define BUF_SZ 32768

typedef int (*msg_cb)(const struct nlmsghdr *nlh, void *data);

/* Sends one request on a new socket of @proto and feeds every answer to
 * @cb until the ack or the end of the dump.
 */
static int talk(int proto, struct nlmsghdr *nlh, msg_cb cb, void *data)
{
	/* not static: a callback may talk too (the daemon attaches a port
	 * from within the dump of the ports), and a shared buffer lost the
	 * rest of the dump
	 */
	char rbuf[BUF_SZ];
	struct mnl_socket *nl;
	uint32_t portid, seq = time(NULL);
	int err = 0, ret;
	ssize_t n;

	nl = mnl_socket_open(proto);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(nl);
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		err = -errno;
		goto out;
	}
	for (;;) {
		n = mnl_socket_recvfrom(nl, rbuf, sizeof(rbuf));
		if (n < 0) {
			err = -errno;
			break;
		}
		ret = mnl_cb_run(rbuf, n, seq, portid, cb, data);
		if (ret < 0) {
			err = errno ? -errno : -EPROTO;
			break;
		}
		if (ret == MNL_CB_STOP)
			break;
	}
out:
	mnl_socket_close(nl);
	return err;
}

int netdev_talk(int proto, struct nlmsghdr *nlh, netdev_msg_cb cb,
		void *data)
{
	return talk(proto, nlh, cb, data);
}

struct link_arg {
	struct link_info *li;
};

static int link_xdp_attr(const struct nlattr *a, void *data)
{
	struct link_info *li = data;

	if (mnl_attr_get_type(a) == IFLA_XDP_PROG_ID &&
	    mnl_attr_get_payload_len(a) >= 4)
		li->xdp_prog_id = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

static int link_info_attr(const struct nlattr *a, void *data)
{
	struct link_info *li = data;

	if (mnl_attr_get_type(a) == IFLA_INFO_KIND)
		snprintf(li->kind, sizeof(li->kind), "%s",
			 (const char *)mnl_attr_get_payload(a));
	if (mnl_attr_get_type(a) == IFLA_INFO_SLAVE_KIND)
		snprintf(li->slave_kind, sizeof(li->slave_kind), "%s",
			 (const char *)mnl_attr_get_payload(a));
	return MNL_CB_OK;
}

static int link_attr(const struct nlattr *a, void *data)
{
	struct link_info *li = data;
	struct rtnl_link_stats64 s;

	switch (mnl_attr_get_type(a)) {
	case IFLA_ADDRESS:
		if (mnl_attr_get_payload_len(a) >= 6)
			memcpy(li->mac, mnl_attr_get_payload(a), 6);
		break;
	case IFLA_MTU:
		li->mtu = mnl_attr_get_u32(a);
		break;
	case IFLA_LINK:
		li->link = mnl_attr_get_u32(a);
		break;
	case IFLA_MASTER:
		li->master = mnl_attr_get_u32(a);
		break;
	case IFLA_CARRIER:
		li->carrier = mnl_attr_get_u8(a);
		break;
	case IFLA_LINK_NETNSID:
		li->link_other_ns = true;
		li->link_netnsid = (int32_t)mnl_attr_get_u32(a);
		break;
	case IFLA_LINKINFO:
		mnl_attr_parse_nested(a, link_info_attr, li);
		break;
	case IFLA_XDP:
		mnl_attr_parse_nested(a, link_xdp_attr, li);
		break;
	case IFLA_STATS64:
		if (mnl_attr_get_payload_len(a) < sizeof(s))
			break;
		/* netlink aligns payloads to 4 bytes, the struct wants 8 */
		memcpy(&s, mnl_attr_get_payload(a), sizeof(s));
		li->rx_packets = s.rx_packets;
		li->tx_packets = s.tx_packets;
		li->rx_dropped = s.rx_dropped;
		li->tx_dropped = s.tx_dropped;
		break;
	}
	return MNL_CB_OK;
}

static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	struct link_info *li = data;
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);

	li->up = ifi->ifi_flags & IFF_UP;
	li->carrier = ifi->ifi_flags & IFF_RUNNING;	/* if no IFLA_CARRIER */
	return mnl_attr_parse(nlh, sizeof(*ifi), link_attr, li);
}

int netdev_link(uint32_t ifindex, struct link_info *li)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;

	memset(li, 0, sizeof(*li));
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	return talk(NETLINK_ROUTE, nlh, link_cb, li);
}

static int family_attr(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
		*(uint16_t *)data = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_attr,
			      data);
}

static struct nlmsghdr *genl_msg(char *buf, uint16_t type, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = 1;
	return nlh;
}

static int feat_attr(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == NETDEV_A_DEV_XDP_FEATURES &&
	    mnl_attr_get_payload_len(a) >= 8)
		*(uint64_t *)data = mnl_attr_get_u64(a);
	return MNL_CB_OK;
}

static int feat_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), feat_attr, data);
}

int netdev_xdp_features(uint32_t ifindex, uint64_t *features)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	uint16_t id = 0;
	int err;

	nlh = genl_msg(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, NETDEV_FAMILY_NAME);
	err = talk(NETLINK_GENERIC, nlh, family_cb, &id);
	if (err == -ENOENT || (!err && !id))
		return -EOPNOTSUPP;
	if (err)
		return err;
	nlh = genl_msg(buf, id, NETDEV_CMD_DEV_GET);
	mnl_attr_put_u32(nlh, NETDEV_A_DEV_IFINDEX, ifindex);
	*features = 0;
	return talk(NETLINK_GENERIC, nlh, feat_cb, features);
}

struct neigh_arg {
	uint32_t ifindex;
	int family;
	const void *addr;
	uint8_t *mac;
	bool found;
};

struct neigh_attrs {
	const struct nlattr *dst, *lladdr;
};

static int neigh_attr(const struct nlattr *a, void *data)
{
	struct neigh_attrs *na = data;

	if (mnl_attr_get_type(a) == NDA_DST)
		na->dst = a;
	else if (mnl_attr_get_type(a) == NDA_LLADDR)
		na->lladdr = a;
	return MNL_CB_OK;
}

static int neigh_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ndmsg *nd = mnl_nlmsg_get_payload(nlh);
	struct neigh_arg *n = data;
	struct neigh_attrs na = { 0 };
	size_t alen = n->family == AF_INET ? 4 : 16;

	if (nd->ndm_ifindex != (int)n->ifindex || nd->ndm_family != n->family ||
	    (nd->ndm_state & (NUD_FAILED | NUD_INCOMPLETE)))
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(*nd), neigh_attr, &na);
	if (!na.dst || !na.lladdr || mnl_attr_get_payload_len(na.dst) != alen ||
	    mnl_attr_get_payload_len(na.lladdr) != 6 ||
	    memcmp(mnl_attr_get_payload(na.dst), n->addr, alen))
		return MNL_CB_OK;
	memcpy(n->mac, mnl_attr_get_payload(na.lladdr), 6);
	n->found = true;
	return MNL_CB_OK;
}

int netdev_neigh_mac(uint32_t ifindex, int family, const void *addr,
		     uint8_t mac[6])
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct neigh_arg n = { ifindex, family, addr, mac, false };
	struct ndmsg *nd;
	int err;

	nlh->nlmsg_type = RTM_GETNEIGH;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nd = mnl_nlmsg_put_extra_header(nlh, sizeof(*nd));
	nd->ndm_family = family;
	err = talk(NETLINK_ROUTE, nlh, neigh_cb, &n);
	if (err)
		return err;
	return n.found ? 0 : -ENOENT;
}

struct addr_arg {
	uint32_t ifindex;
	int family;
	void *addr;
	bool found;
};

static int addr_attr(const struct nlattr *a, void *data)
{
	const struct nlattr **local = data;

	if (mnl_attr_get_type(a) == IFA_ADDRESS && !*local)
		*local = a;
	return MNL_CB_OK;
}

static int addr_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ifaddrmsg *ifa = mnl_nlmsg_get_payload(nlh);
	struct addr_arg *a = data;
	const struct nlattr *at = NULL;
	size_t alen = a->family == AF_INET ? 4 : 16;

	if (a->found || ifa->ifa_index != a->ifindex ||
	    ifa->ifa_family != a->family)
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(*ifa), addr_attr, &at);
	if (!at || mnl_attr_get_payload_len(at) != alen)
		return MNL_CB_OK;
	memcpy(a->addr, mnl_attr_get_payload(at), alen);
	a->found = true;
	return MNL_CB_OK;
}

int netdev_addr(uint32_t ifindex, int family, void *addr)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct addr_arg a = { ifindex, family, addr, false };
	struct ifaddrmsg *ifa;
	int err;

	nlh->nlmsg_type = RTM_GETADDR;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = family;
	err = talk(NETLINK_ROUTE, nlh, addr_cb, &a);
	if (err)
		return err;
	return a.found ? 0 : -ENOENT;
}

/* A veth's peer: in its namespace, found by the id this one gives it */

static int nsid_attr(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == NETNSA_NSID &&
	    mnl_attr_get_payload_len(a) >= 4)
		*(int32_t *)data = (int32_t)mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

static int nsid_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct rtgenmsg), nsid_attr, data);
}

/* The id the current namespace gives the namespace of @fd, or -1. */
static int32_t nsid_of(int fd)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rtgenmsg *g;
	int32_t id = -1;

	nlh->nlmsg_type = RTM_GETNSID;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->rtgen_family = AF_UNSPEC;
	mnl_attr_put_u32(nlh, NETNSA_FD, fd);
	return talk(NETLINK_ROUTE, nlh, nsid_cb, &id) ? -1 : id;
}

/* Namespaces already asked about (by inode): most processes share a
 * few, and each question is a netlink request.
 */
struct ns_seen {
	ino_t ino[64];
	unsigned int n;
};

/* Opens @path if it is the namespace @nsid; else -1. */
static int ns_match(const char *path, int32_t nsid, struct ns_seen *seen)
{
	struct stat st;
	unsigned int i;
	int fd;

	if (stat(path, &st))
		return -1;
	for (i = 0; i < seen->n; i++)
		if (seen->ino[i] == st.st_ino)
			return -1;
	if (seen->n < sizeof(seen->ino) / sizeof(seen->ino[0]))
		seen->ino[seen->n++] = st.st_ino;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (nsid_of(fd) == nsid)
		return fd;
	close(fd);
	return -1;
}

/* An fd of the namespace with id @nsid: named ones (/run/netns), then
 * those of processes (/proc/PID/ns/net).  -ENOENT when none is.
 */
static int ns_by_id(int32_t nsid)
{
	const char *const dirs[] = { "/run/netns", "/proc" };
	struct ns_seen seen = { .n = 0 };
	char path[PATH_MAX];
	struct dirent *d;
	int fd = -1;
	size_t i;
	DIR *dir;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && fd < 0; i++) {
		dir = opendir(dirs[i]);
		while (dir && fd < 0 && (d = readdir(dir))) {
			if (d->d_name[0] == '.' ||
			    (i == 1 && (d->d_name[0] < '0' || d->d_name[0] > '9')))
				continue;
			snprintf(path, sizeof(path), "%s/%s%s", dirs[i],
				 d->d_name, i == 1 ? "/ns/net" : "");
			fd = ns_match(path, nsid, &seen);
		}
		if (dir)
			closedir(dir);
	}
	return fd < 0 ? -ENOENT : fd;
}

/* An AF_INET socket in the namespace of @l's peer (here when it is in
 * this one).
 */
static int peer_socket(const struct link_info *l)
{
	int ns, self, sk = -1, err = 0;

	if (!l->link_other_ns) {
		sk = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		return sk < 0 ? -errno : sk;
	}
	ns = ns_by_id(l->link_netnsid);
	if (ns < 0)
		return ns;
	self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0 || setns(ns, CLONE_NEWNET)) {
		err = -errno;
		goto out;
	}
	sk = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sk < 0)
		err = -errno;
	if (setns(self, CLONE_NEWNET) && !err) {
		err = -errno;
		close(sk);
	}
out:
	if (self >= 0)
		close(self);
	close(ns);
	return err ? err : sk;
}

/* SIOCETHTOOL @cmd with @val on @l's peer; its name in @peer. */
static int peer_ethtool(const struct link_info *l, uint32_t cmd,
			uint32_t *val, char *peer)
{
	struct ethtool_value ev = { .cmd = cmd, .data = *val };
	struct ifreq ifr = { .ifr_ifindex = l->link };
	int sk = peer_socket(l), err = 0;

	if (sk < 0)
		return sk;
	if (ioctl(sk, SIOCGIFNAME, &ifr)) {
		err = -errno;
		goto out;
	}
	if (peer)
		snprintf(peer, IF_NAMESIZE, "%s", ifr.ifr_name);
	ifr.ifr_data = (void *)&ev;
	if (ioctl(sk, SIOCETHTOOL, &ifr))
		err = -errno;
	*val = ev.data;
out:
	close(sk);
	return err;
}

int netdev_peer_tx_csum(const struct link_info *l, char *peer, bool *on)
{
	uint32_t v = 0;
	int err;

	if (!l->link)
		return -ENOENT;
	err = peer_ethtool(l, ETHTOOL_GTXCSUM, &v, peer);
	*on = v;
	return err;
}

int netdev_peer_tx_csum_set(const struct link_info *l, bool on)
{
	uint32_t v = on;

	return l->link ? peer_ethtool(l, ETHTOOL_STXCSUM, &v, NULL) : -ENOENT;
}

/* The bit of each of @n ethtool feature @names (ETH_SS_FEATURES) on the
 * device of @ifr, in @bit (-1: the kernel has no such feature).
 */
static int feature_bits(int sk, struct ifreq *ifr, const char *const *names,
			int n, int *bit)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} info = { .hdr = { .cmd = ETHTOOL_GSSET_INFO,
			    .sset_mask = 1ULL << ETH_SS_FEATURES } };
	struct ethtool_gstrings *gs;
	uint32_t i, count;
	int j, err = 0;

	ifr->ifr_data = (void *)&info;
	if (ioctl(sk, SIOCETHTOOL, ifr))
		return -errno;
	count = info.hdr.sset_mask ? info.len : 0;
	if (!count || count > 4096)
		return -EOPNOTSUPP;
	gs = calloc(1, sizeof(*gs) + count * ETH_GSTRING_LEN);
	if (!gs)
		return -ENOMEM;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_FEATURES;
	gs->len = count;
	ifr->ifr_data = (void *)gs;
	if (ioctl(sk, SIOCETHTOOL, ifr))
		err = -errno;
	for (j = 0; j < n; j++) {
		bit[j] = -1;
		for (i = 0; !err && i < count; i++)
			if (!strncmp((char *)gs->data + i * ETH_GSTRING_LEN,
				     names[j], ETH_GSTRING_LEN))
				bit[j] = i;
	}
	free(gs);
	return err;
}

static const char *const tx_vlan_names[] = {
	"tx-vlan-hw-insert", "tx-vlan-stag-hw-insert",
};
#define TX_VLAN_N	2
#define FEAT_BLOCKS	8	/* 256 features: the kernel has about 70 */

/* tx VLAN insertion (802.1Q and 802.1ad) of @l's peer: whether it is
 * active in @on (either of them); with @set, requested as @want first.
 */
static int peer_tx_vlan(const struct link_info *l, char *peer, bool *on,
			bool set, bool want)
{
	struct {
		struct ethtool_gfeatures hdr;
		struct ethtool_get_features_block b[FEAT_BLOCKS];
	} gf = { .hdr = { .cmd = ETHTOOL_GFEATURES, .size = FEAT_BLOCKS } };
	struct {
		struct ethtool_sfeatures hdr;
		struct ethtool_set_features_block b[FEAT_BLOCKS];
	} sf = { .hdr = { .cmd = ETHTOOL_SFEATURES, .size = FEAT_BLOCKS } };
	struct ifreq ifr = { .ifr_ifindex = l->link };
	int sk, err, i, bit[TX_VLAN_N];

	*on = false;
	if (!l->link)
		return -ENOENT;
	sk = peer_socket(l);
	if (sk < 0)
		return sk;
	err = ioctl(sk, SIOCGIFNAME, &ifr) ? -errno : 0;
	if (!err && peer)
		snprintf(peer, IF_NAMESIZE, "%s", ifr.ifr_name);
	if (!err)
		err = feature_bits(sk, &ifr, tx_vlan_names, TX_VLAN_N, bit);
	/* SFEATURES takes exactly the kernel's number of words, which
	 * GFEATURES answers in its size
	 */
	ifr.ifr_data = (void *)&gf;
	if (!err && set && ioctl(sk, SIOCETHTOOL, &ifr))
		err = -errno;
	if (!err && set && (!gf.hdr.size || gf.hdr.size > FEAT_BLOCKS))
		err = -EOPNOTSUPP;
	sf.hdr.size = gf.hdr.size;
	gf.hdr.size = FEAT_BLOCKS;
	for (i = 0; !err && set && i < TX_VLAN_N; i++) {
		if (bit[i] < 0 || bit[i] >= (int)sf.hdr.size * 32)
			continue;
		sf.b[bit[i] / 32].valid |= 1U << (bit[i] % 32);
		if (want)
			sf.b[bit[i] / 32].requested |= 1U << (bit[i] % 32);
	}
	ifr.ifr_data = (void *)&sf;
	/* > 0: some were not changed as asked (not changeable): read back */
	if (!err && set && ioctl(sk, SIOCETHTOOL, &ifr) < 0)
		err = -errno;
	ifr.ifr_data = (void *)&gf;
	if (!err && ioctl(sk, SIOCETHTOOL, &ifr))
		err = -errno;
	for (i = 0; !err && i < TX_VLAN_N; i++)
		if (bit[i] >= 0 && bit[i] < FEAT_BLOCKS * 32 &&
		    (gf.b[bit[i] / 32].active & (1U << (bit[i] % 32))))
			*on = true;
	close(sk);
	return err;
}

int netdev_peer_tx_vlan(const struct link_info *l, char *peer, bool *on)
{
	return peer_tx_vlan(l, peer, on, false, false);
}

int netdev_peer_tx_vlan_set(const struct link_info *l, bool on)
{
	bool now;
	int err = peer_tx_vlan(l, NULL, &now, true, on);

	return err ? err : now == on ? 0 : -EOPNOTSUPP;
}

int netdev_vlan_blind_why(uint32_t ifindex, char *why, size_t wlen,
			  char *fix, size_t len, bool *blind)
{
	char peer[IF_NAMESIZE] = "PEER", dev[IF_NAMESIZE] = "DEV";
	struct link_info li;
	int err;

	*blind = false;
	snprintf(fix, len, "ethtool -K PEER txvlan off");
	if (why)
		snprintf(why, wlen, "?");
	err = netdev_link(ifindex, &li);
	if (err)
		return err;
	if (strcmp(li.kind, "veth")) {
		if_indextoname(ifindex, dev);
		snprintf(fix, len, "ethtool -K %s rxvlan off", dev);
		if (why)
			snprintf(why, wlen, "its rx VLAN offload takes them out of the frame");
		return netdev_rx_vlan_hw(ifindex, blind);
	}
	err = netdev_peer_tx_vlan(&li, peer, blind);
	snprintf(fix, len, "ethtool -K %s txvlan off tx-vlan-stag-hw-insert off%s",
		 peer, li.link_other_ns ? " in its namespace" : "");
	if (why)
		snprintf(why, wlen, "its veth peer %s inserts them on transmit",
			 peer);
	return err;
}

int netdev_vlan_blind(uint32_t ifindex, char *fix, size_t len, bool *blind)
{
	return netdev_vlan_blind_why(ifindex, NULL, 0, fix, len, blind);
}

int netdev_rx_vlan_hw(uint32_t ifindex, bool *on)
{
	struct ethtool_value ev = { .cmd = ETHTOOL_GFLAGS };
	struct ifreq ifr = { .ifr_ifindex = ifindex };
	struct link_info li;
	int sk, err = 0;

	*on = false;
	err = netdev_link(ifindex, &li);
	if (err)
		return err;
	/* a veth holds a tag outside the frame only when its peer sent it
	 * so (an 8021q device there): see bpfwd-bridge.8
	 */
	if (!strcmp(li.kind, "veth"))
		return 0;
	sk = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sk < 0)
		return -errno;
	if (ioctl(sk, SIOCGIFNAME, &ifr))
		err = -errno;
	ifr.ifr_data = (void *)&ev;
	if (!err && ioctl(sk, SIOCETHTOOL, &ifr))
		err = -errno;
	close(sk);
	*on = !err && (ev.data & ETH_FLAG_RXVLAN);
	return err;
}
