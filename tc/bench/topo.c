// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench's topology: gen --veth-- dut --veth-- sink in three
 * namespaces of its own (removed at the end), or four devices of the
 * caller's namespace (handed back as they were), with the NAPI
 * threads pinned.  Also how the bench runs a command in one of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "bench.h"
#include "lib/netdev.h"
#include "lib/nsrun.h"
#include "lib/pins.h"
#include "lib/util.h"

/* Runs @argv in namespace @ns (-1: ours); its message, or that it
 * failed, goes to b->err.
 */
int bench_run_cmd(struct bench *b, int ns, char *const argv[])
{
	int ret = ns_exec(ns < 0 ? -1 : b->ns[ns], argv, b->err, sizeof(b->err));

	if (ret && !b->err[0])
		snprintf(b->err, sizeof(b->err), "%s failed (exit %d)", argv[0],
			 ret);
	return ret ? -EIO : 0;
}

/* In a child: into @ns, stdout (and stderr) to @fd, then @argv. */
static void exec_in(struct bench *b, int ns, char *const argv[], int fd,
		    bool err_too)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (ns >= 0 && setns(b->ns[ns], CLONE_NEWNET))
		_exit(126);
	dup2(fd >= 0 ? fd : null, STDOUT_FILENO);
	dup2(err_too && fd >= 0 ? fd : null, STDERR_FILENO);
	dup2(null, STDIN_FILENO);
	execvp(argv[0], argv);
	_exit(127);
}

int bench_capture(struct bench *b, int ns, char *const argv[], bool err_too,
		  char *out, size_t outlen)
{
	size_t len = 0;
	int p[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -errno;
	}
	if (!pid)
		exec_in(b, ns, argv, p[1], err_too);
	close(p[1]);
	while (len + 1 < outlen &&
	       (n = read(p[0], out + len, outlen - len - 1)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		len += n;
	}
	out[len] = '\0';
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

pid_t bench_spawn(struct bench *b, int ns, char *const argv[], int out_fd)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid)
		exec_in(b, ns, argv, out_fd, true);
	return pid;
}

int bench_reap(pid_t pid, int sig)
{
	int status, i;

	if (pid <= 0)
		return -EINVAL;
	kill(pid, sig);
	for (i = 0; i < 200; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) :
						   128 + WTERMSIG(status);
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return 128 + SIGKILL;
}

static void rand_tag(char *tag, size_t len)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	size_t i;

	srand(getpid() ^ time(NULL));
	for (i = 0; i + 1 < len; i++)
		tag[i] = set[rand() % (sizeof(set) - 1)];
	tag[len - 1] = '\0';
}

/* Threaded NAPI on the dut's ingress (and with `sink thread` on the
 * sink port), the kthreads pinned to the dut's CPU at nice -20: all the
 * forwarding work on one CPU, gen on the other, and none of it left to
 * ksoftirqd (nice 0), which loses to any other load on a shared
 * machine.  By default the sink's NAPI is not threaded: the dut's
 * flush schedules it on the dut's CPU and it runs in softirq right
 * there, in the dut's thread, with no wakeup of another thread and no
 * context switch per flush, which a NIC's egress does not cost either
 * (a threaded sink halved the XDP rows' rate on two CPUs).
 */
void napi_pin(struct bench *b)
{
	/* an xdp-loop row has the dut's ingress NAPI off its thread; the
	 * sink's has one only with `sink thread`
	 */
	const char *devs[] = { b->loop ? NULL : b->in_dev,
			       b->sink_thread ? b->sink_dev : NULL };
	char prefix[32];
	pid_t pids[8];
	cpu_set_t set;
	size_t d;
	int n, i;

	if (!b->napi_threaded)
		return;
	b->nnapi = 0;
	b->ndut_napi = 0;
	for (d = 0; d < ARRAY_SIZE(devs); d++) {
		if (!devs[d])
			continue;
		CPU_ZERO(&set);
		CPU_SET(d ? b->sink_cpu : b->dut_cpu, &set);
		snprintf(prefix, sizeof(prefix), "napi/%s-", devs[d]);
		n = kthreads_find(prefix, pids, 8);
		for (i = 0; i < n; i++) {
			sched_setaffinity(pids[i], sizeof(set), &set);
			setpriority(PRIO_PROCESS, pids[i], -20);
			if (b->nnapi < (int)ARRAY_SIZE(b->napi))
				b->napi[b->nnapi++] = pids[i];
		}
		if (!d)
			b->ndut_napi = b->nnapi;
		if (n <= 0)
			pr_info("bench: no NAPI thread %s* found to pin", prefix);
	}
}

