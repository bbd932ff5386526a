// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Bridge filtering that the fast path would bypass (brnl_filtering() of
 * brnl.h): frames it redirects never reach br_netfilter (iptables,
 * ip6tables, arptables through bridge-nf-call-*), nftables' bridge
 * family or ebtables.  Rules are counted in this namespace:
 *
 *   - nftables: rules and drop-policy base chains, per family, over
 *     nfnetlink; the bridge family always counts, ip/ip6/inet/arp when
 *     the matching bridge-nf-call-* sysctl is 1;
 *   - iptables/ip6tables/arptables legacy: the rules of each table
 *     (entries beyond the built-in policies), same sysctls;
 *   - ebtables legacy: the rules of filter, nat and broute.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libmnl/libmnl.h>

#include "brnl.h"
#include "netdev.h"
#include "util.h"

/* The legacy getsockopt ABI (linux/netfilter_ipv4/ip_tables.h & co),
 * declared here: those headers do not build in user space alone.
 */
#define SO_GET_INFO_IPT		64	/* IPT_SO_GET_INFO, IP6T_SO_GET_INFO */
#define SO_GET_INFO_ARPT	96	/* ARPT_SO_GET_INFO */
#define SO_GET_INFO_EBT		128	/* EBT_SO_GET_INFO */

struct xt_getinfo {
	char name[32];
	unsigned int valid_hooks;
	unsigned int hook_entry[5];
	unsigned int underflow[5];
	unsigned int num_entries;
	unsigned int size;
};

struct arpt_getinfo {
	char name[32];
	unsigned int valid_hooks;
	unsigned int hook_entry[3];
	unsigned int underflow[3];
	unsigned int num_entries;
	unsigned int size;
};

struct ebt_getinfo {
	char name[32];
	unsigned int valid_hooks;
	unsigned int nentries;
	unsigned int entries_size;
	void *hook_entry[6];
	unsigned int num_counters;
	void *counters;
	char *entries;
};

enum { FAM_IP, FAM_IP6, FAM_ARP, FAM_BRIDGE, FAM_N };

static const char *const fam_sysctl[FAM_N] = {
	[FAM_IP] = "bridge-nf-call-iptables",
	[FAM_IP6] = "bridge-nf-call-ip6tables",
	[FAM_ARP] = "bridge-nf-call-arptables",
};

static const char *const fam_tool[FAM_N] = {
	[FAM_IP] = "iptables", [FAM_IP6] = "ip6tables",
	[FAM_ARP] = "arptables", [FAM_BRIDGE] = "ebtables/nft bridge",
};

bool brnl_sysctl_on(const char *name)
{
	char path[128], v[8] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sys/net/bridge/%s", name);
	f = fopen(path, "r");
	if (!f)
		return false;	/* no br_netfilter */
	if (!fgets(v, sizeof(v), f))
		v[0] = '\0';
	fclose(f);
	return v[0] == '1';
}

static int nft_msg(const struct nlmsghdr *nlh, void *data)
{
	const struct nfgenmsg *g = mnl_nlmsg_get_payload(nlh);
	unsigned int *count = data;
	const struct nlattr *a;
	bool drop = false;

	if ((nlh->nlmsg_type & 0xff) == NFT_MSG_NEWCHAIN) {
		mnl_attr_for_each(a, nlh, sizeof(*g))
			if (mnl_attr_get_type(a) == NFTA_CHAIN_POLICY &&
			    ntohl(mnl_attr_get_u32(a)) == NF_DROP)
				drop = true;
		if (!drop)
			return MNL_CB_OK;
	}
	switch (g->nfgen_family) {
	case NFPROTO_INET:
		count[FAM_IP]++;
		count[FAM_IP6]++;
		break;
	case NFPROTO_IPV4:
		count[FAM_IP]++;
		break;
	case NFPROTO_IPV6:
		count[FAM_IP6]++;
		break;
	case NFPROTO_ARP:
		count[FAM_ARP]++;
		break;
	case NFPROTO_BRIDGE:
		count[FAM_BRIDGE]++;
		break;
	}
	return MNL_CB_OK;
}

