// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * rtnetlink requests for the tc hooks, built with libmnl.  Requests ask
 * for extended acks so the kernel's own reason reaches the operator.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/tc_act/tc_bpf.h>
#include <libmnl/libmnl.h>

#include "nl.h"
#include "util.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef TC_H_CLSACT
#define TC_H_CLSACT TC_H_INGRESS
#endif
#ifndef TC_H_MIN_INGRESS
#define TC_H_MIN_INGRESS 0xFFF2U
#define TC_H_MIN_EGRESS 0xFFF3U
#endif

static char extack[256];

const char *nl_extack(void)
{
	return extack;
}

#define NL_BUF 32768

struct nl_req {
	struct mnl_socket *nl;
	char buf[NL_BUF];
	uint32_t seq;
};

static int nl_open(struct nl_req *r)
{
	int one = 1;

	r->nl = mnl_socket_open(NETLINK_ROUTE);
	if (!r->nl)
		return -errno;
	if (mnl_socket_bind(r->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		int err = -errno;

		mnl_socket_close(r->nl);
		return err;
	}
	mnl_socket_setsockopt(r->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	r->seq = time(NULL);
	return 0;
}

static int extack_attr(const struct nlattr *a, void *data)
{
	(void)data;
	if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0) {
		snprintf(extack, sizeof(extack), "%s", mnl_attr_get_str(a));
	}
	return MNL_CB_OK;
}

/* Parses an NLMSG_ERROR: returns its errno (0 for an ack) and keeps the
 * extack message.
 */
static int parse_error(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	unsigned int off = sizeof(*e);

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    nlh->nlmsg_len > sizeof(*nlh) + off)
		mnl_attr_parse(nlh, off, extack_attr, NULL);
	return e->error;
}

typedef int (*nl_msg_cb)(const struct nlmsghdr *nlh, void *data);

/* Sends the request in r->buf and reads replies until the ack (or the
 * end of a dump), passing data messages to @cb.
 */
static int nl_talk(struct nl_req *r, struct nlmsghdr *nlh, nl_msg_cb cb,
		   void *data)
{
	uint32_t portid = mnl_socket_get_portid(r->nl);
	char rbuf[NL_BUF];
	ssize_t n;
	int err = 0;

	extack[0] = '\0';
	nlh->nlmsg_seq = ++r->seq;
	nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(r->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		struct nlmsghdr *m;
		int len;

		n = mnl_socket_recvfrom(r->nl, rbuf, sizeof(rbuf));
		if (n < 0)
			return -errno;
		len = n;
		for (m = (struct nlmsghdr *)rbuf; mnl_nlmsg_ok(m, len);
		     m = mnl_nlmsg_next(m, &len)) {
			if (m->nlmsg_seq != r->seq || m->nlmsg_pid != portid)
				continue;
			if (m->nlmsg_type == NLMSG_ERROR)
				return parse_error(m);
			if (m->nlmsg_type == NLMSG_DONE)
				return err;
			if (cb && !err)
				err = cb(m, data) < 0 ? -EPROTO : 0;
		}
	}
}

static struct nlmsghdr *tc_msg(struct nl_req *r, uint16_t type,
			       uint16_t flags, int ifindex, uint32_t parent,
			       uint32_t handle, uint32_t info)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(r->buf);
	struct tcmsg *t;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	t = mnl_nlmsg_put_extra_header(nlh, sizeof(*t));
	t->tcm_family = AF_UNSPEC;
	t->tcm_ifindex = ifindex;
	t->tcm_parent = parent;
	t->tcm_handle = handle;
	t->tcm_info = info;
	return nlh;
}

static int run(struct nlmsghdr *(*build)(struct nl_req *, void *),
	       void *arg, nl_msg_cb cb, void *data)
{
	struct nl_req r;
	int err;

	err = nl_open(&r);
	if (err)
		return err;
	err = nl_talk(&r, build(&r, arg), cb, data);
	mnl_socket_close(r.nl);
	return err;
}

struct qd_arg {
	int ifindex;
	bool del;
};

static struct nlmsghdr *build_clsact(struct nl_req *r, void *arg)
{
	struct qd_arg *a = arg;
	struct nlmsghdr *nlh;

	nlh = tc_msg(r, a->del ? RTM_DELQDISC : RTM_NEWQDISC,
		     a->del ? 0 : NLM_F_CREATE | NLM_F_EXCL, a->ifindex,
		     TC_H_CLSACT, TC_H_MAKE(TC_H_CLSACT, 0), 0);
	mnl_attr_put_strz(nlh, TCA_KIND, "clsact");
	return nlh;
}

int nl_clsact_add(int ifindex, bool *created)
{
	struct qd_arg a = { .ifindex = ifindex };
	int err = run(build_clsact, &a, NULL, NULL);

	*created = !err;
	if (err == -EEXIST && nl_clsact_exists(ifindex)) {
		extack[0] = '\0';
		return 0;
	}
	return err;
}

