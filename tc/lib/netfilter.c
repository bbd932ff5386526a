// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Netfilter detection (see netfilter.h): an nftables chain dump over
 * nfnetlink, the iptables-legacy table list and the conntrack count,
 * all of the current namespace.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <libmnl/libmnl.h>

#include "netfilter.h"
#include "util.h"

static void found(struct nf_found *nf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void found(struct nf_found *nf, const char *fmt, ...)
{
	va_list ap;

	if (nf->n >= NF_FOUND_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(nf->what[nf->n++], sizeof(nf->what[0]), fmt, ap);
	va_end(ap);
}

struct attrs {
	const struct nlattr *tb[NFTA_CHAIN_MAX + 1];
	int max;
};

static int attr_cb(const struct nlattr *a, void *data)
{
	struct attrs *at = data;
	int type = mnl_attr_get_type(a);

	if (type <= at->max && mnl_attr_type_valid(a, at->max) > 0)
		at->tb[type] = a;
	return MNL_CB_OK;
}

static const char *family_name(int f)
{
	switch (f) {
	case NFPROTO_INET:
		return "inet";
	case NFPROTO_IPV4:
		return "ip";
	case NFPROTO_IPV6:
		return "ip6";
	}
	return NULL;
}

/* One chain of the dump: a base chain on forward, or of type nat. */
static int chain_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nfgenmsg *g = mnl_nlmsg_get_payload(nlh);
	struct attrs c = { .max = NFTA_CHAIN_MAX }, h = { .max = NFTA_HOOK_MAX };
	const char *fam = family_name(g->nfgen_family), *type, *table, *name;
	uint32_t hook;

	mnl_attr_parse(nlh, sizeof(*g), attr_cb, &c);
	if (!fam || !c.tb[NFTA_CHAIN_HOOK] || !c.tb[NFTA_CHAIN_NAME] ||
	    !c.tb[NFTA_CHAIN_TABLE])
		return MNL_CB_OK;	/* not a base chain, or not IP */
	mnl_attr_parse_nested(c.tb[NFTA_CHAIN_HOOK], attr_cb, &h);
	if (!h.tb[NFTA_HOOK_HOOKNUM])
		return MNL_CB_OK;
	hook = ntohl(mnl_attr_get_u32(h.tb[NFTA_HOOK_HOOKNUM]));
	type = c.tb[NFTA_CHAIN_TYPE] ? mnl_attr_get_str(c.tb[NFTA_CHAIN_TYPE]) :
				       "filter";
	table = mnl_attr_get_str(c.tb[NFTA_CHAIN_TABLE]);
	name = mnl_attr_get_str(c.tb[NFTA_CHAIN_NAME]);
	if (!strcmp(type, "nat"))
		found(data, "nftables chain %s %s %s (type nat)", fam, table,
		      name);
	else if (hook == NF_INET_FORWARD)
		found(data, "nftables chain %s %s %s (hook forward)", fam,
		      table, name);
	return MNL_CB_OK;
}

static void nft_chains(struct nf_found *nf)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct nfgenmsg *g;
	uint32_t seq = time(NULL), port;
	int n;

	nl = mnl_socket_open(NETLINK_NETFILTER);
	if (!nl)
		return;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		goto out;
	port = mnl_socket_get_portid(nl);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = (NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_GETCHAIN;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->nfgen_family = AF_UNSPEC;
	g->version = NFNETLINK_V0;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		goto out;
	while ((n = mnl_socket_recvfrom(nl, buf, sizeof(buf))) > 0) {
		n = mnl_cb_run(buf, n, seq, port, chain_cb, nf);
		if (n <= MNL_CB_STOP)
			break;
	}
out:
	mnl_socket_close(nl);
}

static void legacy_tables(struct nf_found *nf, const char *file,
			  const char *cmd)
{
	char line[64];
	FILE *f = fopen(file, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "nat"))
			found(nf, "%s table nat (NAT)", cmd);
		else if (!strcmp(line, "filter") || !strcmp(line, "mangle") ||
			 !strcmp(line, "security"))
			found(nf, "%s table %s (chain FORWARD)", cmd, line);
	}
	fclose(f);
}

static void conntrack(struct nf_found *nf)
{
	unsigned long n = 0;
	FILE *f = fopen("/proc/sys/net/netfilter/nf_conntrack_count", "r");

	if (!f)
		return;
	if (fscanf(f, "%lu", &n) == 1 && n)
		found(nf, "conntrack (%lu connections tracked)", n);
	fclose(f);
}

void nf_detect(struct nf_found *nf)
{
	memset(nf, 0, sizeof(*nf));
	nft_chains(nf);
	legacy_tables(nf, "/proc/net/ip_tables_names", "iptables-legacy");
	legacy_tables(nf, "/proc/net/ip6_tables_names", "ip6tables-legacy");
	conntrack(nf);
}

void nf_describe(const struct nf_found *nf, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < nf->n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s",
				!i ? "" : i == nf->n - 1 ? " and " : ", ",
				nf->what[i]);
}
