/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * What the unit tests share, so that no test defines its own:
 *  - TAP as kselftest.h prints it: tap() for one test line, tap_skip(),
 *    tap_skip_all() for a whole file and tap_done() for the plan and the
 *    exit status;
 *  - assertions in the style of selftests' test_progs.h: ASSERT_EQ,
 *    ASSERT_OK and ASSERT_TRUE return true when they hold, else print a
 *    diagnostic with the check's name, the actual and the expected
 *    value.  They never jump: callers write their own cleanup labels;
 *  - the canned frames fed to BPF_PROG_TEST_RUN: Ethernet with up to two
 *    VLAN tags, UDP over IPv4 and IPv6, ARP, a bare Ethernet header.
 */
#ifndef BPFWD_UNIT_TEST_H
#define BPFWD_UNIT_TEST_H

#include <net/if.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/types.h>
#include <linux/udp.h>
#include <bpf/bpf.h>

/* TAP */
static int tap_num;
static int tap_failed;

static inline void tap(bool pass, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One test line, "ok N - NAME" or "not ok N - NAME" */
static inline void tap(bool pass, const char *fmt, ...)
{
	va_list ap;

	tap_num++;
	if (!pass)
		tap_failed++;
	printf("%sok %d - ", pass ? "" : "not ", tap_num);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline void tap_skip(const char *name, const char *reason)
{
	tap_num++;
	printf("ok %d - %s # SKIP %s\n", tap_num, name, reason);
	fflush(stdout);
}

/* The whole file skipped: the plan says why; exit with what it returns */
static inline int tap_skip_all(const char *reason)
{
	printf("1..0 # SKIP %s\n", reason);
	return 0;
}

/* The plan, after the last test; exit with what it returns */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_num);
	return tap_failed ? 1 : 0;
}

/* Assertions: @ctx names the case, @what the check within it (may be
 * empty).  True when they hold; otherwise a "#" line with the actual and
 * the expected value.
 */
static inline bool unit_eq(const char *ctx, const char *what,
			   unsigned long long actual,
			   unsigned long long expected)
{
	if (actual == expected)
		return true;
	printf("# %s%s%s: actual %llu, expected %llu\n", ctx,
	       *what ? ": " : "", what, actual, expected);
	return false;
}

/* @err: 0 or -errno, as libbpf 1.x returns it */
static inline bool unit_ok(const char *ctx, const char *what, int err)
{
	if (!err)
		return true;
	printf("# %s%s%s: %s (%d), expected success\n", ctx,
	       *what ? ": " : "", what, strerror(-err), err);
	return false;
}

static inline bool unit_true(const char *ctx, const char *what, bool cond)
{
	if (cond)
		return true;
	printf("# %s%s%s: false, expected true\n", ctx, *what ? ": " : "",
	       what);
	return false;
}

#define ASSERT_EQ(ctx, what, actual, expected) \
	unit_eq(ctx, what, actual, expected)
#define ASSERT_OK(ctx, what, err)	unit_ok(ctx, what, err)
#define ASSERT_TRUE(ctx, what, cond)	unit_true(ctx, what, cond)

/* The command line run_unit (tests/lib.sh) gives every unit test:
 * PIN_DIR IN_DEV OUT_DEV.  @more ends the usage line.  Returns 0, or 2
 * (a usage error) after saying why.
 */
static inline int unit_args(int argc, char **argv, const char *more,
			    const char **pin_dir, __u32 *in, __u32 *out)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s PIN_DIR IN_DEV OUT_DEV%s\n",
			argv[0], more);
		return 2;
	}
	*pin_dir = argv[1];
	*in = if_nametoindex(argv[2]);
	*out = if_nametoindex(argv[3]);
	if (!*in || !*out || *in == *out) {
		fprintf(stderr, "%s: need two devices, got %s and %s\n",
			argv[0], argv[2], argv[3]);
		return 2;
	}
	return 0;
}

/* Whether this namespace holds lo, @in and @out only: one made for the
 * test (run_unit), where frames a program really sends (clones, live
 * XDP frames) stay.
 */
static inline bool unit_own_netns(__u32 in, __u32 out)
{
	struct if_nameindex *ifs, *i;
	bool ours = true;

	ifs = if_nameindex();
	if (!ifs)
		return false;
	for (i = ifs; i->if_index; i++)
		if (i->if_index != in && i->if_index != out &&
		    strcmp(i->if_name, "lo"))
			ours = false;
	if_freenameindex(ifs);
	return ours;
}

/* Frames */
#define FRAME_MAX	128

struct frame {
	char name[40];
	__u8 pad[2];		/* the IP header (data + 14) 4-byte aligned */
	__u8 data[FRAME_MAX];
	__u32 len;
	__u16 proto;		/* outer EtherType (host order) */
	bool vlan;		/* carries an 802.1Q/802.1ad tag */
};
_Static_assert(__builtin_offsetof(struct frame, data) % 4 == 2, "IP header alignment");

/* Runs the XDP program @prog_fd once on @f as if it arrived on
 * @ifindex: 0 or -errno, the verdict in *@verdict and, with @out, the
 * frame out (at most *@out_len bytes; *@out_len gets its length).
 */
