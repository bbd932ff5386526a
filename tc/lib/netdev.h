/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * What the generator and the benchmark need to know about a device, read
 * over netlink in the current namespace (sysfs may show another one):
 * its address, its veth peer, its 64-bit counters, the XDP features the
 * kernel advertises for it (genetlink "netdev", kernel >= 6.3), a
 * neighbour's MAC address, and the tx checksum offload of a veth's peer
 * (SIOCETHTOOL in the peer's namespace).
 */
#ifndef __BPFWD_NETDEV_H
#define __BPFWD_NETDEV_H

#include <stdbool.h>
#include <stdint.h>
#include <netinet/in.h>

/* netdev_xdp_act of the kernel's uapi linux/netdev.h (not in 6.1's) */
#define BPFWD_XDP_ACT_BASIC	(1ULL << 0)
#define BPFWD_XDP_ACT_REDIRECT	(1ULL << 1)
#define BPFWD_XDP_ACT_NDO_XMIT	(1ULL << 2)

struct link_info {
	uint8_t mac[6];
	uint32_t mtu;
	uint32_t link;		/* IFLA_LINK: a veth's peer ifindex */
	bool link_other_ns;	/* the peer lives in another namespace */
	int32_t link_netnsid;	/* that namespace's id here (link_other_ns) */
	bool up;
	bool carrier;		/* IFLA_CARRIER: the link is there */
	char kind[16];		/* "veth", "bridge", ... or empty */
	uint32_t master;	/* IFLA_MASTER: the bridge or bond it is in */
	char slave_kind[16];	/* that master's kind ("bridge", "bond") */
	uint32_t xdp_prog_id;	/* 0: no XDP program */
	uint64_t rx_packets, tx_packets, rx_dropped, tx_dropped;
};

int netdev_link(uint32_t ifindex, struct link_info *li);
/* -EOPNOTSUPP when the kernel has no netdev genetlink family */
int netdev_xdp_features(uint32_t ifindex, uint64_t *features);
/* The neighbour table's MAC for @addr (AF_INET or AF_INET6) on @ifindex;
 * -ENOENT when there is no usable entry.
 */
int netdev_neigh_mac(uint32_t ifindex, int family, const void *addr,
		     uint8_t mac[6]);
/* The first address of @family on @ifindex; -ENOENT when none. */
int netdev_addr(uint32_t ifindex, int family, void *addr);

/* The link at the other end of @l (a veth's peer, by IFLA_LINK and
 * IFLA_LINK_NETNSID): its name in @peer (IF_NAMESIZE), and whether it
 * transmits with tx checksum offload (ethtool's tx-checksumming) in
 * @on.  -ENOENT when its namespace is not one this process can find
 * (named in /run/netns or held by a process).
 */
int netdev_peer_tx_csum(const struct link_info *l, char *peer, bool *on);
/* Sets tx-checksumming of that peer, as ethtool -K PEER tx @on does. */
int netdev_peer_tx_csum_set(const struct link_info *l, bool on);

/* Whether @ifindex takes received VLAN tags out of the frame before XDP
 * sees them (rx-vlan-offload on a device other than a veth).
 */
int netdev_rx_vlan_hw(uint32_t ifindex, bool *on);

/* Whether @l's peer inserts VLAN tags on transmit (tx-vlan-hw-insert or
 * tx-vlan-stag-hw-insert): a veth then hands its frames on with the tag
 * outside the frame (skb metadata), where XDP cannot see it.  Its name
 * in @peer (IF_NAMESIZE) when not NULL.
 */
int netdev_peer_tx_vlan(const struct link_info *l, char *peer, bool *on);
/* Turns both of them @on or off on that peer; -EOPNOTSUPP when the
 * peer did not take it.
 */
int netdev_peer_tx_vlan_set(const struct link_info *l, bool on);

/* Whether XDP on @ifindex can miss a VLAN tag the frame carries: a veth
 * whose peer inserts tags on transmit, another device with rx VLAN
 * offload.  @fix (of @len) gets the command that makes it see them.
 * XDP programs in bpfwd are not device-bound (see DESIGN.md), so they
 * cannot ask the driver for such a tag.
 */
int netdev_vlan_blind(uint32_t ifindex, char *fix, size_t len, bool *blind);
/* The same, with what keeps the tags out of the frame in @why (of
 * @wlen): "its veth peer e0 inserts them on transmit", ...
 */
int netdev_vlan_blind_why(uint32_t ifindex, char *why, size_t wlen,
			  char *fix, size_t len, bool *blind);

/* One request on a new socket of @proto (NETLINK_ROUTE, ...): every
 * answer goes to @cb (NULL: none expected) until the ack or the end of
 * the dump.  0 or -errno.
 */
struct nlmsghdr;
typedef int (*netdev_msg_cb)(const struct nlmsghdr *nlh, void *data);
int netdev_talk(int proto, struct nlmsghdr *nlh, netdev_msg_cb cb,
		void *data);

#endif /* __BPFWD_NETDEV_H */