int nl_clsact_del(int ifindex)
{
	struct qd_arg a = { .ifindex = ifindex, .del = true };

	return run(build_clsact, &a, NULL, NULL);
}

static int qdisc_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct tcmsg *t = mnl_nlmsg_get_payload(nlh);
	struct nlattr *a;
	int *found = data;

	if (t->tcm_ifindex != found[0])
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, sizeof(*t)) {
		if (mnl_attr_get_type(a) == TCA_KIND &&
		    !strcmp(mnl_attr_get_str(a), "clsact"))
			found[1] = 1;
	}
	return MNL_CB_OK;
}

static struct nlmsghdr *build_qdump(struct nl_req *r, void *arg)
{
	return tc_msg(r, RTM_GETQDISC, NLM_F_DUMP, *(int *)arg, 0, 0, 0);
}

bool nl_clsact_exists(int ifindex)
{
	int found[2] = { ifindex, 0 };

	return !run(build_qdump, &ifindex, qdisc_cb, found) && found[1];
}

struct filt_arg {
	int ifindex;
	bool egress;
	uint32_t prio;
	int prog_fd;
	const char *name;
	bool replace;
	bool act;
	uint32_t handle;
	const char *kind;
};

static uint32_t hook_parent(bool egress)
{
	return TC_H_MAKE(TC_H_CLSACT, egress ? TC_H_MIN_EGRESS :
					       TC_H_MIN_INGRESS);
}

static struct nlmsghdr *build_bpf(struct nl_req *r, void *arg)
{
	struct filt_arg *a = arg;
	struct nlmsghdr *nlh;
	struct nlattr *opt;

	nlh = tc_msg(r, RTM_NEWTFILTER,
		     NLM_F_CREATE | (a->replace ? NLM_F_REPLACE : NLM_F_EXCL),
		     a->ifindex, hook_parent(a->egress), 1,
		     TC_H_MAKE(a->prio << 16, htons(ETH_P_ALL)));
	mnl_attr_put_strz(nlh, TCA_KIND, "bpf");
	opt = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	mnl_attr_put_u32(nlh, TCA_BPF_FD, a->prog_fd);
	mnl_attr_put_strz(nlh, TCA_BPF_NAME, a->name);
	mnl_attr_put_u32(nlh, TCA_BPF_FLAGS, TCA_BPF_FLAG_ACT_DIRECT);
	mnl_attr_nest_end(nlh, opt);
	return nlh;
}

int nl_bpf_filter_set(int ifindex, bool egress, uint32_t prio, int prog_fd,
		      const char *name, bool replace)
{
	struct filt_arg a = { .ifindex = ifindex, .egress = egress,
			      .prio = prio, .prog_fd = prog_fd, .name = name,
			      .replace = replace };

	return run(build_bpf, &a, NULL, NULL);
}

/* u32 with one all-zero key matches every frame; its action is act_bpf
 * with the program, whose verdict (TC_ACT_REDIRECT, TC_ACT_SHOT) the
 * action returns as is.
 */
static struct nlmsghdr *build_act(struct nl_req *r, void *arg)
{
	struct filt_arg *a = arg;
	struct {
		struct tc_u32_sel sel;
		struct tc_u32_key key;
	} sel = { .sel = { .flags = TC_U32_TERMINAL, .nkeys = 1 } };
	struct tc_act_bpf parm = { .action = TC_ACT_PIPE };
	struct nlattr *opt, *acts, *act, *aopt;
	struct nlmsghdr *nlh;

	/* handle 0: u32 numbers a new node, after any at this prio */
	nlh = tc_msg(r, RTM_NEWTFILTER, NLM_F_CREATE | NLM_F_EXCL,
		     a->ifindex, hook_parent(a->egress), 0,
		     TC_H_MAKE(a->prio << 16, htons(ETH_P_ALL)));
	mnl_attr_put_strz(nlh, TCA_KIND, "u32");
	opt = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	mnl_attr_put(nlh, TCA_U32_SEL, sizeof(sel), &sel);
	acts = mnl_attr_nest_start(nlh, TCA_U32_ACT);
	act = mnl_attr_nest_start(nlh, 1);
	mnl_attr_put_strz(nlh, TCA_ACT_KIND, "bpf");
	aopt = mnl_attr_nest_start(nlh, TCA_ACT_OPTIONS);
	mnl_attr_put(nlh, TCA_ACT_BPF_PARMS, sizeof(parm), &parm);
	mnl_attr_put_u32(nlh, TCA_ACT_BPF_FD, a->prog_fd);
	mnl_attr_put_strz(nlh, TCA_ACT_BPF_NAME, a->name);
	mnl_attr_nest_end(nlh, aopt);
	mnl_attr_nest_end(nlh, act);
	mnl_attr_nest_end(nlh, acts);
	mnl_attr_nest_end(nlh, opt);
	return nlh;
}

