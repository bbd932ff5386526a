// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench: how much faster than the Linux bridge is each way of
 * forwarding, measured on this machine, in one command.
 *
 * It builds gen --veth-- dut --veth-- sink in namespaces of its own (or
 * uses four given devices), then, round after round, sets up each
 * method on the dut, offers XDP live frames from gen pinned to one CPU
 * and counts what reaches the sink for a fixed window.  Methods are
 * interleaved (each round starts one further down the list) and each is
 * compared with the bridge measured in the same round, because on a
 * small shared VM the rate of one window varies far more than the
 * difference between methods.  Medians and spreads of those per-round
 * ratios are the result; the CPU time other tasks took during each window
 * is logged and noisy windows are left out of the medians.
 *
 * Every forwarding row is counted the same way: by gen.o's cnt_tc_drop
 * on the sink port's tc ingress (count, then drop), so no row pays for
 * a sink stack.  The limit rows (tc-drop, xdp-drop) drop at the dut's
 * ingress and are counted by their own drop program.
 *
 * The monitor rows (redirect+mon-errors, ...) are another row (their
 * "off" row) with bpfwd monitor's programs attached by this process for
 * the window; they report, beside the bridge ratio, the per-round ratio
 * to that row and the ns per packet the monitor adds.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfwd.h"
#include "lib/attach.h"
#include "lib/json.h"
#include "lib/livegen.h"
#include "lib/monitor.h"
#include "lib/netdev.h"
#include "lib/nl.h"
#include "lib/nsrun.h"
#include "lib/pins.h"
#include "lib/ports.h"
#include "lib/util.h"
#include "gen.skel.h"

#define MAX_METHODS	32
#define MAX_ROUNDS	100
#define ERRLEN		256
#define WARMUP_S	0.3
#define NOISE_PCT_DEF	25	/* % of a CPU others took that voids a window */

int bench_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("Usage: bpfwd bench [ method LIST ] [ rounds N ] [ duration S ] [ size BYTES ]\n"
	       "                   [ plot FILE.png|FILE.svg ] [ save FILE.json ] [ noise PCT ]\n"
	       "                   [ count { xdp | tc } ] [ sink { inline | thread } ]\n"
	       "                   [ dev GEN DUT_IN DUT_OUT SINK ]\n"
	       "       bpfwd bench list\n"
	       "where  LIST := { all | NAME[,NAME...] }\n");
	return BPFWD_EXIT_OK;
}

/* Where the pieces are.  Namespace mode: ns[] are ours, removed at the
 * end; device mode: all the caller's namespace.
 */
enum { NS_GEN, NS_DUT, NS_SINK, NS_N };

struct sample {
	double mpps;		/* delivered (or dropped, for limit rows) */
	double gen_mpps;	/* offered by gen over the whole run */
	double others;		/* CPU others used in the window, % of one */
	double dut_ns;		/* the dut's CPU time per packet, or NAN */
	bool noisy;
	bool done;
};

struct bench;

/* Which monitor a row runs while it is measured. */
enum bench_mon { MON_OFF, MON_ERRORS, MON_ALL, MON_NOBULK };

static const char *const mon_names[] = {
	[MON_ERRORS] = "errors", [MON_ALL] = "all", [MON_NOBULK] = "nobulk",
};

/* One row.  Adding a row is one entry in methods[] below: a name, what
 * it is, an optional check that says why it cannot run here, setup and
 * teardown on the dut (bpfwd port rows need only @port_args), and which
 * limit row it is compared with.
 */
struct method {
	const char *name;
	const char *desc;
	const char *(*skip)(struct bench *b);	/* reason, or NULL */
	int (*setup)(struct bench *b, const struct method *m);
	void (*teardown)(struct bench *b, const struct method *m);
	const char *port_args;	/* for port_setup: "mode M hook H" */
	const char *limit;	/* "tc-drop" / "xdp-drop" / NULL (is one) */
};

struct row {
	const struct method *m;
	const char *skipped;	/* reason */
	char failed[ERRLEN];	/* setup or measurement failed: reason */
	struct sample s[MAX_ROUNDS];
};

struct bench {
	bool own_ns;
	char ns_name[NS_N][64];
	int ns[NS_N];
	char gen_dev[IF_NAMESIZE], in_dev[IF_NAMESIZE];
	char out_dev[IF_NAMESIZE], sink_dev[IF_NAMESIZE];
	uint8_t sink_mac[6];
	uint32_t rounds, duration, size, noise_pct;
	int gen_cpu, dut_cpu, sink_cpu;
	bool count_xdp;		/* count at the sink with XDP, not tc */
	bool sink_thread;	/* the sink's NAPI in a kthread of its own */
	bool live;		/* stderr is a terminal: rate while measuring */
	uint32_t cur_round;
	const char *cur_name;
	const char *plot;
	const char *save;	/* the JSON document also goes there */
	struct gen *sink_cnt;	/* counter on the sink port */
	struct gen *dut_prog;	/* program a method loaded on the dut */
	int count_fd;		/* counter map this row reads */
	bool napi_threaded;
	pid_t napi[16];		/* NAPI kthreads working for us */
	int nnapi;
	int ndut_napi;		/* napi[0..ndut_napi): the dut's ingress */
	pid_t kth[8];		/* a cpumap row's kthreads (the dut's too) */
	int nkth;
	char br_nf[3];		/* the dut's bridge-nf-call-* before a bridge row */
	bool loop;		/* an xdp-loop row: all of it on gen's CPU */
	pid_t ksoftirqd;	/* gen CPU's, ours in a loop row */
	char err[ERRLEN];
	struct row rows[MAX_METHODS];
	int nrows;
	uint64_t cookie;	/* dut netns cookie, for leftover pins */
	struct mon mon;		/* a monitor row's monitor, while it runs */
};

static volatile sig_atomic_t bench_stop;

static void on_signal(int sig)
{
	(void)sig;
	bench_stop = 1;
}

/* --- running things on the dut ----------------------------------- */

static int run(struct bench *b, int ns, char *const argv[])
{
	int ret = ns_exec(ns < 0 ? -1 : b->ns[ns], argv, b->err, sizeof(b->err));

	if (ret && !b->err[0])
		snprintf(b->err, sizeof(b->err), "%s failed (exit %d)", argv[0],
			 ret);
	return ret ? -EIO : 0;
}

#define RUN(b, ns, ...) run(b, ns, (char *const[]){ __VA_ARGS__, NULL })

static int bench_port_fn(void *arg)
{
	char **argv = arg;
	int argc = 0;

	while (argv[argc])
		argc++;
	opts.json = opts.pretty = false;
	opts.cmd = NULL;
	return do_port(argc, argv);
}

/* bpfwd port add dev IN to OUT <port_args>, in the dut, in a child so
 * that its messages become this row's reason.
 */
