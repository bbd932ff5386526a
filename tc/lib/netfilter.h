/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * What netfilter does in the current namespace that a fast path would
 * skip: frames redirected at tc ingress or XDP never meet the FORWARD
 * hooks, conntrack or NAT.  Detected, pragmatically:
 *  - nftables base chains (also those iptables-nft makes) on the
 *    forward hook, or of type nat, in families ip, ip6 and inet;
 *  - iptables-legacy tables in use (/proc/net/ip{,6}_tables_names):
 *    filter, mangle and security hook FORWARD, nat does NAT;
 *  - conntrack entries (net.netfilter.nf_conntrack_count > 0).
 */
#ifndef __BPFWD_NETFILTER_H
#define __BPFWD_NETFILTER_H

#define NF_FOUND_MAX	8

struct nf_found {
	int n;
	char what[NF_FOUND_MAX][96];
};

/* Fills @nf with what is found (n = 0: nothing).  A source that cannot
 * be read (no nf_tables, no conntrack) counts as nothing.
 */
void nf_detect(struct nf_found *nf);
/* "a, b and c" of what was found, into @buf */
void nf_describe(const struct nf_found *nf, char *buf, size_t len);

#endif /* __BPFWD_NETFILTER_H */