static inline int xdp_run_frame(int prog_fd, __u32 ifindex,
				const struct frame *f, __u32 *verdict,
				__u8 *out, __u32 *out_len)
{
	/* data_end: the frame's length, as the kernel wants it */
	struct xdp_md ctx = { .data_end = f->len, .ingress_ifindex = ifindex };
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = f->data,
		.data_size_in = f->len,
		.data_out = out,
		.data_size_out = out ? *out_len : 0,
		.ctx_in = &ctx,
		.ctx_size_in = sizeof(ctx),
	);
	int err = bpf_prog_test_run_opts(prog_fd, &o);

	*verdict = o.retval;
	if (out)
		*out_len = o.data_size_out;
	return err;
}

static inline __u16 ip_csum(const void *buf, size_t len)
{
	const __u16 *p = buf;
	__u32 sum = 0;

	for (; len > 1; len -= 2)
		sum += *p++;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

static inline void put16(__u8 *p, __u16 v)
{
	v = htons(v);
	memcpy(p, &v, sizeof(v));
}

/* Starts @f with an Ethernet header 02:..:01 -> 02:..:02 carrying @tags
 * VLAN tags (1: 802.1Q, 2: 802.1ad outside 802.1Q) and EtherType
 * @proto.  Returns where the payload goes.
 */
static inline __u8 *eth_start(struct frame *f, const char *name, int tags,
			      __u16 proto)
{
	static const __u8 dst[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x02 };
	static const __u8 src[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x01 };
	__u8 *p = f->data;
	int i;

	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	memcpy(p, dst, ETH_ALEN);
	memcpy(p + ETH_ALEN, src, ETH_ALEN);
	p += 2 * ETH_ALEN;
	for (i = 0; i < tags; i++) {
		put16(p, tags == 2 && i == 0 ? ETH_P_8021AD : ETH_P_8021Q);
		put16(p + 2, 10 + i);	/* VID */
		p += 4;
	}
	put16(p, proto);
	f->proto = tags == 2 ? ETH_P_8021AD : tags == 1 ? ETH_P_8021Q : proto;
	f->vlan = tags > 0;
	return p + 2;
}

static inline __u8 *udp_put(__u8 *p, unsigned int payload)
{
	struct udphdr *udp = (struct udphdr *)p;
	unsigned int i;

	udp->source = htons(4000);
	udp->dest = htons(9);
	udp->len = htons(sizeof(*udp) + payload);
	p += sizeof(*udp);
	for (i = 0; i < payload; i++)
		p[i] = 'a' + i % 26;
	return p + payload;	/* checksum 0: none (IPv4) */
}

/* UDP/IPv4 192.0.2.1:4000 -> 192.0.2.2:9 with @payload bytes */
static inline void build_udp(struct frame *f, const char *name, int tags,
			     unsigned int payload)
{
	struct iphdr *ip;
	__u8 *p;

	ip = (struct iphdr *)eth_start(f, name, tags, ETH_P_IP);
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->tot_len = htons(sizeof(*ip) + sizeof(struct udphdr) + payload);
	ip->saddr = htonl(0xc0000201);
	ip->daddr = htonl(0xc0000202);
	ip->check = ip_csum(ip, sizeof(*ip));
	p = udp_put((__u8 *)(ip + 1), payload);
	f->len = p - f->data;
}

/* UDP/IPv6 2001:db8::1 -> 2001:db8::2 with @payload bytes */
static inline void build_udp6(struct frame *f, const char *name,
			      unsigned int payload)
{
	struct ipv6hdr *ip6;
	__u8 *p;

	ip6 = (struct ipv6hdr *)eth_start(f, name, 0, ETH_P_IPV6);
	ip6->version = 6;
	ip6->payload_len = htons(sizeof(struct udphdr) + payload);
	ip6->nexthdr = IPPROTO_UDP;
	ip6->hop_limit = 64;
	inet_pton(AF_INET6, "2001:db8::1", &ip6->saddr);
	inet_pton(AF_INET6, "2001:db8::2", &ip6->daddr);
	p = udp_put((__u8 *)(ip6 + 1), payload);
	f->len = p - f->data;
}

/* ARP request: who has 192.0.2.2, tell 192.0.2.1 (42 bytes, a runt) */
static inline void build_arp(struct frame *f, const char *name)
{
	static const __u8 tail[] = {
		0x00, 0x01, 0x08, 0x00, 6, 4, 0x00, 0x01,	/* request */
		0x02, 0, 0, 0, 0, 0x01, 192, 0, 2, 1,		/* sender */
		0, 0, 0, 0, 0, 0, 192, 0, 2, 2,			/* target */
	};
	__u8 *p;

	p = eth_start(f, name, 0, ETH_P_ARP);
	memcpy(p, tail, sizeof(tail));
	f->len = p + sizeof(tail) - f->data;
}

/* An Ethernet header alone, EtherType "local experimental": the
 * shortest frame the kernel takes
 */
static inline void build_eth_only(struct frame *f, const char *name)
{
	eth_start(f, name, 0, 0x88b5);
	f->len = ETH_HLEN;
}

#endif /* BPFWD_UNIT_TEST_H */