static int port_setup(struct bench *b, const struct method *m)
{
	char args[128], *argv[24];
	int argc = 0;
	char *tok, *save;

	argv[argc++] = "add";
	argv[argc++] = "dev";
	argv[argc++] = b->in_dev;
	argv[argc++] = "to";
	argv[argc++] = b->out_dev;
	snprintf(args, sizeof(args), "%s", m->port_args);
	for (tok = strtok_r(args, " ", &save); tok && argc < 22;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	if (ns_call(b->ns[NS_DUT], bench_port_fn, argv, b->err, sizeof(b->err)))
		return -EIO;
	return 0;
}

/* The cpumap kthread of the dut's bpfwd_cpumap on @cpu gets nice -20,
 * as the NAPI threads have (at nice 0 it would get ~1% of a CPU next to
 * them), and counts as ours, not as noise.  Its name is
 * "cpumap/CPU/map:ID" cut to 15 characters.
 */
static void cpumap_kthread_pin(struct bench *b, int cpu)
{
	struct bpf_map_info info = { 0 };
	uint32_t len = sizeof(info);
	char path[PATH_MAX], name[16];
	pid_t pids[4];
	int fd, n, i;

	snprintf(path, sizeof(path), "%s/bpfwd/%llu/%s", bpffs_root(),
		 (unsigned long long)b->cookie, BPFWD_MAP_CPUMAP);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return;
	if (!bpf_obj_get_info_by_fd(fd, &info, &len)) {
		snprintf(name, sizeof(name), "cpumap/%d/map:%u", cpu, info.id);
		n = kthreads_find(name, pids, ARRAY_SIZE(pids));
		for (i = 0; i < n; i++) {
			setpriority(PRIO_PROCESS, pids[i], -20);
			if (b->nkth < (int)ARRAY_SIZE(b->kth))
				b->kth[b->nkth++] = pids[i];
		}
		if (n <= 0)
			pr_info("bench: no cpumap kthread %s found", name);
	}
	close(fd);
}

/* cpumap rows: the queue goes to a CPU neither gen nor the dut's NAPI
 * runs on, where there is one; else to the dut's CPU (gen's, at nice
 * -20 and always busy, would starve the cpumap kthread).  @port_args
 * has a %d for it.
 */
static int cpumap_setup(struct bench *b, const struct method *m)
{
	struct method mm = *m;
	char args[64];
	int cpu = nr_cpus() > 2 ? 2 : b->dut_cpu >= 0 ? b->dut_cpu : 0;
	int err;

	snprintf(args, sizeof(args), m->port_args, cpu);
	mm.port_args = args;
	err = port_setup(b, &mm);
	if (!err)
		cpumap_kthread_pin(b, cpu);
	return err;
}

static void port_teardown(struct bench *b, const struct method *m)
{
	char *argv[] = { "del", "dev", b->in_dev, NULL };
	char err[ERRLEN];

	(void)m;
	ns_call(b->ns[NS_DUT], bench_port_fn, argv, err, sizeof(err));
}

/* br_netfilter (built in, or loaded by Docker and friends) passes every
 * bridged frame through the netfilter hooks when the namespace's
 * bridge-nf-call-* say so, and they are 1 in a new namespace: a bridge
 * at about three quarters of its speed.  The bridge row turns them off in
 * the dut (the bridge's own speed, the peer to beat); bridge-nf keeps
 * them on, as such a host forwards.
 */
#define BR_NF_DIR "/proc/sys/net/bridge"

static const char *need_br_nf(struct bench *b)
{
	(void)b;
	return access(BR_NF_DIR, F_OK) ? "no br_netfilter in this kernel (not loaded)" :
					 NULL;
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

	if (need_br_nf(b))
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

static int bridge_setup(struct bench *b, const struct method *m)
{
	char mac[18];
	const char *nf = strcmp(m->name, "bridge-nf") ? "000" : "111";

	memset(b->br_nf, 0, sizeof(b->br_nf));
	if (bridge_nf_set(b, nf, b->br_nf))
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

static void bridge_teardown(struct bench *b, const struct method *m)
{
	(void)m;
	RUN(b, NS_DUT, "ip", "link", "del", "bwbr0");
	if (bridge_nf_set(b, b->br_nf, NULL))
		pr_warn("bench: %s", b->err);
	memset(b->br_nf, 0, sizeof(b->br_nf));
}

static int mirred_setup(struct bench *b, const struct method *m)
{
	(void)m;
	if (RUN(b, NS_DUT, "tc", "qdisc", "add", "dev", b->in_dev, "clsact") ||
	    RUN(b, NS_DUT, "tc", "filter", "add", "dev", b->in_dev, "ingress",
		"prio", "1", "protocol", "all", "u32", "match", "u32", "0", "0",
		"action", "mirred", "egress", "redirect", "dev", b->out_dev))
		return -EIO;
	return 0;
}

static void clsact_teardown(struct bench *b, const struct method *m)
{
	(void)m;
	RUN(b, NS_DUT, "tc", "qdisc", "del", "dev", b->in_dev, "clsact");
	if (b->dut_prog) {
		gen__destroy(b->dut_prog);
		b->dut_prog = NULL;
	}
}

/* Loads one program of gen.o (the others not) with a fixed target. */
static int gen_prog(struct bench *b, struct bpf_program *(*pick)(struct gen *),
		    uint32_t target, struct gen **out, int *fd)
{
	struct bpf_program *p, *want;
	struct gen *g = gen__open();
	int err;

	if (!g) {
		snprintf(b->err, sizeof(b->err), "open gen.o: %s", strerror(errno));
		return -errno;
	}
	want = pick(g);
	g->rodata->fixed_target = target;
	bpf_object__for_each_program(p, g->obj)
		bpf_program__set_autoload(p, p == want);
	err = gen__load(g);
	if (err) {
		snprintf(b->err, sizeof(b->err), "load gen.o %s: %s",
			 bpf_program__name(want), strerror(-err));
		gen__destroy(g);
		return err;
	}
	*out = g;
	*fd = bpf_program__fd(want);
	return 0;
}

static struct bpf_program *pick_fixed(struct gen *g)
{
	return g->progs.fixed_redir;
}

static struct bpf_program *pick_tc_drop(struct gen *g)
{
	return g->progs.cnt_tc_drop;
}

static struct bpf_program *pick_tc_consume(struct gen *g)
{
	return g->progs.cnt_tc_consume;
}

static struct bpf_program *pick_xdp_drop(struct gen *g)
{
	return g->progs.cnt_xdp_drop;
}

/* A gen.o tc program at the ingress of @dev in namespace @ns. */
static int tc_prog_setup(struct bench *b, int ns, const char *dev,
			 struct bpf_program *(*pick)(struct gen *),
			 struct gen **out)
{
	int fd, err, in, to = 0;
	bool created;

	err = ns_enter(b->ns[ns]);
	if (err) {
		snprintf(b->err, sizeof(b->err), "setns: %s", strerror(-err));
		return err;
	}
	in = if_nametoindex(dev);
	if (pick == pick_fixed)
		to = if_nametoindex(b->out_dev);
	if (!in || (pick == pick_fixed && !to)) {
		snprintf(b->err, sizeof(b->err), "%s: no such device", dev);
		err = -ENODEV;
		goto out;
	}
	err = gen_prog(b, pick, to, out, &fd);
	if (err)
		goto out;
	err = nl_clsact_add(in, &created);
	if (!err)
		err = nl_bpf_filter_set(in, false, 1, fd,
					bpf_program__name(pick(*out)), false);
	if (err) {
		snprintf(b->err, sizeof(b->err), "tc filter on %s: %s%s%s", dev,
			 strerror(-err), nl_extack[0] ? ": " : "", nl_extack);
		gen__destroy(*out);
		*out = NULL;
	}
out:
	ns_leave();
	return err;
}

static int fixed_setup(struct bench *b, const struct method *m)
{
	(void)m;
	return tc_prog_setup(b, NS_DUT, b->in_dev, pick_fixed, &b->dut_prog);
}

static int tc_drop_setup(struct bench *b, const struct method *m)
{
	int err;

	(void)m;
	err = tc_prog_setup(b, NS_DUT, b->in_dev, pick_tc_drop, &b->dut_prog);
	if (!err)
		b->count_fd = bpf_map__fd(b->dut_prog->maps.bpfwd_cnt);
	return err;
}

static int xdp_drop_setup(struct bench *b, const struct method *m)
{
	int fd, err, in;

	(void)m;
	err = ns_enter(b->ns[NS_DUT]);
	if (err)
		return err;
	in = if_nametoindex(b->in_dev);
	err = gen_prog(b, pick_xdp_drop, 0, &b->dut_prog, &fd);
	if (!err) {
		err = bpf_xdp_attach(in, fd, XDP_FLAGS_DRV_MODE, NULL);
		if (err)
			snprintf(b->err, sizeof(b->err), "native XDP on %s: %s",
				 b->in_dev, strerror(-err));
		else
			b->count_fd = bpf_map__fd(b->dut_prog->maps.bpfwd_cnt);
	}
	ns_leave();
	return err;
}

static void xdp_drop_teardown(struct bench *b, const struct method *m)
{
	(void)m;
	if (!ns_enter(b->ns[NS_DUT])) {
		bpf_xdp_detach(if_nametoindex(b->in_dev), XDP_FLAGS_DRV_MODE, NULL);
		ns_leave();
	}
	if (b->dut_prog) {
		gen__destroy(b->dut_prog);
		b->dut_prog = NULL;
	}
}

/* xdp-loop rows: the setting of the 2017 tracepoint measurement, one
 * CPU doing nothing but XDP redirects.  gen's live frames go through
 * xdp_do_redirect() into the dut's ingress veth, whose NAPI is taken
 * off its thread so that it runs in softirq on gen's CPU, right after
 * gen's own flush, and drops them there.  No second CPU, no cross-CPU
 * ring or page return: per frame, the CPU time of gen (and its CPU's
 * ksoftirqd) is the cost of one redirect plus one drop, steady enough
 * to show a few ns a tracepoint probe adds.
 */
static const char *need_loop(struct bench *b)
{
	if (!b->own_ns)
		return "needs the bench's own namespaces (no dev)";
	return b->napi_threaded ? NULL : "needs threaded NAPI and two CPUs";
}

static int loop_setup(struct bench *b, const struct method *m)
{
	char name[32];
	pid_t pid;

	if (ns_sysfs_write(b->ns[NS_DUT], b->in_dev, "threaded", "0")) {
		snprintf(b->err, sizeof(b->err), "%s: cannot turn threaded NAPI off",
			 b->in_dev);
		return -EIO;
	}
	b->loop = true;
	snprintf(name, sizeof(name), "ksoftirqd/%d", b->gen_cpu);
	b->ksoftirqd = kthreads_find(name, &pid, 1) == 1 ? pid : 0;
	return xdp_drop_setup(b, m);
}

static void loop_teardown(struct bench *b, const struct method *m)
{
	xdp_drop_teardown(b, m);
	if (ns_sysfs_write(b->ns[NS_DUT], b->in_dev, "threaded", "1"))
		pr_warn("bench: %s: threaded NAPI not back on", b->in_dev);
	b->loop = false;
	b->ksoftirqd = 0;
}

static const char *need_tcx(struct bench *b)
{
	(void)b;
	return kernel_has_tcx() ? NULL : "kernel has no tcx (Linux >= 6.6)";
}

/* act_bpf: tried in a throwaway namespace of a child, as probe does. */
static int act_fn(void *arg)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	bool created;
	int fd;

	(void)arg;
	if (unshare(CLONE_NEWNET))
		return 1;
	fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_ACT, "bpfwd_probe", "GPL",
			   insns, 2, NULL);
	if (fd < 0 || nl_clsact_add(1, &created))
		return 1;
	return nl_act_filter_add(1, false, 1, fd, "probe") ? 2 : 0;
}

static const char *need_act_bpf(struct bench *b)
{
	static int have = -1;
	char err[ERRLEN];

	(void)b;
	if (have < 0)
		have = !ns_call(-1, act_fn, NULL, err, sizeof(err));
	return have ? NULL :
		"kernel has no act_bpf (CONFIG_NET_ACT_BPF): u32 + act_bpf cannot run here";
}

static const struct method *method_find(const char *name);

/* Whether the monitor starts here at all, tried once per mode in a
 * child so that what it prints becomes the rows' reason.
 */
static int mon_probe_fn(void *arg)
{
	struct mon m = { .all = *(bool *)arg, .any_netns = true };

	opts.json = false;
	opts.cmd = "bench: monitor";
	if (mon_start(&m))
		return 1;
	mon_stop(&m);
	return 0;
}

static const char *need_mon(bool all)
{
	static char reason[2][ERRLEN];
	static int have[2] = { -1, -1 };
	char err[ERRLEN];

	if (have[all] < 0) {
		have[all] = !ns_call(-1, mon_probe_fn, &all, err, sizeof(err));
		if (!have[all])
			snprintf(reason[all], sizeof(reason[all]),
				 "the monitor cannot run here: %s",
				 err[0] ? err : "it failed to start");
	}
	return have[all] ? NULL : reason[all];
}

static const char *need_mon_errors(struct bench *b)
{
	(void)b;
	return need_mon(false);
}

static const char *need_mon_all(struct bench *b)
{
	(void)b;
	return need_mon(true);
}

/* Monitor rows are named OFF+mon-errors, OFF+mon-all and
 * OFF+mon-nobulk (errors only without the bulk tracepoints): row OFF
 * with the monitor running.  Returns which monitor, and OFF in @off.
 */
static enum bench_mon mon_of(const struct method *m, const struct method **off)
{
	const char *p = strstr(m->name, "+mon-");
	enum bench_mon mon;
	char name[32];

	if (!p)
		return MON_OFF;
	if (!strcmp(p, "+mon-errors"))
		mon = MON_ERRORS;
	else if (!strcmp(p, "+mon-all"))
		mon = MON_ALL;
	else if (!strcmp(p, "+mon-nobulk"))
		mon = MON_NOBULK;
	else
		return MON_OFF;
	snprintf(name, sizeof(name), "%.*s", (int)(p - m->name), m->name);
	*off = method_find(name);
	return *off ? mon : MON_OFF;
}

/* A monitor row: its off row set up as that row is, then the monitor
 * started in this process, for every namespace (the bench's are not
 * the one it runs in).
 */
static int mon_setup(struct bench *b, const struct method *m)
{
	const struct method *off = NULL;
	enum bench_mon mon = mon_of(m, &off);
	bool json = opts.json;
	int err;

	if (mon == MON_OFF) {
		snprintf(b->err, sizeof(b->err), "%s: no such row to add the monitor to",
			 m->name);
		return -ENOENT;
	}
	err = off->setup(b, off);
	if (err)
		return err;
	memset(&b->mon, 0, sizeof(b->mon));
	b->mon.all = mon == MON_ALL;
	b->mon.no_bulk = mon == MON_NOBULK;
	b->mon.any_netns = true;
	/* its message to stderr, not into the JSON document */
	opts.json = false;
	err = mon_start(&b->mon);
	opts.json = json;
	if (err)
		snprintf(b->err, sizeof(b->err), "monitor %s: %s (see above)",
			 mon_names[mon], strerror(-err));
	return err;
}

static void mon_teardown(struct bench *b, const struct method *m)
{
	const struct method *off = NULL;

	mon_stop(&b->mon);
	if (mon_of(m, &off) != MON_OFF)
		off->teardown(b, off);
}

/* The rows, in the order they run within a round.  To add one: one
 * entry here.  A row driven by `bpfwd port` only needs port_setup,
 * port_teardown and its port arguments, e.g. the XDP rows:
 *   { "xdp", "XDP redirect, bpfwd port hook xdp", NULL, port_setup,
 *     port_teardown, "mode redirect hook xdp", "xdp-drop" },
 * (plus a skip function when the kernel or device may lack it).  A row
 * with the monitor running is named OFF+mon-errors or OFF+mon-all and
 * takes need_mon_*, mon_setup and mon_teardown, which run OFF's.
 */
static const struct method methods[] = {
	{ "bridge", "Linux bridge between the dut ports (bridge-nf-call-* off)",
	  NULL, bridge_setup, bridge_teardown, NULL, "tc-drop" },
	{ "bridge-nf", "Linux bridge with br_netfilter's bridge-nf-call-* on",
	  need_br_nf, bridge_setup, bridge_teardown, NULL, "tc-drop" },
	{ "mirred", "tc u32 + act_mirred egress redirect", NULL,
	  mirred_setup, clsact_teardown, NULL, "tc-drop" },
	{ "redirect", "cls_bpf da bpf_redirect, bpfwd port hook tc", NULL,
	  port_setup, port_teardown, "mode redirect hook tc", "tc-drop" },
	{ "redirect-fixed", "cls_bpf da bpf_redirect to a fixed ifindex, no table",
	  NULL, fixed_setup, clsact_teardown, NULL, "tc-drop" },
	{ "clone", "cls_bpf da bpf_clone_redirect + drop, bpfwd port hook tc",
	  NULL, port_setup, port_teardown, "mode clone hook tc", "tc-drop" },
	{ "tcx", "bpf_redirect, bpfwd port hook tcx", need_tcx,
	  port_setup, port_teardown, "mode redirect hook tcx", "tc-drop" },
	{ "act", "u32 + act_bpf bpf_redirect, bpfwd port hook act",
	  need_act_bpf, port_setup, port_teardown, "mode redirect hook act",
	  "tc-drop" },
	{ "act-clone", "u32 + act_bpf bpf_clone_redirect, bpfwd port hook act",
	  need_act_bpf, port_setup, port_teardown, "mode clone hook act",
	  "tc-drop" },
	{ "xdp", "XDP bpf_redirect, bpfwd port hook xdp", NULL,
	  port_setup, port_teardown, "mode redirect hook xdp", "xdp-drop" },
	{ "devmap", "XDP redirect through a devmap, bpfwd port hook xdp mode map",
	  NULL, port_setup, port_teardown, "mode map hook xdp", "xdp-drop" },
	{ "cpumap", "XDP to a cpumap queue, its kthread sends on to OUT",
	  NULL, cpumap_setup, port_teardown, "hook xdp cpus %d", "xdp-drop" },
	{ "cpumap-pass", "XDP to a cpumap queue, skbs there, then a tc redirect",
	  NULL, cpumap_setup, port_teardown, "hook xdp cpus %d then pass",
	  "xdp-drop" },
	{ "redirect+mon-errors", "redirect, bpfwd monitor (errors only) running",
	  need_mon_errors, mon_setup, mon_teardown, NULL, "tc-drop" },
	{ "redirect+mon-all", "redirect, bpfwd monitor all running",
	  need_mon_all, mon_setup, mon_teardown, NULL, "tc-drop" },
	{ "xdp+mon-errors", "xdp, bpfwd monitor (errors only) running",
	  need_mon_errors, mon_setup, mon_teardown, NULL, "xdp-drop" },
	{ "xdp+mon-all", "xdp, bpfwd monitor all running",
	  need_mon_all, mon_setup, mon_teardown, NULL, "xdp-drop" },
	{ "xdp-loop", "XDP redirect + drop, both on gen's CPU (no dut thread)",
	  need_loop, loop_setup, loop_teardown, NULL, NULL },
	{ "xdp-loop+mon-errors", "xdp-loop, bpfwd monitor (errors only) running",
	  need_mon_errors, mon_setup, mon_teardown, NULL, NULL },
	{ "xdp-loop+mon-all", "xdp-loop, bpfwd monitor all running",
	  need_mon_all, mon_setup, mon_teardown, NULL, NULL },
	{ "xdp-loop+mon-nobulk", "xdp-loop, bpfwd monitor nobulk running",
	  need_mon_errors, mon_setup, mon_teardown, NULL, NULL },
	{ "tc-drop", "limit: tc ingress drop at the dut (skb)", NULL,
	  tc_drop_setup, clsact_teardown, NULL, NULL },
	{ "xdp-drop", "limit: XDP_DROP at the dut's ingress", NULL,
	  xdp_drop_setup, xdp_drop_teardown, NULL, NULL },
};

static const struct method *method_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(methods); i++)
		if (is_word(name, methods[i].name))
			return &methods[i];
	return NULL;
}

