// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench rows the kernel forwards alone: the Linux bridge (with
 * br_netfilter's hooks off, and on) and tc u32 + act_mirred.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "lib/nsrun.h"
#include "lib/util.h"

/* br_netfilter (built in, or loaded by Docker and friends) passes every
 * bridged frame through the netfilter hooks when the namespace's
 * bridge-nf-call-* say so, and they are 1 in a new namespace: a bridge
 * at about three quarters of its speed.  The bridge row turns them off in
 * the dut (the bridge's own speed, the peer to beat); bridge-nf keeps
 * them on, as such a host forwards.
 */
#define BR_NF_DIR "/proc/sys/net/bridge"

static bool have_br_nf(void)
{
	return !access(BR_NF_DIR, F_OK);
}

const char *need_br_nf(struct bench *b, const struct method *m)
{
	return have_br_nf() ? NULL : "no br_netfilter in this kernel (not loaded)";
}

static const char *const br_nf_knobs[] = {
	"bridge-nf-call-iptables", "bridge-nf-call-ip6tables",
	"bridge-nf-call-arptables",
};

/* Sets the dut's bridge-nf-call-* to @v[i] ('0' or '1'; 0: leave it),
 * the values they had going to @old (may be NULL).  In device mode the
 * dut is the caller's namespace: bridge_teardown puts them back.
 */
static int bridge_nf_set(struct bench *b, const char *v, char *old)
{
	char path[128];
	size_t i = 0;
	int fd, err;

	if (!have_br_nf())
		return 0;
	err = ns_enter(b->ns[NS_DUT]);
	if (err)
		goto fail;
	for (i = 0; i < ARRAY_SIZE(br_nf_knobs); i++) {
		if (!v[i])
			continue;
		snprintf(path, sizeof(path), BR_NF_DIR "/%s", br_nf_knobs[i]);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0 || (old && pread(fd, &old[i], 1, 0) != 1) ||
		    pwrite(fd, &v[i], 1, 0) != 1) {
			err = -errno;
			if (fd >= 0)
				close(fd);
			ns_leave();
			goto fail;
		}
		close(fd);
	}
	ns_leave();
	return 0;
fail:
	snprintf(b->err, sizeof(b->err), "net.bridge.%s in the dut: %s",
		 br_nf_knobs[i < ARRAY_SIZE(br_nf_knobs) ? i : 0], strerror(-err));
	return err;
}

int bridge_setup(struct bench *b, const struct method *m)
{
	char mac[18];

	memset(b->br_nf, 0, sizeof(b->br_nf));
	if (bridge_nf_set(b, m->br_nf ? "111" : "000", b->br_nf))
		return -EIO;
	snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x",
		 b->sink_mac[0], b->sink_mac[1], b->sink_mac[2], b->sink_mac[3],
		 b->sink_mac[4], b->sink_mac[5]);
	if (RUN(b, NS_DUT, "ip", "link", "add", "name", "bwbr0", "type", "bridge") ||
	    RUN(b, NS_DUT, "ip", "link", "set", b->in_dev, "master", "bwbr0") ||
	    RUN(b, NS_DUT, "ip", "link", "set", b->out_dev, "master", "bwbr0") ||
	    RUN(b, NS_DUT, "ip", "link", "set", "bwbr0", "up") ||
	    /* the sink's address is known: forwarded, never flooded */
	    RUN(b, NS_DUT, "bridge", "fdb", "replace", mac, "dev", b->out_dev,
		"master", "static"))
		return -EIO;
	return 0;
}

void bridge_teardown(struct bench *b, const struct method *m)
{
	RUN(b, NS_DUT, "ip", "link", "del", "bwbr0");
	if (bridge_nf_set(b, b->br_nf, NULL))
		pr_warn("bench: %s", b->err);
	memset(b->br_nf, 0, sizeof(b->br_nf));
}

int mirred_setup(struct bench *b, const struct method *m)
{
	if (RUN(b, NS_DUT, "tc", "qdisc", "add", "dev", b->in_dev, "clsact") ||
	    RUN(b, NS_DUT, "tc", "filter", "add", "dev", b->in_dev, "ingress",
		"prio", "1", "protocol", "all", "u32", "match", "u32", "0", "0",
		"action", "mirred", "egress", "redirect", "dev", b->out_dev))
		return -EIO;
	return 0;
}

void mirred_teardown(struct bench *b, const struct method *m)
{
	RUN(b, NS_DUT, "tc", "qdisc", "del", "dev", b->in_dev, "clsact");
}