static void nft_count(uint16_t msg, unsigned int *count)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nfgenmsg *g;

	nlh->nlmsg_type = (NFNL_SUBSYS_NFTABLES << 8) | msg;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->nfgen_family = NFPROTO_UNSPEC;
	g->version = NFNETLINK_V0;
	/* no nf_tables in the kernel: nothing to count */
	netdev_talk(NETLINK_NETFILTER, nlh, nft_msg, count);
}

/* Rules of the legacy tables listed in /proc/net/@names. */
static unsigned int xt_rules(const char *names, int family, int level,
			     int opt, bool arp)
{
	char path[64], name[64];
	unsigned int rules = 0;
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/proc/net/%s", names);
	f = fopen(path, "r");
	if (!f)
		return 0;
	fd = socket(family, SOCK_RAW, IPPROTO_RAW);
	while (fd >= 0 && fgets(name, sizeof(name), f)) {
		struct xt_getinfo xi = { 0 };
		struct arpt_getinfo ai = { 0 };
		void *info = arp ? (void *)&ai : (void *)&xi;
		socklen_t len = arp ? sizeof(ai) : sizeof(xi);
		unsigned int hooks, entries;

		name[strcspn(name, "\n")] = '\0';
		snprintf(arp ? ai.name : xi.name, 32, "%s", name);
		if (getsockopt(fd, level, opt, info, &len))
			continue;
		hooks = __builtin_popcount(arp ? ai.valid_hooks : xi.valid_hooks);
		entries = arp ? ai.num_entries : xi.num_entries;
		/* a policy per built-in chain and the error entry */
		if (entries > hooks + 1)
			rules += entries - hooks - 1;
	}
	if (fd >= 0)
		close(fd);
	fclose(f);
	return rules;
}

static unsigned int ebt_rules(void)
{
	static const char *const tables[] = { "filter", "nat", "broute" };
	unsigned int rules = 0;
	size_t i;
	int fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);

	for (i = 0; fd >= 0 && i < ARRAY_SIZE(tables); i++) {
		struct ebt_getinfo ei = { 0 };
		socklen_t len = sizeof(ei);

		snprintf(ei.name, sizeof(ei.name), "%s", tables[i]);
		if (!getsockopt(fd, IPPROTO_IP, SO_GET_INFO_EBT, &ei, &len))
			rules += ei.nentries;
	}
	if (fd >= 0)
		close(fd);
	return rules;
}

int brnl_filtering(char *why, size_t len)
{
	unsigned int count[FAM_N] = { 0 };
	int i;

	nft_count(NFT_MSG_GETRULE, count);
	nft_count(NFT_MSG_GETCHAIN, count);
	count[FAM_IP] += xt_rules("ip_tables_names", AF_INET, IPPROTO_IP,
				  SO_GET_INFO_IPT, false);
	count[FAM_IP6] += xt_rules("ip6_tables_names", AF_INET6, IPPROTO_IPV6,
				   SO_GET_INFO_IPT, false);
	count[FAM_ARP] += xt_rules("arp_tables_names", AF_INET, IPPROTO_IP,
				   SO_GET_INFO_ARPT, true);
	count[FAM_BRIDGE] += ebt_rules();
	for (i = 0; i < FAM_N; i++) {
		if (!count[i] || (fam_sysctl[i] && !brnl_sysctl_on(fam_sysctl[i])))
			continue;
		if (fam_sysctl[i])
			snprintf(why, len, "net.bridge.%s is 1 and %s has %u rule%s or drop polic%s here: bridged frames go through them, the fast path's would not (set it to 0 if they are not meant for bridged frames, or add with force)",
				 fam_sysctl[i], fam_tool[i], count[i],
				 count[i] == 1 ? "" : "s",
				 count[i] == 1 ? "y" : "ies");
		else
			snprintf(why, len, "%s has %u rule%s or drop polic%s here: bridged frames go through them, the fast path's would not (remove them, or add with force)",
				 fam_tool[i], count[i], count[i] == 1 ? "" : "s",
				 count[i] == 1 ? "y" : "ies");
		return -EBUSY;
	}
	return 0;
}