/* --- topology ------------------------------------------------------ */

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
static void napi_pin(struct bench *b)
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

/* The sink's counter: tc ingress (count tc, the default) or XDP (count
 * xdp).  Neither is neutral: frames that come as XDP frames must become
 * skbs for tc, and skbs may be copied for XDP.
 */
static int sink_counter(struct bench *b)
{
	int fd, err, idx;

	if (!b->count_xdp)
		return tc_prog_setup(b, NS_SINK, b->sink_dev, pick_tc_consume,
				     &b->sink_cnt);
	err = ns_enter(b->ns[NS_SINK]);
	if (err)
		return err;
	idx = if_nametoindex(b->sink_dev);
	err = gen_prog(b, pick_xdp_drop, 0, &b->sink_cnt, &fd);
	if (!err) {
		err = bpf_xdp_attach(idx, fd, XDP_FLAGS_DRV_MODE, NULL);
		if (err)
			snprintf(b->err, sizeof(b->err), "native XDP on %s: %s",
				 b->sink_dev, strerror(-err));
	}
	ns_leave();
	return err;
}

static int topo_build(struct bench *b)
{
	static const char *const roles[NS_N] = { "gen", "dut", "sink" };
	char tag[5], mac[18];
	struct link_info li;
	int i, err, idx;

	rand_tag(tag, sizeof(tag));
	snprintf(b->gen_dev, IF_NAMESIZE, "bwg-%s", tag);
	snprintf(b->in_dev, IF_NAMESIZE, "bwi-%s", tag);
	snprintf(b->out_dev, IF_NAMESIZE, "bwo-%s", tag);
	snprintf(b->sink_dev, IF_NAMESIZE, "bws-%s", tag);
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
	if (RUN(b, NS_DUT, "ip", "link", "add", b->in_dev, "numtxqueues", "1",
		"numrxqueues", "1", "type", "veth", "peer", b->gen_dev,
		"numtxqueues", "1", "numrxqueues", "1", "netns", b->ns_name[NS_GEN]) ||
	    RUN(b, NS_DUT, "ip", "link", "add", b->out_dev, "numtxqueues", "1",
		"numrxqueues", "1", "type", "veth", "peer", b->sink_dev,
		"numtxqueues", "1", "numrxqueues", "1", "netns", b->ns_name[NS_SINK]) ||
	    RUN(b, NS_GEN, "ip", "addr", "add", "192.0.2.1/24", "dev", b->gen_dev) ||
	    RUN(b, NS_SINK, "ip", "addr", "add", "192.0.2.2/24", "dev", b->sink_dev))
		return -EIO;
	for (i = 0; i < NS_N; i++) {
		char *dev[NS_N][2] = {
			{ b->gen_dev, NULL }, { b->in_dev, b->out_dev },
			{ b->sink_dev, NULL },
		};
		int j;

		for (j = 0; j < 2 && dev[i][j]; j++)
			if (RUN(b, i, "ip", "link", "set", dev[i][j], "up"))
				return -EIO;
	}
	/* NAPI where XDP frames arrive: the dut's ingress (from gen) and
	 * the sink (from the XDP rows)
	 */
	if (RUN(b, NS_DUT, "ethtool", "-K", b->in_dev, "gro", "on") ||
	    RUN(b, NS_SINK, "ethtool", "-K", b->sink_dev, "gro", "on"))
		return -EIO;
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
	/* the sink's MAC, for gen and for the bridge's fdb */
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
	ns_enter(b->ns[NS_DUT]);
	b->cookie = netns_cookie();
	ns_leave();
	return sink_counter(b);
}

