// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench peer rows: other XDP forwarders on the same dut, counted
 * as the other rows are.  xdp-tools' xdp-bench redirect (bpf_redirect)
 * and redirect-map (a devmap) run between the dut's ports until SIGINT;
 * xdp-forward (xdp-tools 1.5 and later; `load -f fib -F full|direct`)
 * loads its FIB-lookup program on both ports and exits, and its row
 * runs `xdp-forward unload` at teardown.  In the cross topology the
 * xdp-forward row makes the dut a router for the sink's address
 * (forwarding on, a host route and a neighbour entry on OUT; gen's
 * frames keep the sink's destination MAC, which an XDP FIB lookup does
 * not check); topology router has its routes already.
 *
 * A peer is the first word of its command, found through $PATH (an
 * operator points the bench at a build elsewhere by putting its
 * directory first), and runs in the dut's namespace entered by setns
 * (so it sees the bpffs, which `ip netns exec` would hide).  Whether it
 * runs at all is tried once, before the rounds, on the dut's devices:
 * a peer that exits instead of attaching is skipped with its own
 * error (libbpf's line naming a kernel BTF type it misses, if any, and
 * its last line) and version.  xdp-tools 1.3.1 (Debian bookworm) takes
 * a lock file RUNDIR/PROG.lck for every command and leaves it when it
 * is killed; one whose process is gone is removed first.  libxdp makes
 * BPFFS/xdp for its dispatchers and leaves it (BPFFS: $LIBXDP_BPFFS or
 * /sys/fs/bpf, libxdp's rule, not bpfwd's): when it was not there
 * before, it goes (if empty).
 */
#include <errno.h>
#include <fcntl.h>
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
#include "lib/trust.h"
#include "lib/util.h"

/* where xdp-tools 1.3.1 keeps its lock files (its RUNDIR default) */
#define PEER_RUNDIR "/run"
#define PEER_ARGS 12

/* The peer's program: the first word of its command. */
static char *peer_bin(const struct method *m, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(m->peer, " "), m->peer);
	return buf;
}

/* @cmd split into @argv (at most @max - 1 words, NULL-terminated) in
 * @buf; returns the number of words.
 */
static int split_words(const char *cmd, char *buf, size_t len, char **argv,
		       int max)
{
	char *save = NULL, *w;
	int n = 0;

	snprintf(buf, len, "%s", cmd);
	for (w = strtok_r(buf, " ", &save); w && n < max - 1;
	     w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n] = NULL;
	return n;
}

/* Where execvp() finds @prog in $PATH, into @path; false if nowhere. */
static bool peer_which(const char *prog, char *path, size_t len)
{
	const char *env = getenv("PATH");
	char dirs[4096], *d, *save = NULL;

	snprintf(dirs, sizeof(dirs), "%s", env ? env : "/usr/bin:/bin");
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(path, len, "%s/%s", *d ? d : ".", prog);
		if (!access(path, X_OK))
			return true;
	}
	return false;
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

/* The peer's version line into @ver: xdp-tools takes --version after a
 * command (`xdp-bench redirect --version`, `xdp-forward load --version`).
 */
static void peer_version(struct bench *b, const struct method *m, char *ver,
			 size_t len)
{
	char buf[128], *argv[PEER_ARGS];
	int n = split_words(m->peer, buf, sizeof(buf), argv, PEER_ARGS);

	argv[n > 1 ? 2 : 1] = "--version";
	argv[n > 1 ? 3 : 2] = NULL;
	ver[0] = '\0';
	if (bench_capture(b, -1, argv, true, ver, len) < 0)
		ver[0] = '\0';
	ver[strcspn(ver, "\n")] = '\0';
	if (strncasecmp(ver, "xdp", 3))	/* not a version line */
		ver[0] = '\0';
}

/* Why the peer of @m exited, from its output @out, into b->err. */
static void peer_failed(struct bench *b, const struct method *m,
			const char *out, int status)
{
	char btf[160] = "", last[160] = "", ver[96];
	const char *p = out + strlen(out);

	while (p > out && p[-1] == '\n')
		p--;
	while (p > out && p[-1] != '\n')
		p--;
	snprintf(last, sizeof(last), "%.*s", (int)strcspn(p, "\n"), p);
	line_with(out, "failed to find kernel BTF type ID", btf, sizeof(btf));
	peer_version(b, m, ver, sizeof(ver));
	if (!status && !last[0])
		snprintf(last, sizeof(last), "exited 0 with no XDP program on %s",
			 b->in_dev);
	snprintf(b->err, sizeof(b->err), "%s (%s) exits (status %d) instead of attaching: %s%s%s%s",
		 m->peer, ver[0] ? ver : "version unknown", status, btf,
		 btf[0] ? "; " : "", last,
		 btf[0] ? " (a program of it needs a kernel BTF type this kernel does not have)" : "");
}

/* xdp-tools 1.3.1's lock file of @m's program: removed when the process
 * it names is gone; -EBUSY (and b->err) when it still runs.
 */
