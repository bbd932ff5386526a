/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * What the bridge fast path reads from the kernel over rtnetlink
 * (libmnl): bridge ports with their STP state and flags (AF_BRIDGE
 * links, IFLA_PROTINFO), a bridge's address and vlan_filtering, the fdb
 * (AF_BRIDGE neighbours), and the NTF_USE refresh the daemon sends for
 * stations seen on the fast path.  Also the netfilter check: rules the
 * fast path would bypass.
 */
#ifndef __BPFWD_BRNL_H
#define __BPFWD_BRNL_H

#include <stdbool.h>
#include <stdint.h>

struct nlmsghdr;
struct mnl_socket;

struct brnl_port {
	uint32_t ifindex;
	uint32_t master;	/* the bridge */
	uint32_t mtu;
	uint32_t state;		/* BR_STATE_* */
	uint32_t flags;		/* BPFWD_BRP_* of the bridge's port flags */
	bool oper_up;		/* IFLA_OPERSTATE up */
	bool del;		/* RTM_DELLINK: no longer a port */
};

struct brnl_bridge {
	uint32_t ifindex;
	uint8_t mac[6];
	bool is_bridge;
	bool vlan_filtering;
	uint16_t vlan_proto;	/* ETH_P_8021Q or ETH_P_8021AD, host order */
	bool nf_ip4, nf_ip6;	/* the bridge's own nf_call_ip(6)tables */
	uint32_t ageing;	/* centiseconds */
	char name[16];
};

struct brnl_fdb {
	uint32_t port;		/* ndm_ifindex: a port, or the bridge itself */
	uint32_t bridge;	/* NDA_MASTER */
	uint32_t vlan;
	uint32_t flags;		/* BPFWD_FDB_* */
	uint8_t mac[6];
	bool del;		/* RTM_DELNEIGH */
};

/* A port's VLANs vid..vid_end with the same flags and options, as one
 * RTM_NEWVLAN entry carries them.
 */
struct brnl_vlan {
	uint32_t port;		/* ifindex: a port, or the bridge itself */
	uint16_t vid, vid_end;
	uint16_t flags;		/* BRIDGE_VLAN_INFO_PVID, _UNTAGGED */
	uint8_t state;		/* BR_STATE_*: forwarding without the attribute */
	bool tunnel;		/* has a tunnel id */
};

typedef int (*brnl_port_cb)(const struct brnl_port *p, void *data);
typedef int (*brnl_fdb_cb)(const struct brnl_fdb *f, void *data);
typedef int (*brnl_vlan_cb)(const struct brnl_vlan *v, void *data);

/* An AF_BRIDGE link message: 0, or -ENOENT when it is not a port's. */
int brnl_parse_port(const struct nlmsghdr *nlh, struct brnl_port *p);
/* A bridge fdb message (not a device's own NTF_SELF entries): 0, or
 * -ENOENT when it is something else.
 */
int brnl_parse_fdb(const struct nlmsghdr *nlh, struct brnl_fdb *f);

int brnl_dump_ports(brnl_port_cb cb, void *data);
/* Every port's VLANs (RTM_GETVLAN, kernels >= 5.8): -EOPNOTSUPP on a
 * kernel without it or without bridge VLAN filtering.
 */
int brnl_dump_vlans(brnl_vlan_cb cb, void *data);
int brnl_dump_fdb(brnl_fdb_cb cb, void *data);
/* -ENODEV when there is no such device; is_bridge says what it is. */
int brnl_get_bridge(uint32_t ifindex, struct brnl_bridge *b);

/* RTM_NEWNEIGH AF_BRIDGE NTF_USE|NTF_MASTER on @port: the bridge updates
 * the entry as when it learns from a frame.
 */
int brnl_fdb_use(uint32_t port, const uint8_t mac[6], uint32_t vlan);
int brnl_fdb_del(uint32_t port, const uint8_t mac[6], uint32_t vlan);

/* NTF_USE requests in bulk, without acks (the daemon refreshes many
 * stations a second): brnl_batch_use() queues one, sending when the
 * buffer is full; brnl_batch_flush() sends the rest and drains errors.
 */
struct brnl_batch {
	struct mnl_socket *nl;
	char buf[32768];
	size_t len;
	uint32_t seq;
	unsigned int sent, failed;
};
int brnl_batch_open(struct brnl_batch *b);
void brnl_batch_close(struct brnl_batch *b);
void brnl_batch_use(struct brnl_batch *b, uint32_t port,
		    const uint8_t mac[6], uint32_t vlan);
void brnl_batch_flush(struct brnl_batch *b);

/* A socket on RTNLGRP_LINK, RTNLGRP_NEIGH and RTNLGRP_BRVLAN (VLAN
 * options such as the per-VLAN STP state come only there).
 */
struct mnl_socket *brnl_events_open(void);

/* Bridge filtering in this namespace that the fast path would bypass:
 * 0 when none, or -EBUSY with @why filled.
 */
int brnl_filtering(char *why, size_t len);
/* Whether br_netfilter's net.bridge.@name is 1 in this namespace. */
bool brnl_sysctl_on(const char *name);

#endif /* __BPFWD_BRNL_H */