/* Device mode: the caller's namespace and devices, nothing created but
 * the sink's counter (and each row's own setup).
 */
static int topo_devices(struct bench *b, char **dev)
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
	return sink_counter(b);
}

static void rm_pins(const char *path)
{
	char *argv[] = { "rm", "-rf", (char *)path, NULL };

	ns_exec(-1, argv, NULL, 0);
}

static void topo_destroy(struct bench *b)
{
	char dir[PATH_MAX];
	int i;

	if (b->sink_cnt) {
		if (!b->own_ns && b->count_xdp)
			bpf_xdp_detach(if_nametoindex(b->sink_dev),
				       XDP_FLAGS_DRV_MODE, NULL);
		else if (!b->own_ns)
			RUN(b, NS_SINK, "tc", "qdisc", "del", "dev", b->sink_dev,
			    "clsact");
		gen__destroy(b->sink_cnt);
		b->sink_cnt = NULL;
	}
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

/* --- measuring ------------------------------------------------------ */

static uint64_t count_read(int fd)
{
	int n = nr_cpus(), i;
	uint64_t v[n > 0 ? n : 1], sum = 0;
	uint32_t key = 0;

	if (bpf_map_lookup_elem(fd, &key, v))
		return 0;
	for (i = 0; i < n; i++)
		sum += v[i];
	return sum;
}

/* CPU time (clock ticks) of every task but ours, per pid: the bench
 * itself, gen and the NAPI kthreads are left out, everything else
 * running on the machine is noise.  (PSI's cpu "some" would count the
 * two NAPI threads sharing the dut's CPU as pressure.)
 */
#define MAX_TASKS 4096

struct ticks {
	int n;
	pid_t pid[MAX_TASKS];
	uint64_t t[MAX_TASKS];
};

static void others_ticks(struct bench *b, pid_t gen, struct ticks *tk)
{
	struct dirent *de;
	DIR *d = opendir("/proc");
	pid_t me = getpid();

	tk->n = 0;
	if (!d)
		return;
	while ((de = readdir(d)) && tk->n < MAX_TASKS) {
		unsigned long long ut, st;
		char path[300], buf[1024], *p;
		pid_t pid;
		int i, fd;
		ssize_t n;
		bool ours;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		pid = atoi(de->d_name);
		ours = pid == me || pid == gen;
		for (i = 0; i < b->nnapi; i++)
			ours |= pid == b->napi[i];
		for (i = 0; i < b->nkth; i++)
			ours |= pid == b->kth[i];
		ours |= b->loop && pid == b->ksoftirqd;
		if (ours)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		/* after "(comm)": state is field 3, utime 14, stime 15 */
		p = strrchr(buf, ')');
		if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
				 &ut, &st) != 2)
			continue;
		tk->pid[tk->n] = pid;
		tk->t[tk->n++] = ut + st;
	}
	closedir(d);
}

/* Ticks used between two snapshots (tasks that started in between count
 * whole, tasks that ended are lost: a lower bound).
 */
static uint64_t ticks_between(const struct ticks *a, const struct ticks *z)
{
	uint64_t sum = 0;
	int i, j = 0;

	/* both in /proc order (ascending pids) */
	for (i = 0; i < z->n; i++) {
		while (j < a->n && a->pid[j] < z->pid[i])
			j++;
		if (j < a->n && a->pid[j] == z->pid[i])
			sum += z->t[i] > a->t[j] ? z->t[i] - a->t[j] : 0;
		else
			sum += z->t[i];
	}
	return sum;
}

/* Run time (ns) of task @pid so far, or -1. */
static int64_t task_runtime_ns(pid_t pid)
{
	char path[64], buf[128];
	unsigned long long ns;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return sscanf(buf, "%llu", &ns) == 1 ? (int64_t)ns : -1;
}

/* CPU time (ns) the dut's own threads have run: the NAPI kthread of its
 * ingress, where all of a row's forwarding work runs with threaded
 * NAPI, and a cpumap row's kthreads.  A thread's run time does not grow
 * while another task has the CPU, so per packet it is the dut's cost
 * whatever else the machine does: the measure for costs of a few
 * percent, which the rates of a shared 2-CPU box cannot resolve.  With
 * the sink inline (the default) its work runs in that thread too.  In
 * an xdp-loop row the "dut" is gen's CPU: gen itself (@gen) and that
 * CPU's ksoftirqd, where the drops run.  -1 without threaded NAPI.
 */
static int64_t runtime_sum(const pid_t *pids, int n)
{
	int64_t sum = 0, t;
	int i;

	for (i = 0; i < n; i++) {
		t = task_runtime_ns(pids[i]);
		if (t < 0)
			return -1;
		sum += t;
	}
	return sum;
}

static int64_t dut_cpu_ns(struct bench *b, pid_t gen)
{
	pid_t loop[2] = { gen, b->ksoftirqd };
	int64_t napi, kth;

	if (b->loop)
		return runtime_sum(loop, b->ksoftirqd ? 2 : 1);
	if (!b->napi_threaded || !b->ndut_napi)
		return -1;
	napi = runtime_sum(b->napi, b->ndut_napi);
	kth = runtime_sum(b->kth, b->nkth);
	return napi < 0 || kth < 0 ? -1 : napi + kth;
}

static double loadavg1(void)
{
	double l = 0;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = 0;
		fclose(f);
	}
	return l;
}

struct gen_child {
	struct bench *b;
	int ready_fd, result_fd;
};

static volatile sig_atomic_t gen_child_stop;

static void gen_child_signal(int sig)
{
	(void)sig;
	gen_child_stop = 1;
}

/* The generator: in the gen namespace, on gen's CPU, until told to stop.
 * Writes "ready" (one byte), then frames and seconds at the end.
 */
