// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * tc, tcx and act attachment of port programs.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "attach.h"
#include "nl.h"
#include "util.h"

bool kernel_has_tcx(void)
{
	__u32 cnt = 0;

	/* lo is ifindex 1 in every namespace; pre-6.6 kernels say EINVAL */
	return !bpf_prog_query(1, BPF_TCX_INGRESS, 0, NULL, NULL, &cnt);
}

/* One message for a failed netlink request, with the kernel's reason
 * and then @hint, when there are.
 */
static int nl_fail(const char *what, const char *dev, int err,
		   const char *hint)
{
	const char *k = nl_extack();

	if (k[0] && hint)
		p_err("%s: %s: %s (%s; %s)", dev, what, strerror(-err), k,
		      hint);
	else if (k[0] || hint)
		p_err("%s: %s: %s (%s)", dev, what, strerror(-err),
		      k[0] ? k : hint);
	else
		p_err("%s: %s: %s", dev, what, strerror(-err));
	return err;
}

static int clsact_release(uint32_t ifindex)
{
	struct tc_filter_info f[1];

	if (nl_filter_list(ifindex, false, f, 1) > 0 ||
	    nl_filter_list(ifindex, true, f, 1) > 0)
		return 0;	/* someone else's filters remain: keep it */
	return nl_clsact_del(ifindex);
}

static int find_act_handle(uint32_t ifindex, bool egress, uint32_t prio,
			   uint32_t *handle)
{
	struct tc_filter_info f[64];
	int n, i;

	n = nl_filter_list(ifindex, egress, f, ARRAY_SIZE(f));
	for (i = 0; i < n && i < (int)ARRAY_SIZE(f); i++) {
		/* u32 node handles have a non-zero node id (low 12 bits) */
		if (f[i].prio == prio && !strcmp(f[i].kind, "u32") &&
		    (f[i].handle & 0xfff)) {
			*handle = f[i].handle;
			return 0;
		}
	}
	return -ENOENT;
}

int tc_filter_attach(struct attach_req *r)
{
	const char *where = r->egress ? "egress" : "ingress";
	uint32_t old = 0;
	char what[64];
	int err;

	if (!r->replace) {
		err = nl_clsact_add(r->ifindex, &r->own_clsact);
		if (err)
			return nl_fail("add clsact qdisc", r->dev, err, NULL);
	} else if (r->act &&
		   find_act_handle(r->ifindex, r->egress, r->prio, &old)) {
		p_err("%s: no u32 filter at %s prio %u to replace", r->dev,
		      where, r->prio);
		return -ENOENT;
	}
	snprintf(what, sizeof(what), "%s %s filter prio %u", where,
		 r->act ? "u32+act_bpf" : "bpf", r->prio);
	if (r->act)
		err = nl_act_filter_add(r->ifindex, r->egress, r->prio,
					r->prog_fd, r->prog_name);
	else
		err = nl_bpf_filter_set(r->ifindex, r->egress, r->prio,
					r->prog_fd, r->prog_name, r->replace);
	if (err) {
		const char *hint = NULL;

		if (err == -EEXIST)
			hint = "a filter is already at this prio; pick another with prio N";
		else if (r->act && !nl_extack()[0] &&
			 (err == -ENOENT || err == -EINVAL || err == -EOPNOTSUPP))
			hint = "this kernel may lack act_bpf (see bpfwd probe)";
		nl_fail(what, r->dev, err, hint);
		if (r->own_clsact)
			clsact_release(r->ifindex);
		r->own_clsact = false;
		return err;
	}
	/* act replace: the new node went in after the old one; drop it */
	if (old && nl_filter_del(r->ifindex, r->egress, r->prio, old, "u32"))
		pr_warn("%s: old u32 node %x at prio %u stays: %s", r->dev,
			old, r->prio, nl_extack());
	return 0;
}

