// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench peer rows: other XDP forwarders on the same dut, counted
 * as the other rows are.  xdp-tools' xdp-bench redirect (bpf_redirect)
 * and redirect-map (a devmap) run between the dut's ports; xdp-forward
 * (xdp-tools 1.4 and later) forwards by the FIB, so its row makes the
 * dut a router for the sink's address (forwarding on, a host route and
 * a neighbour entry on OUT; gen's frames keep the sink's destination
 * MAC, which an XDP FIB lookup does not check).  xdp-forward's row has
 * not run here: Debian bookworm has no xdp-tools that ships it.
 *
 * A peer runs in the dut's namespace entered by setns (so it sees the
 * bpffs, which `ip netns exec` would hide), until SIGINT.  Whether it
 * runs at all is tried once, before the rounds, on the dut's devices:
 * a peer that exits instead of attaching is skipped with its own
 * error (libbpf's line naming a kernel BTF type it misses, if any, and
 * its last line) and version.  libxdp makes BPFFS/xdp for its dispatchers and
 * leaves it: when it was not there before, it goes (if empty).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/if_link.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "lib/nsrun.h"
#include "lib/pins.h"
#include "lib/util.h"

static bool is_forward(const struct method *m)
{
	return m->peer_router;
}

/* The peer's program: the first word of its command. */
static char *peer_bin(const struct method *m, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(m->peer, " "), m->peer);
	return buf;
}

/* The XDP program id on the dut's @dev, 0 for none. */
static uint32_t xdp_id(struct bench *b, const char *dev)
{
	uint32_t id = 0;

	if (ns_enter(b->ns[NS_DUT]))
		return 0;
	if (bpf_xdp_query_id(if_nametoindex(dev), 0, &id))
		id = 0;
	ns_leave();
	return id;
}

static int router_prep(struct bench *b, bool on)
{
	char mac[18];

	if (!on) {
		RUN(b, NS_DUT, "ip", "route", "del", "192.0.2.2/32");
		RUN(b, NS_DUT, "sysctl", "-qw", "net.ipv4.conf.all.forwarding=0");
		return 0;
	}
	snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x",
		 b->sink_mac[0], b->sink_mac[1], b->sink_mac[2], b->sink_mac[3],
		 b->sink_mac[4], b->sink_mac[5]);
	if (RUN(b, NS_DUT, "sysctl", "-qw", "net.ipv4.conf.all.forwarding=1") ||
	    RUN(b, NS_DUT, "ip", "route", "replace", "192.0.2.2/32", "dev",
		b->out_dev) ||
	    RUN(b, NS_DUT, "ip", "neigh", "replace", "192.0.2.2", "lladdr", mac,
		"dev", b->out_dev, "nud", "permanent"))
		return -EIO;
	return 0;
}

/* The first line of @out that has @what, trimmed, into @line. */
static bool line_with(const char *out, const char *what, char *line,
		      size_t len)
{
	const char *p = strstr(out, what), *s, *e;

	if (!p)
		return false;
	for (s = p; s > out && s[-1] != '\n'; s--)
		;
	while (*s == ' ')
		s++;
	e = strchr(s, '\n');
	snprintf(line, len, "%.*s", (int)(e ? e - s : (long)strlen(s)), s);
	return true;
}

/* Why the peer of @m exited, from its output @out, into b->err. */
static void peer_failed(struct bench *b, const struct method *m,
			const char *out, int status)
{
	char btf[160] = "", last[160] = "", ver[96] = "", cmd[64], *sub;
	char *argv[] = { cmd, NULL, NULL, NULL };
	const char *p = out + strlen(out);

	/* xdp-bench takes --version after a command */
	snprintf(cmd, sizeof(cmd), "%s", m->peer);
	sub = strchr(cmd, ' ');
	if (sub)
		*sub++ = '\0';
	argv[1] = sub ? sub : "--version";
	argv[2] = sub ? "--version" : NULL;

	while (p > out && p[-1] == '\n')
		p--;
	while (p > out && p[-1] != '\n')
		p--;
	snprintf(last, sizeof(last), "%.*s", (int)strcspn(p, "\n"), p);
	line_with(out, "failed to find kernel BTF type ID", btf, sizeof(btf));
	if (bench_capture(b, -1, argv, true, ver, sizeof(ver)) >= 0)
		ver[strcspn(ver, "\n")] = '\0';
	snprintf(b->err, sizeof(b->err), "%s (%s) exits (status %d) instead of attaching: %s%s%s%s",
		 m->peer, ver[0] ? ver : "version unknown", status, btf,
		 btf[0] ? "; " : "", last,
		 btf[0] ? " (a program of it needs a kernel BTF type this kernel does not have)" : "");
}