static int gen_child_fn(void *arg)
{
	struct gen_child *c = arg;
	struct bench *b = c->b;
	struct sigaction sa = { .sa_handler = gen_child_signal };
	struct livegen_cfg cfg = {
		.size = b->size, .flows = LIVEGEN_FLOWS_DEF,
		.have_dmac = true, .have_src = true, .have_dst = true,
	};
	struct livegen *g;
	double t0, res[2];
	uint64_t frames = 0;
	cpu_set_t set;
	int idx;

	opts.json = false;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (b->gen_cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(b->gen_cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	memcpy(cfg.dmac, b->sink_mac, 6);
	inet_pton(AF_INET, "192.0.2.1", &cfg.src);
	inet_pton(AF_INET, "192.0.2.2", &cfg.dst);
	idx = if_nametoindex(b->gen_dev);
	if (!idx) {
		fprintf(stderr, "gen %s: no such device\n", b->gen_dev);
		return 1;
	}
	cfg.ifindex = idx;
	cfg.dev = b->gen_dev;
	if (livegen_open(&cfg, &g))
		return 1;
	if (write(c->ready_fd, "r", 1) != 1)
		return 1;
	t0 = now();
	/* one BPF_PROG_RUN until SIGUSR1 */
	while (!gen_child_stop) {
		int err = livegen_run(g, 0, &gen_child_stop);

		if (err == -EINTR)
			break;
		if (err) {
			fprintf(stderr, "gen %s: live frames: %s\n", b->gen_dev,
				strerror(-err));
			return 1;
		}
	}
	frames = livegen_frames(g);
	res[0] = frames;
	res[1] = now() - t0;
	livegen_close(g);
	return write(c->result_fd, res, sizeof(res)) == sizeof(res) ? 0 : 1;
}

/* Runs gen in a child (through ns_call in a grandchild-free way: the
 * child is forked here so the parent can time the window).
 */
static int measure(struct bench *b, struct sample *s)
{
	int ready[2], result[2], status, fd = b->count_fd;
	struct gen_child c = { .b = b };
	static struct ticks tk0, tk1;
	int ticks;
	uint64_t c0, c1;
	int64_t d0, d1;
	double t0, t1, res[2] = { 0, 0 };
	char ch;
	pid_t pid;

	if (pipe2(ready, O_CLOEXEC) || pipe2(result, O_CLOEXEC))
		return -errno;
	c.ready_fd = ready[1];
	c.result_fd = result[1];
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		signal(SIGINT, SIG_IGN);
		close(ready[0]);
		close(result[0]);
		if (setns(b->ns[NS_GEN], CLONE_NEWNET))
			_exit(126);
		_exit(gen_child_fn(&c));
	}
	close(ready[1]);
	close(result[1]);
	if (read(ready[0], &ch, 1) != 1) {
		snprintf(b->err, sizeof(b->err), "gen did not start (see above)");
		waitpid(pid, &status, 0);
		close(ready[0]);
		close(result[0]);
		return -EIO;
	}
	napi_pin(b);
	usleep(WARMUP_S * 1e6);
	c0 = count_read(fd);
	d0 = dut_cpu_ns(b, pid);
	others_ticks(b, pid, &tk0);
	t0 = now();
	for (ticks = 1; !bench_stop && now() - t0 < b->duration; ticks++) {
		usleep(20000);
		/* on a terminal, the rate so far (twice a second),
		 * overwritten by progress()
		 */
		if (b->live && !(ticks % 25))
			fprintf(stderr, "\rbench: round %u/%u %-19s %6.3f Mpps so far ",
				b->cur_round + 1, b->rounds, b->cur_name,
				(count_read(fd) - c0) / (now() - t0) / 1e6);
	}
	if (b->live)
		fputs("\r\033[K", stderr);
	c1 = count_read(fd);
	d1 = dut_cpu_ns(b, pid);
	others_ticks(b, pid, &tk1);
	t1 = now();
	kill(pid, SIGUSR1);
	if (read(result[0], res, sizeof(res)) != sizeof(res))
		res[0] = res[1] = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	close(ready[0]);
	close(result[0]);
	if (bench_stop)
		return -EINTR;
	s->mpps = (c1 - c0) / (t1 - t0) / 1e6;
	s->gen_mpps = res[1] > 0 ? res[0] / res[1] / 1e6 : 0;
	s->others = ticks_between(&tk0, &tk1) * 100.0 / sysconf(_SC_CLK_TCK) /
		    (t1 - t0);
	s->noisy = b->noise_pct && s->others > b->noise_pct;
	s->dut_ns = d0 >= 0 && d1 >= d0 && c1 > c0 ?
		    (double)(d1 - d0) / (c1 - c0) : NAN;
	s->done = true;
	if (!(c1 - c0)) {
		snprintf(b->err, sizeof(b->err), "nothing was counted in %u s",
			 b->duration);
		return -EIO;
	}
	return 0;
}

static int run_row(struct bench *b, struct row *r, uint32_t round)
{
	const struct method *m = r->m;
	int err;

	b->err[0] = '\0';
	b->cur_round = round;
	b->cur_name = m->name;
	b->nkth = 0;
	b->count_fd = bpf_map__fd(b->sink_cnt->maps.bpfwd_cnt);
	err = m->setup(b, m);
	if (!err)
		err = measure(b, &r->s[round]);
	if (err && err != -EINTR && !r->failed[0])
		snprintf(r->failed, sizeof(r->failed), "%s",
			 b->err[0] ? b->err : strerror(-err));
	m->teardown(b, m);
	return err == -EINTR ? err : 0;
}

/* --- results -------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct stat3 {
	double med, min, max;
	int n;
};

static struct stat3 stats_of(double *v, int n)
{
	struct stat3 s = { NAN, NAN, NAN, n };

	if (!n)
		return s;
	qsort(v, n, sizeof(*v), cmp_double);
	s.min = v[0];
	s.max = v[n - 1];
	s.med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return s;
}

static struct row *row_named(struct bench *b, const char *name)
{
	int i;

	for (i = 0; i < b->nrows; i++)
		if (!strcmp(b->rows[i].m->name, name))
			return &b->rows[i];
	return NULL;
}

/* Samples of a row (clean ones when there are any): its rates, or with
 * @cpu its dut CPU time per packet.
 */
static struct stat3 row_samples(struct bench *b, struct row *r, bool cpu,
				int *discarded)
{
	double v[MAX_ROUNDS], all[MAX_ROUNDS], x;
	int n = 0, na = 0;
	uint32_t i;

	for (i = 0; i < b->rounds; i++) {
		if (!r->s[i].done)
			continue;
		x = cpu ? r->s[i].dut_ns : r->s[i].mpps;
		if (isnan(x))
			continue;
		all[na++] = x;
		if (!r->s[i].noisy)
			v[n++] = x;
	}
	if (discarded)
		*discarded = n ? na - n : 0;
	return n ? stats_of(v, n) : stats_of(all, na);
}

static struct stat3 row_mpps(struct bench *b, struct row *r, int *discarded)
{
	return row_samples(b, r, false, discarded);
}

/* What row_vs compares. */
enum vs { VS_RATIO, VS_NS, VS_GEN, VS_CPU_NS, VS_CPU_COST, VS_CPU_RATIO };

/* @r against @ref in the same round: the ratio of their rates (VS_RATIO),
 * the ns per packet @r takes more (VS_NS: 1e3/Mpps - 1e3/Mpps of @ref),
 * the ratio of the rates gen offered (VS_GEN), the dut CPU time per
 * packet @r takes more (VS_CPU_NS), that as a fraction of @ref's
 * (VS_CPU_COST), or @ref's CPU time per packet over @r's (VS_CPU_RATIO:
 * the rate ratio the CPU times alone would give).
 */
static bool vs_round(struct sample *s, struct sample *q, enum vs what, double *v)
{
	if (!s->done || !q->done || q->mpps <= 0)
		return false;
	switch (what) {
	case VS_RATIO:
		*v = s->mpps / q->mpps;
		break;
	case VS_NS:
		if (s->mpps <= 0)
			return false;
		*v = 1e3 / s->mpps - 1e3 / q->mpps;
		break;
	case VS_GEN:
		if (q->gen_mpps <= 0)
			return false;
		*v = s->gen_mpps / q->gen_mpps;
		break;
	case VS_CPU_NS:
	case VS_CPU_COST:
	case VS_CPU_RATIO:
		if (isnan(s->dut_ns) || isnan(q->dut_ns) || q->dut_ns <= 0 ||
		    s->dut_ns <= 0)
			return false;
		*v = what == VS_CPU_NS ? s->dut_ns - q->dut_ns :
		     what == VS_CPU_COST ? s->dut_ns / q->dut_ns - 1 :
					   q->dut_ns / s->dut_ns;
		break;
	}
	return true;
}

static struct stat3 row_vs(struct bench *b, struct row *r, struct row *ref,
			   enum vs what)
{
	double v[MAX_ROUNDS], all[MAX_ROUNDS], x;
	int n = 0, na = 0;
	uint32_t i;

	for (i = 0; ref && i < b->rounds; i++) {
		struct sample *s = &r->s[i], *q = &ref->s[i];

		if (!vs_round(s, q, what, &x))
			continue;
		all[na++] = x;
		if (!s->noisy && !q->noisy)
			v[n++] = x;
	}
	return n ? stats_of(v, n) : stats_of(all, na);
}

static struct stat3 row_ratio(struct bench *b, struct row *r, struct row *ref)
{
	return row_vs(b, r, ref, VS_RATIO);
}

static const char *row_status(struct row *r)
{
	if (r->skipped)
		return "skipped";
	return r->failed[0] ? "failed" : "ok";
}

static void print_num(const char *key, const char *fmt, double v)
{
	if (isnan(v)) {
		print_null(PRINT_JSON, key, NULL);
		print_string(PRINT_FP, NULL, "%8s", "-");
		return;
	}
	print_double(PRINT_ANY, key, fmt, v);
}

/* Targets of issue 5 (reported, not asserted): errors only costs under
 * 3%, all at most 150 ns per packet.
 */
#define MON_ERRORS_MAX_COST	0.03
#define MON_ALL_MAX_NS		150

/* Met only when every round meets the target, not met when none does;
 * otherwise the rounds straddle it and the median alone would claim
 * more than this machine measured.
 */
static const char *mon_verdict(bool median, bool worst, bool best)
{
	if (worst)
		return "met";
	if (!best)
		return "not met";
	return median ? "unresolved (met at the median, not in every round)" :
			"unresolved (not met at the median, met in some rounds)";
}

/* One round of a monitor row against its off row. */
static void print_mon_round(struct bench *b, struct row *r, uint32_t k)
{
	const struct method *m = NULL;
	struct row *off;
	double v;

	mon_of(r->m, &m);
	off = m ? row_named(b, m->name) : NULL;

	if (!off)
		return;
	if (vs_round(&r->s[k], &off->s[k], VS_RATIO, &v))
		print_double(PRINT_JSON, "ratio_to_off", NULL, v);
	if (vs_round(&r->s[k], &off->s[k], VS_NS, &v))
		print_double(PRINT_JSON, "ns_added", NULL, v);
	if (vs_round(&r->s[k], &off->s[k], VS_GEN, &v))
		print_double(PRINT_JSON, "gen_ratio_to_off", NULL, v);
	if (vs_round(&r->s[k], &off->s[k], VS_CPU_NS, &v))
		print_double(PRINT_JSON, "dut_cpu_ns_added", NULL, v);
}

/* A monitor row against its off row of the same rounds, on a line of
 * its own under the row.  The verdict goes by the dut's CPU time per
 * packet where there is one (threaded NAPI): rates on a shared 2-CPU
 * machine move by more than the 3% the target is about; else by rates.
 */
static void print_mon_cost(struct bench *b, struct row *r)
{
	const struct method *m = NULL;
	enum bench_mon mon = mon_of(r->m, &m);
	bool all = mon == MON_ALL;
	struct row *off = row_named(b, m->name);
	struct stat3 ra = row_vs(b, r, off, VS_RATIO);
	struct stat3 ns = row_vs(b, r, off, VS_NS);
	struct stat3 gen = row_vs(b, r, off, VS_GEN);
	struct stat3 cns = row_vs(b, r, off, VS_CPU_NS);
	struct stat3 cost = row_vs(b, r, off, VS_CPU_COST);
	bool cpu = cns.n > 0;
	double hi = MON_ERRORS_MAX_COST, lo = 1 - hi;
	bool med, worst, best;

	if (cpu) {
		med = all ? cns.med <= MON_ALL_MAX_NS : cost.med < hi;
		worst = all ? cns.max <= MON_ALL_MAX_NS : cost.max < hi;
		best = all ? cns.min <= MON_ALL_MAX_NS : cost.min < hi;
	} else {
		med = all ? ns.med <= MON_ALL_MAX_NS : ra.med > lo;
		worst = all ? ns.max <= MON_ALL_MAX_NS : ra.min > lo;
		best = all ? ns.min <= MON_ALL_MAX_NS : ra.max > lo;
	}
	print_nl();
	print_string(PRINT_ANY, "monitor", "    monitor %-6s", mon_names[mon]);
	print_string(PRINT_ANY, "off_row", " x %s", m->name);
	print_num("ratio_to_off", " %.3f", ra.med);
	print_num("ratio_to_off_min", " (%.3f", ra.min);
	print_num("ratio_to_off_max", " %.3f),", ra.max);
	print_num("ns_added_per_packet", " %+.1f ns/pkt", ns.med);
	print_num("ns_added_min", " (%+.1f", ns.min);
	print_num("ns_added_max", " %+.1f);", ns.max);
	/* the monitor sees gen's own redirects too: a slower gen changes
	 * the load the dut gets, so say how much slower it was
	 */
	print_num("gen_ratio_to_off", " gen x %.2f;", gen.med);
	print_nl();
	print_string(PRINT_FP, NULL, "%s", "      dut CPU");
	print_num("dut_cpu_ns_added", " %+.1f ns/pkt", cns.med);
	print_num("dut_cpu_ns_added_min", " (%+.1f", cns.min);
	print_num("dut_cpu_ns_added_max", " %+.1f)", cns.max);
	if (cpu)
		print_string(PRINT_FP, NULL, "%s", " =");
	print_num("dut_cpu_cost", " %+.1f%%", cost.med * 100);
	print_num("dut_cpu_cost_min", " (%+.1f%%", cost.min * 100);
	print_num("dut_cpu_cost_max", " %+.1f%%);", cost.max * 100);
	print_string(PRINT_ANY, "target", " target %s", all ?
		     "<= 150 ns/pkt added" : "< 3% cost");
	print_string(PRINT_ANY, "target_measure", " (by %s)",
		     cpu ? "dut CPU time" : "rate");
	print_string(PRINT_ANY, "target_verdict", ": %s",
		     isnan(cpu ? cns.med : ns.med) ? "no data" :
		     mon_verdict(med, worst, best));
}

static bool is_loop(const struct method *m)
{
	const struct method *off = NULL;

	if (mon_of(m, &off) != MON_OFF)
		m = off;
	return m->setup == loop_setup;
}

static void print_rows(struct bench *b)
{
	struct row *bridge = row_named(b, "bridge");
	uint32_t k;
	int i;

	print_string(PRINT_FP, NULL, "%s",
		     "method               status    Mpps   (min    max)   x bridge (min   max)  ns/pkt  cpu ns  of limit (cpu)\n");
	open_json_array("methods");
	for (i = 0; i < b->nrows; i++) {
		struct row *r = &b->rows[i], *lim;
		const struct method *off = NULL;
		struct stat3 mp, ra, lm, cpu, lcpu;
		int disc = 0;

		mp = row_mpps(b, r, &disc);
		cpu = row_samples(b, r, true, NULL);
		/* an xdp-loop row has no dut: no ratio to the bridge */
		ra = is_loop(r->m) ? (struct stat3){ NAN, NAN, NAN, 0 } :
				     row_ratio(b, r, bridge);
		lim = r->m->limit ? row_named(b, r->m->limit) : NULL;
		/* per round, as the ratio to the bridge: a limit row's rate
		 * moves as much as any other's
		 */
		lm = row_vs(b, r, lim, VS_RATIO);
		lcpu = row_vs(b, r, lim, VS_CPU_RATIO);
		open_json_object(NULL);
		print_string(PRINT_ANY, "name", "%-20s", r->m->name);
		print_string(PRINT_ANY, "status", " %-8s", row_status(r));
		print_string(PRINT_JSON, "description", NULL, r->m->desc);
		if (r->skipped || (r->failed[0] && !mp.n)) {
			print_string(PRINT_ANY, "reason", " %s",
				     r->skipped ? r->skipped : r->failed);
			print_nl();
			close_json_object();
			continue;
		}
		print_string(PRINT_JSON, "reason", NULL, r->failed[0] ? r->failed : NULL);
		print_num("mpps_median", " %6.3f", mp.med);
		print_num("mpps_min", "  (%5.3f", mp.min);
		print_num("mpps_max", " %6.3f)", mp.max);
		print_num("ratio_to_bridge", "  %6.2f", ra.med);
		print_num("ratio_min", "   (%4.2f", ra.min);
		print_num("ratio_max", "  %4.2f)", ra.max);
		print_num("ns_per_packet", " %6.0f", 1e3 / mp.med);
		print_num("dut_cpu_ns_per_packet", "  %6.0f", cpu.med);
		print_string(PRINT_JSON, "limit", NULL, r->m->limit);
		print_num("ratio_to_limit", "  %6.2f", lm.med);
		/* the same by the dut's CPU time: its own work only */
		if (!isnan(lcpu.med))
			print_num("dut_cpu_ratio_to_limit", " (%4.2f)", lcpu.med);
		print_u64(PRINT_JSON, "rounds_used", NULL, mp.n);
		print_u64(PRINT_JSON, "noisy_rounds_discarded", NULL, disc);
		if (r->failed[0])
			print_string(PRINT_FP, NULL, "  (%s)", r->failed);
		if (mon_of(r->m, &off) != MON_OFF)
			print_mon_cost(b, r);
		open_json_array("rounds");
		for (k = 0; k < b->rounds; k++) {
			struct sample *s = &r->s[k];

			if (!s->done)
				continue;
			open_json_object(NULL);
			print_u64(PRINT_JSON, "round", NULL, k + 1);
			print_double(PRINT_JSON, "mpps", NULL, s->mpps);
			if (!is_loop(r->m) && bridge && bridge->s[k].done && bridge->s[k].mpps > 0)
				print_double(PRINT_JSON, "ratio_to_bridge", NULL,
					     s->mpps / bridge->s[k].mpps);
			print_mon_round(b, r, k);
			print_double(PRINT_JSON, "gen_mpps", NULL, s->gen_mpps);
			if (!isnan(s->dut_ns))
				print_double(PRINT_JSON, "dut_cpu_ns", NULL, s->dut_ns);
			print_double(PRINT_JSON, "others_cpu_pct", NULL, s->others);
			print_bool(PRINT_JSON, "noisy", NULL, s->noisy);
			close_json_object();
		}
		close_json_array();
		print_nl();
		close_json_object();
	}
	close_json_array();
}

static void print_noise(struct bench *b, double load0, double load1)
{
	double gen[MAX_METHODS * MAX_ROUNDS], pr[MAX_METHODS * MAX_ROUNDS];
	int n = 0, noisy = 0, i;
	struct stat3 g, p;
	uint32_t k;

	for (i = 0; i < b->nrows; i++)
		for (k = 0; k < b->rounds; k++)
			if (b->rows[i].s[k].done) {
				gen[n] = b->rows[i].s[k].gen_mpps;
				pr[n++] = b->rows[i].s[k].others;
				noisy += b->rows[i].s[k].noisy;
			}
	g = stats_of(gen, n);
	p = stats_of(pr, n);
	open_json_object("gen");
	print_string(PRINT_FP, NULL, "%s", "gen offered:");
	print_num("mpps_median", " %.2f Mpps", g.med);
	print_num("mpps_min", " (%.2f", g.min);
	print_num("mpps_max", "-%.2f)", g.max);
	print_u64(PRINT_ANY, "size", " of %llu-byte frames", b->size);
	print_nl();
	close_json_object();
	open_json_object("noise");
	print_string(PRINT_FP, NULL, "%s", "noise: other tasks took");
	print_num("others_cpu_median_pct", " %.0f%%", p.med);
	print_num("others_cpu_max_pct", " (max %.0f%%) of a CPU,", p.max);
	print_u64(PRINT_ANY, "noisy_windows", " %llu", noisy);
	print_u64(PRINT_ANY, "windows", " of %llu windows", n);
	print_u64(PRINT_ANY, "threshold_pct", " above %llu%%", b->noise_pct);
	print_bool(PRINT_JSON, "all_noisy", NULL, n && noisy == n);
	print_string(PRINT_FP, NULL, "%s", noisy == n && n ?
		     " (none clean: medians use them all);" :
		     " (left out of the medians);");
	print_double(PRINT_ANY, "loadavg_start", " load %.2f", load0);
	print_double(PRINT_ANY, "loadavg_end", " -> %.2f", load1);
	print_nl();
	close_json_object();
}

static void print_setup(struct bench *b)
{
	struct utsname u;
	char model[128] = "";
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int i;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10)) {
			char *c = strchr(line, ':');

			snprintf(model, sizeof(model), "%s", c ? c + 2 : line);
			model[strcspn(model, "\n")] = '\0';
			break;
		}
	if (f)
		fclose(f);
	uname(&u);
	open_json_object("machine");
	print_string(PRINT_ANY, "kernel", "kernel %s,", u.release);
	print_u64(PRINT_ANY, "cpus", " %llu CPUs", nr_cpus());
	print_string(PRINT_ANY, "cpu_model", " (%s)", model);
	print_nl();
	close_json_object();
	open_json_object("setup");
	print_u64(PRINT_ANY, "rounds", "%llu rounds", b->rounds);
	print_u64(PRINT_ANY, "duration_s", " of %llu s per method", b->duration);
	print_u64(PRINT_ANY, "size", ", %llu-byte frames", b->size);
	print_string(PRINT_ANY, "topology", ", %s", b->own_ns ?
		     "namespaces gen|dut|sink, one-queue veths" : "given devices");
	if (b->gen_cpu >= 0)
		print_u64(PRINT_ANY, "gen_cpu", ", gen on CPU%llu", b->gen_cpu);
	if (b->napi_threaded)
		print_u64(PRINT_ANY, "dut_cpu", ", dut on CPU%llu", b->dut_cpu);
	print_bool(PRINT_ANY, "napi_threaded", ", threaded NAPI: %s",
		   b->napi_threaded);
	if (b->own_ns)
		print_string(PRINT_ANY, "sink_napi", ", sink NAPI: %s",
			     b->sink_thread ? "thread" : "inline");
	open_json_array("namespaces");
	for (i = 0; b->own_ns && i < NS_N; i++)
		print_string(PRINT_JSON, NULL, NULL, b->ns_name[i]);
	close_json_array();
	print_nl();
	print_string(PRINT_ANY, "counted_at", "counted: %s\n", b->count_xdp ?
		     "sink port XDP counter (count+XDP_DROP) for forwarding rows; the drop program's counter for limit rows" :
		     "sink port tc ingress BPF counter (count+consume) for forwarding rows; the drop program's counter for limit rows");
	print_string(PRINT_JSON, "known_bias", NULL,
		     "skbs freed on the dut's CPU return pages to the generator's page pool on the other CPU; this costs skb paths more than XDP paths");
	close_json_object();
}