static int stale_lock(struct bench *b, const struct method *m)
{
	char bin[32], path[PATH_MAX], buf[32] = "";
	long pid = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), PEER_RUNDIR "/%s.lck",
		 peer_bin(m, bin, sizeof(bin)));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n > 0)
		pid = strtol(buf, NULL, 10);
	if (pid <= 0) {
		snprintf(b->err, sizeof(b->err), "%s names no pid: remove it if no %s runs",
			 path, bin);
		return -EBUSY;
	}
	if (!kill(pid, 0) || errno != ESRCH) {
		snprintf(b->err, sizeof(b->err), "%s is held by pid %ld, which still runs",
			 path, pid);
		return -EBUSY;
	}
	if (unlink(path) && errno != ENOENT) {
		snprintf(b->err, sizeof(b->err), "remove %s's stale lock %s: %s",
			 bin, path, strerror(errno));
		return -errno;
	}
	fprintf(stderr, "bench: removed %s's stale lock %s (pid %ld is gone)\n",
		bin, path, pid);
	return 0;
}

static char libxdp_dir[PATH_MAX];

/* Waits up to 3 s for the peer to attach to IN: a peer that keeps
 * running must not exit, one that loads and exits (.peer_unload) must
 * exit 0 with its program on IN.
 */
static int peer_wait(struct bench *b, const struct method *m, FILE *f)
{
	int status = 0, i, ret;
	char out[4096];
	size_t n;

	for (i = 0; i < 300; i++) {
		if (waitpid(b->peer_pid, &status, WNOHANG) == b->peer_pid) {
			b->peer_pid = 0;
			ret = WIFEXITED(status) ? WEXITSTATUS(status) :
						  128 + WTERMSIG(status);
			if (m->peer_unload && !ret && xdp_id(b, b->in_dev))
				return 0;
			rewind(f);
			n = fread(out, 1, sizeof(out) - 1, f);
			out[n] = '\0';
			peer_failed(b, m, out, ret);
			return -EIO;
		}
		if (!m->peer_unload && xdp_id(b, b->in_dev))
			return 0;
		usleep(10000);
	}
	snprintf(b->err, sizeof(b->err), "%s did not attach to %s in 3 s",
		 m->peer, b->in_dev);
	return -ETIMEDOUT;
}

int peer_setup(struct bench *b, const struct method *m)
{
	char *argv[PEER_ARGS + 2], buf[128];
	FILE *f;
	int argc, err;

	argc = split_words(m->peer, buf, sizeof(buf), argv, PEER_ARGS);
	argv[argc++] = b->in_dev;
	argv[argc++] = b->out_dev;
	argv[argc] = NULL;
	err = stale_lock(b, m);
	if (err)
		return err;
	if (m->peer_router && router_prep(b, true))
		return -EIO;
	f = tmpfile();
	if (!f)
		return -errno;
	snprintf(libxdp_dir, sizeof(libxdp_dir), "%s/xdp",
		 env_path("LIBXDP_BPFFS") ?: "/sys/fs/bpf");
	if (!access(libxdp_dir, F_OK))
		libxdp_dir[0] = '\0';
	b->peer_pid = bench_spawn(b, NS_DUT, argv, fileno(f));
	err = b->peer_pid > 0 ? peer_wait(b, m, f) : (int)b->peer_pid;
	fclose(f);
	return err;
}

/* `@m->peer_unload IN OUT` in the dut; its failure is a warning. */
static void peer_unload(struct bench *b, const struct method *m)
{
	char *argv[PEER_ARGS + 2], buf[128], err[ERRLEN];
	int argc = split_words(m->peer_unload, buf, sizeof(buf), argv,
			       PEER_ARGS);

	argv[argc++] = b->in_dev;
	argv[argc++] = b->out_dev;
	argv[argc] = NULL;
	if (xdp_id(b, b->in_dev) &&
	    ns_exec(b->ns[NS_DUT], argv, err, sizeof(err)))
		pr_warn("bench: %s %s %s: %s", m->peer_unload, b->in_dev,
			b->out_dev, err);
}

void peer_teardown(struct bench *b, const struct method *m)
{
	if (b->peer_pid > 0)
		bench_reap(b->peer_pid, SIGINT);
	b->peer_pid = 0;
	if (m->peer_unload)
		peer_unload(b, m);
	if (!ns_enter(b->ns[NS_DUT])) {
		bpf_xdp_detach(if_nametoindex(b->in_dev), 0, NULL);
		bpf_xdp_detach(if_nametoindex(b->out_dev), 0, NULL);
		ns_leave();
	}
	if (m->peer_router)
		router_prep(b, false);
	if (libxdp_dir[0])
		rmdir(libxdp_dir);
	libxdp_dir[0] = '\0';
}

/* Installed, and does it run here: tried once with the row's setup. */
const char *need_peer(struct bench *b, const struct method *m)
{
	char first[32], path[PATH_MAX], ver[96];
	const char *why;

	if (!peer_which(peer_bin(m, first, sizeof(first)), path, sizeof(path)))
		return method_reason(m, "%s not found in PATH%s", first,
				     m->peer_unload ?
				     " (xdp-tools 1.5 and later have it; Debian bookworm's xdp-tools 1.3.1 does not)" :
				     " (Debian package xdp-tools)");
	if (!b->own_ns)
		return "needs the bench's own namespaces (no dev)";
	b->err[0] = '\0';
	if (peer_setup(b, m)) {
		/* teardown's commands reuse b->err */
		why = method_reason(m, "%s", b->err[0] ? b->err : "setup failed");
		peer_teardown(b, m);
		return why;
	}
	peer_teardown(b, m);
	peer_version(b, m, ver, sizeof(ver));
	fprintf(stderr, "bench: %s: %s, %s\n", m->name, path,
		ver[0] ? ver : "version unknown");
	return NULL;
}