/* Threaded NAPI on the devices napi_pin() pins (@on), or the kernel's
 * default (off: a NAPI runs in softirq on the CPU that scheduled it),
 * and the threads pinned again when they are back.  Nothing to do
 * where the bench never turned it on.
 */
int napi_thread_set(struct bench *b, bool on)
{
	const char *v = on ? "1" : "0";

	if (!b->napi_threaded)
		return 0;
	if (ns_sysfs_write(b->ns[NS_DUT], b->in_dev, "threaded", v) ||
	    (b->sink_thread &&
	     ns_sysfs_write(b->ns[NS_SINK], b->sink_dev, "threaded", v))) {
		snprintf(b->err, sizeof(b->err), "%s: cannot turn threaded NAPI %s",
			 b->in_dev, on ? "on" : "off");
		return -EIO;
	}
	if (on)
		napi_pin(b);
	return 0;
}

/* The three namespaces, named after @tag, with lo up and no IPv6. */
static int topo_namespaces(struct bench *b, const char *tag)
{
	static const char *const roles[NS_N] = { "gen", "dut", "sink" };
	int i;

	fprintf(stderr, "bench: topology in namespaces bpfwd-bench-{gen,dut,sink}-%s\n",
		tag);
	for (i = 0; i < NS_N; i++) {
		snprintf(b->ns_name[i], sizeof(b->ns_name[i]), "bpfwd-bench-%s-%s",
			 roles[i], tag);
		if (RUN(b, -1, "ip", "netns", "add", b->ns_name[i]))
			return -EIO;
		b->ns[i] = ns_open(b->ns_name[i]);
		if (b->ns[i] < 0) {
			snprintf(b->err, sizeof(b->err), "open netns %s: %s",
				 b->ns_name[i], strerror(-b->ns[i]));
			return b->ns[i];
		}
		RUN(b, i, "ip", "link", "set", "lo", "up");
		RUN(b, i, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
		    "net.ipv6.conf.default.disable_ipv6=1");
	}
	return 0;
}

/* The two one-queue veth pairs, up, with NAPI where XDP frames arrive. */
static int topo_links(struct bench *b)
{
	char *dev[NS_N][2] = {
		{ b->gen_dev, NULL }, { b->in_dev, b->out_dev },
		{ b->sink_dev, NULL },
	};
	int i, j;

	if (RUN(b, NS_DUT, "ip", "link", "add", b->in_dev, "numtxqueues", "1",
		"numrxqueues", "1", "type", "veth", "peer", b->gen_dev,
		"numtxqueues", "1", "numrxqueues", "1", "netns", b->ns_name[NS_GEN]) ||
	    RUN(b, NS_DUT, "ip", "link", "add", b->out_dev, "numtxqueues", "1",
		"numrxqueues", "1", "type", "veth", "peer", b->sink_dev,
		"numtxqueues", "1", "numrxqueues", "1", "netns", b->ns_name[NS_SINK]) ||
	    RUN(b, NS_GEN, "ip", "addr", "add", "192.0.2.1/24", "dev", b->gen_dev) ||
	    RUN(b, NS_SINK, "ip", "addr", "add", "192.0.2.2/24", "dev", b->sink_dev))
		return -EIO;
	for (i = 0; i < NS_N; i++)
		for (j = 0; j < 2 && dev[i][j]; j++)
			if (RUN(b, i, "ip", "link", "set", dev[i][j], "up"))
				return -EIO;
	/* NAPI where XDP frames arrive: the dut's ingress (from gen) and
	 * the sink (from the XDP rows).  gen and the sink put VLAN tags in
	 * the frame: one they inserted on transmit would be out of the
	 * dut's XDP's sight (route add hook xdp refuses such a device, the
	 * bridge passes all of its frames)
	 */
	if (RUN(b, NS_DUT, "ethtool", "-K", b->in_dev, "gro", "on") ||
	    RUN(b, NS_GEN, "ethtool", "-K", b->gen_dev, "txvlan", "off",
		"tx-vlan-stag-hw-insert", "off") ||
	    RUN(b, NS_SINK, "ethtool", "-K", b->sink_dev, "gro", "on",
		"txvlan", "off", "tx-vlan-stag-hw-insert", "off"))
		return -EIO;
	return 0;
}