static int plot(struct bench *b)
{
	char dat[] = "/tmp/bpfwd-bench-XXXXXX", gp[] = "/tmp/bpfwd-plot-XXXXXX";
	struct row *bridge = row_named(b, "bridge");
	const char *ext = strrchr(b->plot, '.');
	bool svg = ext && !strcmp(ext, ".svg");
	char err[ERRLEN];
	int fd, gfd, i, ret;
	FILE *f, *g;

	fd = mkstemp(dat);
	if (fd < 0)
		return -errno;
	gfd = mkstemp(gp);
	if (gfd < 0) {
		close(fd);
		unlink(dat);
		return -errno;
	}
	f = fdopen(fd, "w");
	for (i = 0; i < b->nrows; i++) {
		struct row *r = &b->rows[i];
		struct stat3 mp = row_mpps(b, r, NULL);
		struct stat3 ra = row_ratio(b, r, bridge);

		if (r->skipped || !mp.n)
			fprintf(f, "\"%s (skipped)\" 0 0 0 \"\"\n", r->m->name);
		else if (is_loop(r->m))	/* no dut: no ratio to the bridge */
			fprintf(f, "\"%s\" %f %f %f \"\"\n", r->m->name,
				mp.med, mp.min, mp.max);
		else
			fprintf(f, "\"%s\" %f %f %f \"%.2fx\"\n", r->m->name,
				mp.med, mp.min, mp.max, isnan(ra.med) ? 0 : ra.med);
	}
	fclose(f);
	g = fdopen(gfd, "w");
	fprintf(g,
		"set terminal %s size 1000,560\n"
		"set output '%s'\n"
		"set title \"bpfwd bench: Mpps reaching the sink, %u rounds x %u s, %u-byte frames\\n"
		"bars: median, whiskers: min-max, labels: median per-round ratio to the Linux bridge\"\n"
		"set style data histogram\n"
		"set style histogram errorbars gap 1 lw 1\n"
		"set style fill solid 0.6 border -1\n"
		"set boxwidth 0.8\n"
		"set ylabel 'Mpps'\n"
		"set yrange [0:*]\n"
		"set offsets 0, 0, graph 0.1, 0\n"
		"set xtics rotate by -30 font ',9'\n"
		"set grid ytics\n"
		"unset key\n"
		"plot '%s' using 2:3:4:xtic(1) lc rgb '#4477aa', "
		"'' using 0:4:5 with labels offset 0,1 font ',9'\n",
		svg ? "svg" : "pngcairo", b->plot, b->rounds, b->duration,
		b->size, dat);
	fclose(g);
	{
		char *argv[] = { "gnuplot", gp, NULL };

		ret = ns_exec(-1, argv, err, sizeof(err));
	}
	unlink(dat);
	unlink(gp);
	if (ret) {
		p_err("plot %s: gnuplot: %s", b->plot, err[0] ? err : "failed");
		return -EIO;
	}
	return 0;
}