int tcx_attach(struct attach_req *r)
{
	char path[PATH_MAX];
	int fd, err;

	link_pin_path(r->t, r->ifindex, r->egress, path, sizeof(path));
	if (r->replace) {
		fd = bpf_obj_get(path);
		if (fd < 0) {
			err = -errno;
			p_err("%s: tcx link %s: %s", r->dev, path,
			      strerror(-err));
			return err;
		}
		err = bpf_link_update(fd, r->prog_fd, NULL);
		close(fd);
		if (err)
			p_err("%s: update tcx link: %s", r->dev, strerror(-err));
		return err;
	}
	if (!kernel_has_tcx()) {
		p_err("%s: this kernel has no tcx (needs Linux 6.6 or later); use hook tc",
		      r->dev);
		return -EOPNOTSUPP;
	}
	fd = bpf_link_create(r->prog_fd, r->ifindex,
			     r->egress ? BPF_TCX_EGRESS : BPF_TCX_INGRESS,
			     NULL);
	if (fd < 0) {
		err = fd;
		p_err("%s: attach tcx %s: %s", r->dev,
		      r->egress ? "egress" : "ingress", strerror(-err));
		return err;
	}
	if (bpf_obj_pin(fd, path)) {
		err = -errno;
		p_err("%s: pin tcx link at %s: %s", r->dev, path,
		      strerror(-err));
		bpf_link_detach(fd);
		close(fd);
		return err;
	}
	close(fd);
	return 0;
}

int tc_filter_detach(uint32_t ifindex, const char *dev, bool egress,
		     uint32_t prio, bool own_clsact)
{
	int err;

	err = nl_filter_del(ifindex, egress, prio, 0, NULL);
	if (err && err != -ENOENT && err != -EINVAL && err != -ENODEV)
		return nl_fail("delete filter", dev, err, NULL);
	if (own_clsact)
		clsact_release(ifindex);
	return 0;
}

int tc_filter_prog(uint32_t ifindex, bool egress, uint32_t prio,
		   uint32_t *id)
{
	struct tc_filter_info f[64];
	int n, i;

	n = nl_filter_list(ifindex, egress, f, ARRAY_SIZE(f));
	for (i = 0; i < n && i < (int)ARRAY_SIZE(f); i++) {
		if (f[i].prio == prio) {
			*id = f[i].prog_id;
			return 0;
		}
	}
	return -ENOENT;
}

bool tc_filter_attached(uint32_t ifindex, bool egress, uint32_t prio)
{
	uint32_t id;

	return !tc_filter_prog(ifindex, egress, prio, &id);
}

int tcx_detach(struct table *t, uint32_t ifindex, const char *dev,
	       bool egress)
{
	char path[PATH_MAX];
	int fd, err;

	link_pin_path(t, ifindex, egress, path, sizeof(path));
	fd = bpf_obj_get(path);
	if (fd >= 0) {
		bpf_link_detach(fd);
		close(fd);
	}
	if (unlink(path) && errno != ENOENT) {
		err = -errno;
		p_err("%s: unpin %s: %s", dev, path, strerror(-err));
		return err;
	}
	return 0;
}

int tcx_prog(struct table *t, uint32_t ifindex, bool egress, uint32_t *id)
{
	struct bpf_link_info info = { 0 };
	uint32_t len = sizeof(info);
	char path[PATH_MAX];
	int fd, err;

	link_pin_path(t, ifindex, egress, path, sizeof(path));
	fd = bpf_obj_get(path);
	if (fd < 0)
		return -ENOENT;
	err = bpf_obj_get_info_by_fd(fd, &info, &len);
	close(fd);
	/* the kernel clears the link's ifindex when its device goes (a
	 * device of the same name made again has another ifindex); the
	 * 6.1 uapi has no info.tcx, whose ifindex is where xdp's is
	 */
	if (err || !info.prog_id || info.type != BPFWD_LINK_TYPE_TCX ||
	    info.xdp.ifindex != ifindex)
		return -ENOENT;
	*id = info.prog_id;
	return 0;
}

bool tcx_attached(struct table *t, uint32_t ifindex, bool egress)
{
	uint32_t id;

	return !tcx_prog(t, ifindex, egress, &id);
}