static char libxdp_dir[PATH_MAX];

int peer_setup(struct bench *b, const struct method *m)
{
	char *argv[8], *sub = NULL, cmd[32], out[4096];
	FILE *f = tmpfile();
	int status, i, argc = 0;
	size_t n;

	if (!f)
		return -errno;
	snprintf(cmd, sizeof(cmd), "%s", m->peer);
	argv[argc++] = strtok_r(cmd, " ", &sub);
	while (argc < 3 && (argv[argc] = strtok_r(NULL, " ", &sub)))
		argc++;
	if (is_forward(m))
		argv[argc++] = "load";
	argv[argc++] = b->in_dev;
	argv[argc++] = b->out_dev;
	argv[argc] = NULL;
	if (is_forward(m) && router_prep(b, true)) {
		fclose(f);
		return -EIO;
	}
	snprintf(libxdp_dir, sizeof(libxdp_dir), "%s/xdp", bpffs_root());
	if (!access(libxdp_dir, F_OK))
		libxdp_dir[0] = '\0';
	b->peer_pid = bench_spawn(b, NS_DUT, argv, fileno(f));
	for (i = 0; b->peer_pid > 0 && i < 300; i++) {
		if (waitpid(b->peer_pid, &status, WNOHANG) == b->peer_pid) {
			b->peer_pid = 0;
			rewind(f);
			n = fread(out, 1, sizeof(out) - 1, f);
			out[n] = '\0';
			peer_failed(b, m, out, WIFEXITED(status) ?
				    WEXITSTATUS(status) : 128 + WTERMSIG(status));
			fclose(f);
			return -EIO;
		}
		if (xdp_id(b, b->in_dev)) {
			fclose(f);
			return 0;
		}
		usleep(10000);
	}
	fclose(f);
	snprintf(b->err, sizeof(b->err), "%s did not attach to %s in 3 s",
		 m->peer, b->in_dev);
	return -ETIMEDOUT;
}

void peer_teardown(struct bench *b, const struct method *m)
{
	if (b->peer_pid > 0)
		bench_reap(b->peer_pid, SIGINT);
	b->peer_pid = 0;
	if (!ns_enter(b->ns[NS_DUT])) {
		bpf_xdp_detach(if_nametoindex(b->in_dev), 0, NULL);
		bpf_xdp_detach(if_nametoindex(b->out_dev), 0, NULL);
		ns_leave();
	}
	if (is_forward(m))
		router_prep(b, false);
	if (libxdp_dir[0])
		rmdir(libxdp_dir);
	libxdp_dir[0] = '\0';
}

/* Installed, and does it run here: tried once with the row's setup. */
const char *need_peer(struct bench *b, const struct method *m)
{
	char first[32], out[128];
	char *argv[] = { peer_bin(m, first, sizeof(first)), "--version", NULL };

	if (bench_capture(b, -1, argv, true, out, sizeof(out)) == 127)
		return method_reason(m, "%s is not installed%s", first,
				     is_forward(m) ?
				     " (xdp-tools 1.4 and later have it; Debian bookworm's xdp-tools 1.3.1 does not)" :
				     " (Debian package xdp-tools)");
	if (!b->own_ns)
		return "needs the bench's own namespaces (no dev)";
	b->err[0] = '\0';
	if (!peer_setup(b, m)) {
		peer_teardown(b, m);
		return NULL;
	}
	peer_teardown(b, m);
	return method_reason(m, "%s", b->err);
}