static void print_doc(struct bench *b, double load0, double load1)
{
	json_begin();
	open_json_object(NULL);
	print_setup(b);
	print_rows(b);
	print_noise(b, load0, load1);
	close_json_object();
	json_end();
}

/* save FILE: the JSON document into FILE, whatever stdout shows */
static int save_doc(struct bench *b, double load0, double load1)
{
	bool json = opts.json, pretty = opts.pretty;
	int fd, out, err = 0;

	fd = open(b->save, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		p_err("save %s: %s", b->save, strerror(errno));
		return -errno;
	}
	fflush(stdout);
	out = dup(STDOUT_FILENO);
	if (out < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		err = -errno;
		p_err("save %s: %s", b->save, strerror(-err));
		close(fd);
		if (out >= 0)
			close(out);
		return err;
	}
	opts.json = opts.pretty = true;
	print_doc(b, load0, load1);
	fflush(stdout);
	opts.json = json;
	opts.pretty = pretty;
	dup2(out, STDOUT_FILENO);
	close(out);
	close(fd);
	return 0;
}

/* --- the command ---------------------------------------------------- */

static int add_row(struct bench *b, const struct method *m)
{
	int i;

	for (i = 0; i < b->nrows; i++)
		if (b->rows[i].m == m)
			return 0;
	if (b->nrows >= MAX_METHODS)
		return -E2BIG;
	b->rows[b->nrows++].m = m;
	return 0;
}