int nl_act_filter_add(int ifindex, bool egress, uint32_t prio, int prog_fd,
		      const char *name)
{
	struct filt_arg a = { .ifindex = ifindex, .egress = egress,
			      .prio = prio, .prog_fd = prog_fd, .name = name,
			      .act = true };

	return run(build_act, &a, NULL, NULL);
}

static struct nlmsghdr *build_fdel(struct nl_req *r, void *arg)
{
	struct filt_arg *a = arg;

	struct nlmsghdr *nlh;

	nlh = tc_msg(r, RTM_DELTFILTER, 0, a->ifindex, hook_parent(a->egress),
		     a->handle, TC_H_MAKE(a->prio << 16, htons(ETH_P_ALL)));
	if (a->handle)
		mnl_attr_put_strz(nlh, TCA_KIND, a->kind);
	return nlh;
}

int nl_filter_del(int ifindex, bool egress, uint32_t prio, uint32_t handle,
		  const char *kind)
{
	struct filt_arg a = { .ifindex = ifindex, .egress = egress,
			      .prio = prio, .handle = handle, .kind = kind };

	return run(build_fdel, &a, NULL, NULL);
}

struct list_arg {
	struct tc_filter_info *f;
	int max;
	int n;
};

static int bpf_opt_cb(const struct nlattr *a, void *data)
{
	struct tc_filter_info *fi = data;

	switch (mnl_attr_get_type(a)) {
	case TCA_BPF_ID:
		fi->prog_id = mnl_attr_get_u32(a);
		break;
	case TCA_BPF_NAME:
		snprintf(fi->name, sizeof(fi->name), "%s", mnl_attr_get_str(a));
		break;
	case TCA_BPF_FLAGS:
		fi->direct_action = mnl_attr_get_u32(a) &
				    TCA_BPF_FLAG_ACT_DIRECT;
		break;
	}
	return MNL_CB_OK;
}

static int filter_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct tcmsg *t = mnl_nlmsg_get_payload(nlh);
	struct list_arg *l = data;
	struct tc_filter_info fi = { 0 };
	struct nlattr *a, *options = NULL;

	if (!t->tcm_handle)	/* the chain head, not a filter */
		return MNL_CB_OK;
	fi.prio = TC_H_MAJ(t->tcm_info) >> 16;
	fi.handle = t->tcm_handle;
	mnl_attr_for_each(a, nlh, sizeof(*t)) {
		if (mnl_attr_get_type(a) == TCA_KIND)
			snprintf(fi.kind, sizeof(fi.kind), "%s",
				 mnl_attr_get_str(a));
		else if (mnl_attr_get_type(a) == TCA_OPTIONS)
			options = a;
	}
	if (options && !strcmp(fi.kind, "bpf"))
		mnl_attr_parse_nested(options, bpf_opt_cb, &fi);
	if (l->n < l->max)
		l->f[l->n] = fi;
	l->n++;
	return MNL_CB_OK;
}

static struct nlmsghdr *build_fdump(struct nl_req *r, void *arg)
{
	struct filt_arg *a = arg;

	return tc_msg(r, RTM_GETTFILTER, NLM_F_DUMP, a->ifindex,
		      hook_parent(a->egress), 0, 0);
}

int nl_filter_list(int ifindex, bool egress, struct tc_filter_info *f,
		   int max)
{
	struct filt_arg a = { .ifindex = ifindex, .egress = egress };
	struct list_arg l = { f, max, 0 };
	int err = run(build_fdump, &a, filter_cb, &l);

	if (err == -EINVAL || err == -ENOENT)	/* no clsact */
		return 0;
	return err ? err : l.n;
}

/* XDP ports: IFLA_XDP, so that the kernel's reason reaches nl_extack() */

struct xdp_arg {
	int ifindex;
	int prog_fd;
	uint32_t flags;
	int expected_fd;
};

static struct nlmsghdr *build_xdp_set(struct nl_req *r, void *arg)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(r->buf);
	struct xdp_arg *a = arg;
	struct ifinfomsg *ifi;
	struct nlattr *x;

	nlh->nlmsg_type = RTM_SETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = a->ifindex;
	x = mnl_attr_nest_start(nlh, IFLA_XDP);
	mnl_attr_put_u32(nlh, IFLA_XDP_FD, a->prog_fd);
	mnl_attr_put_u32(nlh, IFLA_XDP_FLAGS, a->flags);
	if (a->flags & XDP_FLAGS_REPLACE)
		mnl_attr_put_u32(nlh, IFLA_XDP_EXPECTED_FD, a->expected_fd);
	mnl_attr_nest_end(nlh, x);
	return nlh;
}

int nl_xdp_set(int ifindex, int prog_fd, uint32_t flags, int expected_fd)
{
	struct xdp_arg a = { .ifindex = ifindex, .prog_fd = prog_fd,
			     .flags = flags, .expected_fd = expected_fd };

	return run(build_xdp_set, &a, NULL, NULL);
}