/* The sink's MAC, for gen's neighbour entry and for the bridge's fdb. */
static int topo_sink_mac(struct bench *b)
{
	struct link_info li;
	char mac[18];
	int err, idx;

	ns_enter(b->ns[NS_SINK]);
	idx = if_nametoindex(b->sink_dev);
	err = idx ? netdev_link(idx, &li) : -ENODEV;
	ns_leave();
	if (err) {
		snprintf(b->err, sizeof(b->err), "%s: %s", b->sink_dev,
			 strerror(-err));
		return err;
	}
	memcpy(b->sink_mac, li.mac, 6);
	snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", li.mac[0],
		 li.mac[1], li.mac[2], li.mac[3], li.mac[4], li.mac[5]);
	if (RUN(b, NS_GEN, "ip", "neigh", "replace", "192.0.2.2", "lladdr", mac,
		"dev", b->gen_dev, "nud", "permanent"))
		return -EIO;
	return 0;
}

int topo_build(struct bench *b)
{
	char tag[5];
	int err;

	rand_tag(tag, sizeof(tag));
	snprintf(b->gen_dev, IF_NAMESIZE, "bwg-%s", tag);
	snprintf(b->in_dev, IF_NAMESIZE, "bwi-%s", tag);
	snprintf(b->out_dev, IF_NAMESIZE, "bwo-%s", tag);
	snprintf(b->sink_dev, IF_NAMESIZE, "bws-%s", tag);
	err = topo_namespaces(b, tag);
	if (!err)
		err = topo_links(b);
	if (err)
		return err;
	if (b->gen_cpu != b->dut_cpu) {
		if (ns_sysfs_write(b->ns[NS_DUT], b->in_dev, "threaded", "1") ||
		    (b->sink_thread &&
		     ns_sysfs_write(b->ns[NS_SINK], b->sink_dev, "threaded", "1")))
			pr_warn("bench: threaded NAPI on %s not available: the dut shares gen's CPU",
				b->in_dev);
		else
			b->napi_threaded = true;
	}
	napi_pin(b);
	err = topo_sink_mac(b);
	if (err)
		return err;
	ns_enter(b->ns[NS_DUT]);
	b->cookie = netns_cookie();
	ns_leave();
	return 0;
}

/* Device mode: the caller's namespace and devices, nothing created but
 * the sink's counter (cli.c) and each row's own setup.
 */
int topo_devices(struct bench *b, char **dev)
{
	struct link_info li;
	int i, idx;

	for (i = 0; i < NS_N; i++) {
		b->ns[i] = ns_open(NULL);
		if (b->ns[i] < 0)
			return b->ns[i];
	}
	snprintf(b->gen_dev, IF_NAMESIZE, "%s", dev[0]);
	snprintf(b->in_dev, IF_NAMESIZE, "%s", dev[1]);
	snprintf(b->out_dev, IF_NAMESIZE, "%s", dev[2]);
	snprintf(b->sink_dev, IF_NAMESIZE, "%s", dev[3]);
	for (i = 0; i < 4; i++) {
		idx = ifindex_of(dev[i], NULL);
		if (idx < 0)
			return idx;
	}
	idx = if_nametoindex(b->sink_dev);
	if (netdev_link(idx, &li)) {
		p_err("%s: cannot read it", b->sink_dev);
		return -EIO;
	}
	memcpy(b->sink_mac, li.mac, 6);
	b->cookie = netns_cookie();
	return 0;
}

static void rm_pins(const char *path)
{
	char *argv[] = { "rm", "-rf", (char *)path, NULL };

	ns_exec(-1, argv, NULL, 0);
}

void topo_destroy(struct bench *b)
{
	char dir[PATH_MAX];
	int i;

	if (!b->own_ns)
		return;
	for (i = 0; i < NS_N; i++) {
		if (b->ns[i] >= 0)
			close(b->ns[i]);
		b->ns[i] = -1;
		if (b->ns_name[i][0])
			RUN(b, -1, "ip", "netns", "del", b->ns_name[i]);
	}
	/* pins a row may have left under the dut's cookie */
	if (b->cookie) {
		snprintf(dir, sizeof(dir), "%s/bpfwd/%llu", bpffs_root(),
			 (unsigned long long)b->cookie);
		rm_pins(dir);
	}
}