static int parse_methods(struct bench *b, const char *list)
{
	const struct method *off = NULL;
	char buf[512], *tok, *save;
	size_t i;

	if (is_word(list, "all")) {
		for (i = 0; i < ARRAY_SIZE(methods); i++)
			add_row(b, &methods[i]);
		return 0;
	}
	/* the bridge is every row's yardstick: always measured, first */
	add_row(b, method_find("bridge"));
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct method *m = method_find(tok);

		if (!m)
			return usage_err("method \"%s\": unknown, try bpfwd bench list",
					 tok);
		/* a monitor row is compared with its off row */
		if (mon_of(m, &off) != MON_OFF)
			add_row(b, off);
		add_row(b, m);
	}
	return 0;
}

static int do_list(void)
{
	size_t i;

	json_begin();
	open_json_array(NULL);
	for (i = 0; i < ARRAY_SIZE(methods); i++) {
		open_json_object(NULL);
		print_string(PRINT_ANY, "name", "%-20s", methods[i].name);
		print_string(PRINT_ANY, "description", " %s", methods[i].desc);
		print_nl();
		close_json_object();
	}
	close_json_array();
	json_end();
	return BPFWD_EXIT_OK;
}

static void progress(struct bench *b, uint32_t round, struct row *r,
		     struct sample *s)
{
	struct row *bridge = row_named(b, "bridge");

	if (r->skipped)
		return;
	if (r->failed[0] && !s->done) {
		fprintf(stderr, "bench: round %u/%u %-19s failed: %s\n", round + 1,
			b->rounds, r->m->name, r->failed);
		return;
	}
	fprintf(stderr, "bench: round %u/%u %-19s %6.3f Mpps", round + 1,
		b->rounds, r->m->name, s->mpps);
	if (bridge && bridge != r && !is_loop(r->m) && bridge->s[round].done)
		fprintf(stderr, "  %.2fx bridge", s->mpps / bridge->s[round].mpps);
	fprintf(stderr, "  (gen %.2f Mpps, others %.0f%% CPU%s)\n", s->gen_mpps,
		s->others, s->noisy ? ", noisy" : "");
}

static int bench_run(struct bench *b)
{
	uint32_t k;
	int i, j;

	for (i = 0; i < b->nrows; i++) {
		const struct method *m = b->rows[i].m, *off = NULL;

		if (m->skip)
			b->rows[i].skipped = m->skip(b);
		if (b->rows[i].skipped || mon_of(m, &off) == MON_OFF)
			continue;
		/* a monitor row cannot run where its off row cannot */
		if (off->skip)
			b->rows[i].skipped = off->skip(b);
		/* the XDP counter drops the skbs of the skb paths: every one
		 * a kfree_skb, which the monitor's tc signal probes; a
		 * healthy network delivers them (count tc consumes them)
		 */
		if (!b->rows[i].skipped && b->count_xdp && off->limit &&
		    !strcmp(off->limit, "tc-drop"))
			b->rows[i].skipped = "an skb path's monitor cost needs a sink that consumes, not drops: run it with count tc";
	}
	for (k = 0; k < b->rounds && !bench_stop; k++) {
		/* interleave: each round starts one row further, the bridge
		 * included
		 */
		for (j = 0; j < b->nrows && !bench_stop; j++) {
			struct row *r = &b->rows[(j + k) % b->nrows];

			if (r->skipped)
				continue;
			if (run_row(b, r, k) == -EINTR)
				break;
			progress(b, k, r, &r->s[k]);
		}
	}
	return bench_stop ? -EINTR : 0;
}

int do_bench(int argc, char **argv)
{
	static struct bench bench;
	struct bench *b = &bench;
	struct sigaction sa = { .sa_handler = on_signal }, old[3];
	char *devs[4] = { NULL };
	const char *list = "all";
	double load0, load1;
	int i, err, ret = BPFWD_EXIT_FAIL;

	opts.cmd = "bench";
	memset(b, 0, sizeof(*b));
	for (i = 0; i < NS_N; i++)
		b->ns[i] = -1;
	b->rounds = 5;
	b->duration = 2;
	b->size = LIVEGEN_SIZE_DEF;
	b->noise_pct = NOISE_PCT_DEF;
	b->count_xdp = true;
	if (argc > 0 && is_word(*argv, "help"))
		return bench_help(0, NULL);
	if (argc > 0 && is_word(*argv, "list"))
		return do_list();
	for (; argc > 0; argc--, argv++) {
		const char *w = *argv;

		if (is_word(w, "dev")) {
			if (argc < 5)
				return usage_err("dev needs GEN DUT_IN DUT_OUT SINK");
			for (i = 0; i < 4; i++)
				devs[i] = argv[i + 1];
			argc -= 4;
			argv += 4;
			continue;
		}
		if (argc < 2) {
			if (is_word(w, "method") || is_word(w, "rounds") ||
			    is_word(w, "duration") || is_word(w, "size") ||
			    is_word(w, "plot") || is_word(w, "noise") ||
			    is_word(w, "save") || is_word(w, "count") ||
			    is_word(w, "sink"))
				return usage_err("\"%s\" needs a value", w);
			return usage_err("unknown argument \"%s\"", w);
		}
		if (is_word(w, "method")) {
			list = argv[1];
		} else if (is_word(w, "rounds")) {
			if (parse_u32(argv[1], &b->rounds, 1, MAX_ROUNDS))
				return usage_err("rounds \"%s\": a number, 1-%d",
						 argv[1], MAX_ROUNDS);
		} else if (is_word(w, "duration")) {
			if (parse_u32(argv[1], &b->duration, 1, 3600))
				return usage_err("duration \"%s\": whole seconds, 1-3600",
						 argv[1]);
		} else if (is_word(w, "size")) {
			if (parse_u32(argv[1], &b->size, 64, 1518))
				return usage_err("size \"%s\": bytes on the wire, 64-1518",
						 argv[1]);
		} else if (is_word(w, "noise")) {
			if (parse_u32(argv[1], &b->noise_pct, 0, 100))
				return usage_err("noise \"%s\": a percentage, 0 (keep all) - 100",
						 argv[1]);
		} else if (is_word(w, "plot")) {
			const char *ext = strrchr(argv[1], '.');

			if (!ext || (strcmp(ext, ".png") && strcmp(ext, ".svg")))
				return usage_err("plot \"%s\": a FILE.png or FILE.svg",
						 argv[1]);
			b->plot = argv[1];
		} else if (is_word(w, "save")) {
			b->save = argv[1];
		} else if (is_word(w, "count")) {
			if (!is_word(argv[1], "tc") && !is_word(argv[1], "xdp"))
				return usage_err("count \"%s\": tc or xdp", argv[1]);
			b->count_xdp = is_word(argv[1], "xdp");
		} else if (is_word(w, "sink")) {
			if (!is_word(argv[1], "inline") && !is_word(argv[1], "thread"))
				return usage_err("sink \"%s\": inline or thread", argv[1]);
			b->sink_thread = is_word(argv[1], "thread");
		} else {
			return usage_err("unknown argument \"%s\"", w);
		}
		argc--;
		argv++;
	}
	err = parse_methods(b, list);
	if (err)
		return err;
	if (geteuid()) {
		p_err("must be run as root (namespaces, BPF)");
		return BPFWD_EXIT_FAIL;
	}
	b->gen_cpu = nr_cpus() > 1 ? 0 : -1;
	b->dut_cpu = nr_cpus() > 1 ? 1 : -1;
	b->sink_cpu = b->dut_cpu;
	if (b->gen_cpu < 0)
		pr_warn("bench: one CPU: gen and dut share it, ratios still hold, rates do not");

	/* nice -20, and the autogroup's too where it is on */
	setpriority(PRIO_PROCESS, 0, -20);
	{
		FILE *f = fopen("/proc/self/autogroup", "w");

		if (f) {
			fputs("-20", f);
			fclose(f);
		}
	}
	bench_stop = 0;
	sigaction(SIGINT, &sa, &old[0]);
	sigaction(SIGTERM, &sa, &old[1]);
	sigaction(SIGHUP, &sa, &old[2]);

	b->live = isatty(STDERR_FILENO);
	load0 = loadavg1();
	b->own_ns = !devs[0];
	err = b->own_ns ? topo_build(b) : topo_devices(b, devs);
	if (err) {
		if (b->err[0])
			p_err("topology: %s", b->err);
		goto out;
	}
	err = bench_run(b);
	load1 = loadavg1();
	if (err == -EINTR) {
		p_err("interrupted: everything it set up is removed");
		goto out;
	}
	print_doc(b, load0, load1);
	ret = BPFWD_EXIT_OK;
	if (b->save && save_doc(b, load0, load1))
		ret = BPFWD_EXIT_FAIL;
	for (i = 0; i < b->nrows; i++)
		if (b->rows[i].failed[0])
			ret = BPFWD_EXIT_FAIL;
	if (b->plot && plot(b))
		ret = BPFWD_EXIT_FAIL;
out:
	topo_destroy(b);
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
	sigaction(SIGHUP, &old[2], NULL);
	return ret;
}
