// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * Frame fuzzing: every packet program of every object in build/bpf/
 * (redirect.o, xdp.o, and whatever else is there: gen.o, benchsink.o,
 * later route.o, bridge.o) runs with BPF_PROG_TEST_RUN on random and
 * mutated frames: the frames of unit_test.h truncated at every length,
 * with bytes flipped, with VLAN stacks up to six tags deep, IPv4 with
 * every header length (options, and ihl below 5), IPv6 with chains of
 * extension headers, and random bytes of random length.  Between
 * batches the port table changes state: IN -> OUT, IN without target,
 * IN without entry, OUT -> lo, OUT without entry, the frame arriving on
 * IN or OUT; the other port's entry is a decoy whose target and slot
 * the frame must not touch.
 *
 * For every section it checks that every run succeeds (frames shorter
 * than an Ethernet header must be refused by the kernel), that every
 * verdict is one the program may return (XDP_ABORTED never from a
 * forwarding program), that a frame goes only where the table sends it,
 * and for redirect.o and xdp.o that the counters agree with the
 * verdicts: the port's slot counts forwarded exactly the frames
 * redirected, and slot 0 the frames without entry.
 *
 * Where a frame goes: BPF_PROG_TEST_RUN reports only the verdict, so
 *  - for redirect.o and xdp.o, a redirect verdict only when the table
 *    names a target for the port (a map mode: an entry);
 *  - every XDP frame runs a second time with live frames, where the
 *    redirect really happens, and tracepoints (tests/unit/fuzz_spy.bpf.c)
 *    see each target: only the table's (for gen.o and benchsink.o their
 *    fixed target, OUT);
 *  - a tc clone to a device's egress really leaves: the same tracepoints
 *    see the device.  A plain tc redirect does not happen in a test run
 *    (nor would fentry or kprobes on the helpers work on a kernel
 *    without ftrace and kprobes), so tc redirects are judged by verdict
 *    and counters only.
 *
 *   test_fuzz PIN_DIR IN_DEV OUT_DEV        (tests/unit/test_fuzz.t)
 *
 * FUZZ_FRAMES frames per section (default 3000; make fuzz: 100000),
 * FUZZ_SEED the seed (default: from the clock; printed, so a failure can
 * be replayed), FUZZ_ONLY runs only the sections whose "object/program"
 * contains it.  bpf_clone_redirect() really sends its clones, so this
 * runs in a namespace holding lo and the two devices only.  TAP output.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "unit_test.h"
#include "lib/util.h"
#include "bpfwd.h"	/* the ABI, bpf/bpfwd.h */

#define SLOT		9	/* the slot of IN's entry */
#define SLOT_OUT	10	/* the slot of OUT's entry (to lo) */
#define BATCH		64	/* frames per table state */
#define FUZZ_LEN	ETH_FRAME_LEN	/* longest frame: 1514 */
#define MAX_DIAG	3	/* failures shown per check and section */

/* What the spy sees: the kinds of fuzz_spy.bpf.c, in its order */
enum {
	SPY_REDIRECT, SPY_DEVMAP, SPY_DEVHASH, SPY_CPUMAP, SPY_OTHER_MAP,
	SPY_CLONE, SPY_KINDS,
};

static const char *const spy_names[SPY_KINDS] = {
	"XDP redirect to ifindex", "devmap slot", "devmap hash key",
	"cpumap CPU", "other map index", "tc clone out of ifindex",
};

#define SPY_NONE	0xffffffffffffffffULL
#define SPY_MARK	0xf022	/* skb->mark of the test's frames */

struct spy {
	__u64 allowed[SPY_KINDS];
	__u64 calls[SPY_KINDS];
	__u64 bad[SPY_KINDS];
	__u64 last_bad[SPY_KINDS];
	__u64 watch;
};

/* How each known object is judged; any other object gets the default:
 * a forwarding program whose only configuration is the port table.
 */
struct policy {
	const char *obj;
	bool table;		/* follows bpfwd_ports (else fixed target) */
	bool counts;		/* counters as redirect.o counts */
	bool aborted_ok;	/* may return XDP_ABORTED */
	const char *rodata_out;	/* const volatile set to OUT's ifindex */
};

static const struct policy policies[] = {
	{ "redirect.o", true, true, false, NULL },
	{ "xdp.o", true, true, false, NULL },
	/* bench tools: gen aborts what it cannot patch (its own frames) */
	{ "gen.o", false, false, true, "gen_ifindex" },
	{ "benchsink.o", false, false, false, "fixed_target" },
};

static const struct policy default_policy = { NULL, true, false, false, NULL };

/* Table states, one per batch: who has an entry, where the frame
 * arrives.  IN's entry goes to OUT (or 0), OUT's to lo: the other port's
 * entry is a decoy whose target and slot the frame must not touch.
 */
struct state {
	const char *name;
	bool in_entry;		/* IN has an entry, slot SLOT */
	bool in_target;		/* ... with target OUT (else 0) */
	bool out_entry;		/* OUT has one to lo, slot SLOT_OUT */
	bool from_out;		/* the frame arrives on OUT, else on IN */
};

static const struct state states[] = {
	{ "on IN, IN to OUT", true, true, true, false },
	{ "on IN, IN without target", true, false, true, false },
	{ "on IN, IN without entry", false, false, true, false },
	{ "on OUT, OUT without entry", true, true, false, true },
	{ "on OUT, OUT to lo", true, true, true, true },
};

#define NR_STATES	ARRAY_SIZE(states)

/* The arrival port's entry: whether there is one, its target, its slot;
 * and the other port's slot (0: no other entry)
 */
static bool st_entry(const struct state *st)
{
	return st->from_out ? st->out_entry : st->in_entry;
}

static __u32 st_slot(const struct state *st)
{
	return st->from_out ? SLOT_OUT : SLOT;
}

static __u32 st_other_slot(const struct state *st)
{
	if (st->from_out)
		return st->in_entry ? SLOT : 0;
	return st->out_entry ? SLOT_OUT : 0;
}

struct env {
	const char *pin_dir;
	char obj_dir[PATH_MAX];
	__u32 in, out, lo;
	int ncpus;
	__u64 seed;
	unsigned long frames;
	const char *only;
	struct bpf_object *spy_obj;
	int spy_fd;		/* -1: no spy, targets not checked */
	const char *spy_why;
};

/* One object under test */
struct target {
	const char *name;
	const struct policy *pol;
	struct bpf_object *obj;
	int ports_fd, stats_fd;	/* -1 when the object has none */
};

/* The results of one section */
struct result {
	unsigned long runs, refused, short_refused, errors, bad_verdicts;
	unsigned long redirects;
	unsigned long spy_bad, spy_unexplained, count_bad;
	unsigned long live_runs, live_errors;
	__u64 seen[SPY_KINDS];		/* targets the spy saw, by kind */
	unsigned long verdicts[16];	/* by verdict + 1 (UNSPEC: -1) */
	int diag[4];
};

/* xorshift64*: the same seed gives the same frames */
static __u64 rng_state;

static __u64 rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static __u32 rnd_below(__u32 n)
{
	return n ? rnd() % n : 0;
}

static __u64 fnv1a(const char *s)
{
	__u64 h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (__u8)*s) * 0x100000001b3ULL;
	return h;
}

struct fz {
	__u8 d[FUZZ_LEN];
	__u32 len;
};

/* Inserts @n bytes at @off (moving the rest), cut at FUZZ_LEN. */
static __u8 *fz_insert(struct fz *f, __u32 off, __u32 n)
{
	if (off > f->len || off + n > FUZZ_LEN)
		return NULL;
	if (f->len + n > FUZZ_LEN)
		f->len = FUZZ_LEN - n;
	memmove(f->d + off + n, f->d + off, f->len - off);
	f->len += n;
	return f->d + off;
}

static void fz_from(struct fz *f, const struct frame *t)
{
	memcpy(f->d, t->data, t->len);
	f->len = t->len;
}

/* The templates: unit_test.h's frames */
enum { T_UDP, T_UDP6, T_ARP, T_ETH, T_DOT1Q, T_QINQ, NR_TEMPLATES };

static struct frame templates[NR_TEMPLATES];

static void build_templates(void)
{
	build_udp(&templates[T_UDP], "udp", 0, 36);
	build_udp6(&templates[T_UDP6], "udp6", 36);
	build_arp(&templates[T_ARP], "arp");
	build_eth_only(&templates[T_ETH], "eth");
	build_udp(&templates[T_DOT1Q], "802.1Q udp", 1, 36);
	build_udp(&templates[T_QINQ], "802.1ad udp", 2, 36);
}

/* Where the EtherType after the MACs and the tags is */
static __u32 l3_off(const struct fz *f)
{
	__u32 off = 2 * ETH_ALEN;

	while (off + 4 <= f->len &&
	       (f->d[off] == 0x81 || f->d[off] == 0x88) &&
	       (f->d[off + 1] == 0x00 || f->d[off + 1] == 0xa8))
		off += 4;
	return off + 2;
}

/* 1..6 tags of random TPIDs in front of the EtherType */
static void add_vlans(struct fz *f)
{
	static const __u16 tpid[] = { ETH_P_8021Q, ETH_P_8021AD, 0x9100 };
	__u32 n = 1 + rnd_below(6), i;

	for (i = 0; i < n; i++) {
		__u8 *p = fz_insert(f, 2 * ETH_ALEN, 4);

		if (!p)
			return;
		put16(p, tpid[rnd_below(3)]);
		put16(p + 2, rnd() & 0xffff);
	}
}

/* IPv4 with ihl 0..15; options (random bytes) fill what ihl > 5 says */
static void ipv4_odd_ihl(struct fz *f)
{
	__u32 l3 = l3_off(f), ihl = rnd_below(16);
	__u8 *ip;

	if (ihl > 5 && !fz_insert(f, l3 + 20, (ihl - 5) * 4))
		return;
	ip = f->d + l3;
	if (l3 + 20 > f->len)
		return;
	ip[0] = 0x40 | ihl;
	if (ihl > 5) {
		__u32 i;

		for (i = 20; i < ihl * 4; i++)
			ip[i] = rnd_below(4) ? rnd() : 1; /* junk, NOPs */
	}
	if (rnd_below(2))
		put16(ip + 2, f->len - l3);	/* tot_len that fits */
	if (rnd_below(4) == 0)
		put16(ip + 6, rnd() & 0x3fff);	/* a fragment */
	put16(ip + 10, 0);
	put16(ip + 10, ntohs(ip_csum(ip, ihl >= 5 ? ihl * 4 : 20)));
}

/* IPv6 with 1..4 extension headers before UDP */
static void ipv6_ext(struct fz *f)
{
	static const __u8 ext[] = { 0, 43, 44, 60, 51, 135 };
	__u32 l3 = l3_off(f), n = 1 + rnd_below(4), i;

	if (l3 + 40 > f->len)
		return;
	for (i = 0; i < n; i++) {
		__u32 hlen = 8 * (1 + rnd_below(3));
		__u8 *h = fz_insert(f, l3 + 40, hlen), *ip = f->d + l3;
		__u32 j;

		if (!h)
			return;
		h[0] = ip[6];			/* next: what followed */
		h[1] = hlen / 8 - 1;
		for (j = 2; j < hlen; j++)
			h[j] = rnd();
		ip[6] = ext[rnd_below(sizeof(ext))];
		put16(ip + 4, f->len - l3 - 40);
	}
}

static void flip_bytes(struct fz *f)
{
	__u32 n = 1 + rnd_below(8), i;

	for (i = 0; i < n && f->len; i++) {
		__u32 at = rnd_below(f->len);

		if (rnd_below(2))
			f->d[at] ^= 1 << rnd_below(8);
		else
			f->d[at] = rnd();
	}
}

static void grow(struct fz *f)
{
	__u32 to = f->len + rnd_below(FUZZ_LEN - f->len + 1), i;

	for (i = f->len; i < to; i++)
		f->d[i] = rnd();
	f->len = to;
}

/* The sweep: these shapes truncated at every length 0..len */
enum { W_UDP, W_UDP6, W_ARP, W_DOT1Q, W_QINQ, W_IHL, W_EXT, NR_SWEEP };

static void sweep_shape(struct fz *f, int shape)
{
	static const int tmpl[NR_SWEEP] = {
		T_UDP, T_UDP6, T_ARP, T_DOT1Q, T_QINQ, T_UDP, T_UDP6,
	};

	fz_from(f, &templates[tmpl[shape]]);
	if (shape == W_IHL)
		ipv4_odd_ihl(f);
	else if (shape == W_EXT)
		ipv6_ext(f);
}

/* Frame @i of a section: first the sweep, then random ones */
static void make_frame(struct fz *f, unsigned long i, unsigned long *sweep)
{
	struct fz whole;
	__u32 kind;

	if (*sweep != ~0UL) {
		__u32 shape = *sweep >> 16, len = *sweep & 0xffff;
		__u64 saved = rng_state;

		/* the same frame for every length of one shape */
		rng_state = 0x9e3779b97f4a7c15ULL * (shape + 1);
		sweep_shape(&whole, shape);
		rng_state = saved;
		memcpy(f, &whole, sizeof(*f));
		f->len = len;
		if (len < whole.len)
			*sweep = *sweep + 1;
		else if (shape + 1 < NR_SWEEP)
			*sweep = (unsigned long)(shape + 1) << 16;
		else
			*sweep = ~0UL;
		return;
	}
	kind = rnd_below(10);
	if (kind == 0) {		/* random bytes, random length */
		f->len = 0;
		grow(f);
		if (f->len > 14 && rnd_below(2))
			put16(f->d + 12, rnd_below(2) ? ETH_P_IP : ETH_P_IPV6);
		return;
	}
	fz_from(f, &templates[rnd_below(NR_TEMPLATES)]);
	if (rnd_below(3) == 0)
		add_vlans(f);
	if (rnd_below(3) == 0) {
		fz_from(f, &templates[T_UDP]);
		if (rnd_below(2))
			add_vlans(f);
		ipv4_odd_ihl(f);
	} else if (rnd_below(4) == 0) {
		fz_from(f, &templates[T_UDP6]);
		if (rnd_below(2))
			add_vlans(f);
		ipv6_ext(f);
	}
	if (rnd_below(3) == 0)
		grow(f);
	if (rnd_below(2))
		flip_bytes(f);
	if (rnd_below(4) == 0)
		f->len = rnd_below(f->len + 1);
}

static void hexdump(const struct fz *f)
{
	char line[3 * 32 + 1];
	__u32 i, n = f->len < 96 ? f->len : 96;

	for (i = 0; i < n; i++) {
		snprintf(line + 3 * (i % 32), 4, "%02x ", f->d[i]);
		if (i % 32 == 31 || i == n - 1)
			printf("#     %s\n", line);
	}
	if (n < f->len)
		printf("#     ... (%u bytes)\n", f->len);
}

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE	71
#endif

/* The cookie of the namespace the test runs in */
static int netns_cookie(__u64 *cookie)
{
	socklen_t len = sizeof(*cookie);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return -errno;
	if (getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, cookie, &len))
		err = -errno;
	close(fd);
	return err;
}

static int rodata_set(struct bpf_object *obj, const char *var,
		      const void *value, __u32 size);

/* The spy: tracepoints that see where frames went, for this process only */
static int spy_load(struct env *e)
{
	char path[PATH_MAX + 32];
	struct bpf_program *prog;
	__u32 tgid = getpid();
	__u64 cookie;
	int err;

	e->spy_fd = -1;
	snprintf(path, sizeof(path), "%s/../tests/bpf/fuzz_spy.o", e->obj_dir);
	e->spy_obj = bpf_object__open_file(path, NULL);
	if (!e->spy_obj) {
		e->spy_why = "build/tests/bpf/fuzz_spy.o missing (make check builds it)";
		return -ENOENT;
	}
	err = netns_cookie(&cookie);
	if (err) {
		e->spy_why = "no SO_NETNS_COOKIE (Linux 5.14)";
		return err;
	}
	if (rodata_set(e->spy_obj, "spy_tgid", &tgid, sizeof(tgid)) ||
	    rodata_set(e->spy_obj, "spy_netns", &cookie, sizeof(cookie))) {
		e->spy_why = "fuzz_spy.o has no spy_tgid or spy_netns";
		return -EINVAL;
	}
	err = bpf_object__load(e->spy_obj);
	if (err) {
		e->spy_why = "kernel refuses the tp_btf programs of fuzz_spy.o";
		return err;
	}
	bpf_object__for_each_program(prog, e->spy_obj) {
		if (!bpf_program__attach(prog)) {
			e->spy_why = "cannot attach the tracepoints of fuzz_spy.o";
			return -errno;
		}
	}
	e->spy_fd = bpf_object__find_map_fd_by_name(e->spy_obj, "spy");
	return e->spy_fd < 0 ? e->spy_fd : 0;
}

/* @xdp: watch the XDP redirects, else the tc clones */
static int spy_reset(struct env *e, const __u64 *allowed, bool xdp)
{
	struct spy s = {};
	__u32 zero = 0;

	if (e->spy_fd < 0)
		return 0;
	memcpy(s.allowed, allowed, sizeof(s.allowed));
	s.watch = xdp ? (1ULL << SPY_CLONE) - 1 : 1ULL << SPY_CLONE;
	return bpf_map_update_elem(e->spy_fd, &zero, &s, 0) ? -errno : 0;
}

static int spy_read(struct env *e, struct spy *s)
{
	__u32 zero = 0;

	memset(s, 0, sizeof(*s));
	if (e->spy_fd < 0)
		return 0;
	return bpf_map_lookup_elem(e->spy_fd, &zero, s) ? -errno : 0;
}

/* Slot @slot of bpfwd_stats summed over the CPUs */
static int stats_sum(struct env *e, int fd, __u32 slot, struct bpfwd_stats *sum)
{
	struct bpfwd_stats *v = calloc(e->ncpus, sizeof(*v));
	int i, err = 0;

	memset(sum, 0, sizeof(*sum));
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(fd, &slot, v)) {
		err = -errno;
	} else {
		for (i = 0; i < e->ncpus; i++) {
			sum->packets += v[i].packets;
			sum->bytes += v[i].bytes;
			sum->err_redirect += v[i].err_redirect;
			sum->err_clone += v[i].err_clone;
			sum->no_target += v[i].no_target;
			sum->dropped += v[i].dropped;
			sum->runt += v[i].runt;
			sum->vlan += v[i].vlan;
		}
	}
	free(v);
	return err;
}

static __u64 stats_all(const struct bpfwd_stats *s)
{
	return s->packets + s->bytes + s->err_redirect + s->err_clone +
	       s->no_target + s->dropped + s->runt + s->vlan;
}

/* The mode the CLI would write for this program (informational for the
 * programs, but the table should look like what bpfwd writes); @what is
 * "section/name"
 */
static __u32 mode_of(const char *what)
{
	if (strstr(what, "mirror") || strstr(what, "/mir_"))
		return BPFWD_MODE_MIRROR;
	if (strstr(what, "clone"))
		return BPFWD_MODE_CLONE;
	if (strstr(what, "peer"))
		return BPFWD_MODE_PEER;
	if (strstr(what, "neigh"))
		return BPFWD_MODE_NEIGH;
	if (strstr(what, "devmap"))
		return BPFWD_MODE_MAP;
	if (strstr(what, "cpumap"))
		return BPFWD_MODE_CPUMAP;
	if (strstr(what, "flood"))
		return BPFWD_MODE_FLOOD;
	return BPFWD_MODE_REDIRECT;
}

/* Map modes go by the port's slot, not by its target */
static bool map_mode(__u32 mode)
{
	return mode == BPFWD_MODE_MAP || mode == BPFWD_MODE_CPUMAP ||
	       mode == BPFWD_MODE_FLOOD;
}

struct run {
	struct env *e;
	struct target *t;
	const char *sec;
	enum bpf_prog_type type;
	__u32 mode;
	int prog_fd;
	struct result *r;
};

static __u32 st_target(const struct env *e, const struct state *st)
{
	if (!st_entry(st))
		return 0;
	return st->from_out ? e->lo : st->in_target ? e->out : 0;
}

static int port_put(int fd, __u32 key, bool entry, const struct bpfwd_port *p)
{
	if (!entry)
		return bpf_map_delete_elem(fd, &key) && errno != ENOENT ?
		       -errno : 0;
	return bpf_map_update_elem(fd, &key, p, 0) ? -errno : 0;
}

/* Writes the table for @st; returns the ingress ifindex and what the
 * spy may see.
 */
static int table_set(struct run *x, const struct state *st, __u32 *ingress,
		     __u64 *allowed)
{
	struct env *e = x->e;
	struct target *t = x->t;
	struct bpfwd_port p = {
		.target = st->in_target ? e->out : 0,
		.mode = x->mode,
		.hook = x->type == BPF_PROG_TYPE_XDP ? BPFWD_HOOK_XDP :
						       BPFWD_HOOK_NONE,
		.slot = SLOT,
	};
	struct bpfwd_port q = p;
	__u32 target = st_target(e, st);
	int i, err;

	*ingress = st->from_out ? e->out : e->in;
	for (i = 0; i < SPY_KINDS; i++)
		allowed[i] = SPY_NONE;
	if (!t->pol->table) {
		/* a fixed target: OUT, whatever the table says */
		allowed[SPY_REDIRECT] = allowed[SPY_CLONE] = e->out;
		return 0;
	}
	if (target)
		allowed[SPY_REDIRECT] = allowed[SPY_CLONE] = target;
	if (st_entry(st)) {
		allowed[SPY_DEVMAP] = st_slot(st);
		allowed[SPY_DEVHASH] = 0;	/* a broadcast */
		allowed[SPY_CPUMAP] = e->ncpus - 1;
	}
	if (t->ports_fd < 0)
		return 0;
	q.target = e->lo;
	q.slot = SLOT_OUT;
	err = port_put(t->ports_fd, e->in, st->in_entry, &p);
	return err ?: port_put(t->ports_fd, e->out, st->out_entry, &q);
}

/* Whether the table lets a frame in @st be redirected at all (the
 * programs of redirect.o and xdp.o): a target, or for a map mode an entry
 */
static bool may_redirect(const struct run *x, const struct state *st)
{
	if (!x->t->pol->counts)
		return true;
	return st_target(x->e, st) || (st_entry(st) && map_mode(x->mode));
}

static bool verdict_valid(const struct run *x, int v)
{
	if (x->type == BPF_PROG_TYPE_XDP)
		return v == XDP_PASS || v == XDP_DROP || v == XDP_TX ||
		       v == XDP_REDIRECT ||
		       (v == XDP_ABORTED && x->t->pol->aborted_ok);
	if (!strcmp(x->t->name, "redirect.o")) {
		/* redirect.bpf.c's contract, section by section */
		if (!strncmp(x->sec, "mirror_", 7))
			return v == TC_ACT_UNSPEC;
		if (!strncmp(x->sec, "clone_", 6))
			return v == TC_ACT_OK || v == TC_ACT_SHOT;
		return v == TC_ACT_OK || v == TC_ACT_SHOT ||
		       v == TC_ACT_REDIRECT;
	}
	return v == TC_ACT_UNSPEC || v == TC_ACT_OK || v == TC_ACT_SHOT ||
	       v == TC_ACT_STOLEN || v == TC_ACT_REDIRECT;
}

static const char *verdict_name(enum bpf_prog_type type, int v)
{
	static const char *const xdp[] = {
		"ABORTED", "DROP", "PASS", "TX", "REDIRECT",
	};
	static const char *const tc[] = {
		"UNSPEC", "OK", "RECLASSIFY", "SHOT", "PIPE", "STOLEN",
		"QUEUED", "REPEAT", "REDIRECT", "TRAP",
	};

	if (type == BPF_PROG_TYPE_XDP)
		return v >= 0 && v < 5 ? xdp[v] : "?";
	return v >= -1 && v < 9 ? tc[v + 1] : "?";
}

static bool first(struct result *r, int check)
{
	return r->diag[check]++ < MAX_DIAG;
}

/* One frame: the run must succeed (or the kernel refuse a frame shorter
 * than an Ethernet header) and the verdict must be valid.  Returns
 * whether the program ran.
 */
static bool run_one(struct run *x, const struct fz *f, __u32 ingress,
		    unsigned long idx, const struct state *st,
		    unsigned long *redirects)
{
	static __u8 out[2 * FUZZ_LEN];
	struct __sk_buff skb = { .ifindex = ingress, .mark = SPY_MARK };
	struct xdp_md xdp = { .data_end = f->len, .ingress_ifindex = ingress };
	bool is_xdp = x->type == BPF_PROG_TYPE_XDP;
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = f->d,
		.data_size_in = f->len,
		.data_out = out,
		.data_size_out = sizeof(out),
		.ctx_in = is_xdp ? (void *)&xdp : (void *)&skb,
		.ctx_size_in = is_xdp ? sizeof(xdp) : sizeof(skb),
	);
	struct result *r = x->r;
	int err, v;

	r->runs++;
	err = bpf_prog_test_run_opts(x->prog_fd, &o);
	/* EINVAL: the kernel refused the frame before the program ran:
	 * always when it is shorter than an Ethernet header, and for tc
	 * when its IPv4/IPv6 header is shorter than it claims
	 */
	if (err == -EINVAL) {
		r->refused++;
		if (f->len < ETH_HLEN)
			r->short_refused++;
		return false;
	}
	if (err || f->len < ETH_HLEN) {
		r->errors++;
		if (first(r, 0)) {
			printf("# %s/%s: frame %lu (%u bytes, %s): BPF_PROG_TEST_RUN: %s (%d)%s\n",
			       x->t->name, x->sec, idx, f->len,
			       st->name, strerror(-err), err,
			       f->len < ETH_HLEN ?
			       ", expected the kernel to refuse a frame shorter than a header" : "");
			hexdump(f);
		}
		return !err;
	}
	v = (int)o.retval;
	if (v >= -1 && v < 15)
		r->verdicts[v + 1]++;
	if (!verdict_valid(x, v)) {
		r->bad_verdicts++;
		if (first(r, 1)) {
			printf("# %s/%s: frame %lu (%u bytes, %s): verdict %d (%s) is not one it may return\n",
			       x->t->name, x->sec, idx, f->len,
			       st->name, v, verdict_name(x->type, v));
			hexdump(f);
		}
	}
	if (v != (is_xdp ? XDP_REDIRECT : TC_ACT_REDIRECT))
		return true;
	(*redirects)++;
	if (!may_redirect(x, st)) {
		r->spy_bad++;
		if (first(r, 2)) {
			printf("# %s/%s: frame %lu (%u bytes, %s): redirected, but the table names no target\n",
			       x->t->name, x->sec, idx, f->len,
			       st->name);
			hexdump(f);
		}
	}
	return true;
}

/* The same frame again with live frames: an XDP redirect then really
 * happens and the spy sees its target.
 */
static void run_live(struct run *x, const struct fz *f, __u32 ingress)
{
	struct xdp_md xdp = { .data_end = f->len, .ingress_ifindex = ingress };
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = f->d,
		.data_size_in = f->len,
		.ctx_in = &xdp,
		.ctx_size_in = sizeof(xdp),
		.flags = BPF_F_TEST_XDP_LIVE_FRAMES,
		.repeat = 1,
	);

	if (bpf_prog_test_run_opts(x->prog_fd, &o))
		x->r->live_errors++;
	else
		x->r->live_runs++;
}

/* After a batch: every target the spy saw is the table's, and for
 * objects with redirect.o's counters, the counters agree.
 */
static void spy_check(struct run *x, const struct state *st,
		      unsigned long redirects, unsigned long first_idx,
		      const struct spy *s)
{
	struct result *r = x->r;
	__u64 xdp_calls = 0;
	int k;

	for (k = 0; k < SPY_KINDS; k++) {
		r->seen[k] += s->calls[k];
		if (k != SPY_CLONE)
			xdp_calls += s->calls[k];
		if (!s->bad[k])
			continue;
		r->spy_bad += s->bad[k];
		if (!first(r, 2))
			continue;
		printf("# %s/%s: frames %lu-%lu (%s): %llu to %s %llu, ",
		       x->t->name, x->sec, first_idx, first_idx + BATCH - 1,
		       st->name, (unsigned long long)s->bad[k], spy_names[k],
		       (unsigned long long)s->last_bad[k]);
		if (s->allowed[k] == SPY_NONE)
			printf("the table allows none\n");
		else
			printf("the table allows %llu only\n",
			       (unsigned long long)s->allowed[k]);
	}
	/* live frames: one redirect for each redirect verdict */
	if (x->type == BPF_PROG_TYPE_XDP && xdp_calls != redirects) {
		r->spy_unexplained++;
		if (first(r, 2))
			printf("# %s/%s: frames %lu-%lu (%s): %lu redirect verdicts, %llu redirects with live frames\n",
			       x->t->name, x->sec, first_idx,
			       first_idx + BATCH - 1, st->name,
			       redirects, (unsigned long long)xdp_calls);
	}
}

struct counts {
	struct bpfwd_stats own, other, unmatched;
};

static int counts_read(struct run *x, const struct state *st,
		       struct counts *c)
{
	int fd = x->t->stats_fd, err;

	memset(c, 0, sizeof(*c));
	err = stats_sum(x->e, fd, st_slot(st), &c->own);
	if (!err && st_other_slot(st))
		err = stats_sum(x->e, fd, st_other_slot(st), &c->other);
	return err ?: stats_sum(x->e, fd, BPFWD_SLOT_UNMATCHED, &c->unmatched);
}

/* The arrival port's slot counts as forwarded each frame redirected (a
 * clone, without redirect verdict, at most once a frame); without entry
 * slot 0 counts each frame; the other port's slot never moves.
 */
static void count_check(struct run *x, const struct state *st,
			unsigned long ok_runs, unsigned long redirects,
			const struct counts *b, unsigned long first_idx)
{
	struct result *r = x->r;
	struct counts a;
	__u64 own, other, passed;
	bool bad;

	if (counts_read(x, st, &a)) {
		r->count_bad++;
		return;
	}
	other = stats_all(&a.other) - stats_all(&b->other);
	passed = a.unmatched.packets - b->unmatched.packets;
	if (!st_entry(st)) {
		own = stats_all(&a.own) - stats_all(&b->own);
		bad = own || other || passed != ok_runs;
	} else {
		own = a.own.packets - b->own.packets;
		bad = other || own < redirects ||
		      own > (redirects ? redirects : ok_runs);
	}
	if (!bad)
		return;
	r->count_bad++;
	if (first(r, 3))
		printf("# %s/%s: frames %lu-%lu (%s): %lu frames, %lu redirect verdicts; slot %u moved %llu, the other port's slot %llu (its counters summed), slot 0 passed %llu\n",
		       x->t->name, x->sec, first_idx, first_idx + BATCH - 1,
		       st->name, ok_runs, redirects, st_slot(st),
		       (unsigned long long)own, (unsigned long long)other,
		       (unsigned long long)passed);
}

static void section_report(struct run *x, const char *name)
{
	struct result *r = x->r;
	struct env *e = x->e;
	char hist[256];
	size_t n = 0;
	int v, k;

	tap(!r->errors, "%s: %lu frames run, %lu errors (the kernel refused %lu: %lu shorter than a header, %lu with a cut IPv4/IPv6 header)",
	    name, r->runs, r->errors, r->refused, r->short_refused,
	    r->refused - r->short_refused);
	for (v = -1; v < 15; v++)
		if (r->verdicts[v + 1] && n < sizeof(hist))
			n += snprintf(hist + n, sizeof(hist) - n, " %s %lu",
				      verdict_name(x->type, v),
				      r->verdicts[v + 1]);
	hist[n < sizeof(hist) ? n : sizeof(hist) - 1] = '\0';
	tap(!r->bad_verdicts, "%s: only verdicts it may return (%lu bad;%s)",
	    name, r->bad_verdicts, n ? hist : " none");

	n = 0;
	for (k = 0; k < SPY_KINDS; k++)
		if (r->seen[k] && n < sizeof(hist))
			n += snprintf(hist + n, sizeof(hist) - n, ", %llu %s",
				      (unsigned long long)r->seen[k],
				      spy_names[k]);
	hist[n < sizeof(hist) ? n : sizeof(hist) - 1] = '\0';
	if (e->spy_fd < 0)
		printf("# %s: targets not seen: %s\n", name, e->spy_why);
	if (x->type == BPF_PROG_TYPE_XDP && e->spy_fd >= 0)
		tap(!r->spy_bad && !r->spy_unexplained && !r->live_errors,
		    "%s: redirects only where the table says (%lu live runs, %lu failed%s)",
		    name, r->live_runs, r->live_errors, hist);
	else
		tap(!r->spy_bad,
		    "%s: redirects only where the table says (tc: by verdict%s)",
		    name, hist);
	if (x->t->pol->counts && x->t->stats_fd >= 0)
		tap(!r->count_bad,
		    "%s: the port's slot counts what was redirected, slot 0 what had no entry, the other port's nothing",
		    name);
	if (r->errors || r->bad_verdicts || r->spy_bad || r->spy_unexplained ||
	    r->live_errors || r->count_bad)
		printf("# replay: FUZZ_SEED=%llu FUZZ_FRAMES=%lu FUZZ_ONLY=%s\n",
		       (unsigned long long)e->seed, e->frames, name);
}

/* One batch of frames in one table state */
static int batch(struct run *x, const struct state *st, unsigned long *i,
		 unsigned long *sweep)
{
	static struct fz frames[BATCH];
	struct env *e = x->e;
	bool counts = x->t->pol->counts && x->t->stats_fd >= 0;
	bool live = x->type == BPF_PROG_TYPE_XDP && e->spy_fd >= 0;
	struct counts before;
	unsigned long start = *i, redirects = 0, ok = 0, j, n;
	bool ran[BATCH];
	__u64 allowed[SPY_KINDS];
	struct spy s;
	__u32 ingress;
	int err;

	err = table_set(x, st, &ingress, allowed);
	if (!err && counts)
		err = counts_read(x, st, &before);
	err = err ?: spy_reset(e, allowed, x->type == BPF_PROG_TYPE_XDP);
	if (err)
		return err;
	for (n = 0; n < BATCH && *i < e->frames; n++, (*i)++) {
		make_frame(&frames[n], *i, sweep);
		ran[n] = run_one(x, &frames[n], ingress, *i, st, &redirects);
		ok += ran[n];
	}
	if (counts)
		count_check(x, st, ok, redirects, &before, start);
	for (j = 0; live && j < n; j++)
		if (ran[j])
			run_live(x, &frames[j], ingress);
	if (e->spy_fd >= 0) {
		err = spy_read(e, &s);
		if (err)
			return err;
		spy_check(x, st, live ? redirects : 0, start, &s);
	}
	return 0;
}

static void fuzz_section(struct env *e, struct target *t,
			 struct bpf_program *prog)
{
	const char *sec = bpf_program__section_name(prog);
	struct run x = {
		.e = e, .t = t, .sec = sec, .type = bpf_program__type(prog),
		.prog_fd = bpf_program__fd(prog),
	};
	struct result r = {};
	unsigned long i = 0, sweep = 0;
	char name[96], what[192];
	int err;

	x.r = &r;
	snprintf(name, sizeof(name), "%s/%s", t->name, bpf_program__name(prog));
	snprintf(what, sizeof(what), "%s/%s", sec, bpf_program__name(prog));
	x.mode = mode_of(what);
	rng_state = (e->seed ^ fnv1a(name)) | 1;

	while (i < e->frames) {
		err = batch(&x, &states[rnd_below(NR_STATES)], &i, &sweep);
		if (err) {
			tap(ASSERT_OK(name, "table, counters and spy", err),
			    "%s: set-up", name);
			return;
		}
	}
	section_report(&x, name);
}

/* Sets the const volatile @var (@size bytes) of @obj's .rodata. */
static int rodata_set(struct bpf_object *obj, const char *var,
		      const void *value, __u32 size)
{
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *vs;
	const struct btf_type *sec;
	struct bpf_map *m, *rodata = NULL;
	size_t len;
	const void *init;
	void *copy;
	int id, i, err = -ENOENT;

	bpf_object__for_each_map(m, obj)
		if (bpf_map__is_internal(m) && strstr(bpf_map__name(m), ".rodata"))
			rodata = m;
	id = btf ? btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC) : -1;
	if (!rodata || id <= 0)
		return -ENOENT;
	sec = btf__type_by_id(btf, id);
	init = bpf_map__initial_value(rodata, &len);
	copy = malloc(len);
	if (!init || !copy) {
		free(copy);
		return -ENOMEM;
	}
	memcpy(copy, init, len);
	vs = btf_var_secinfos(sec);
	for (i = 0; i < btf_vlen(sec); i++, vs++) {
		const struct btf_type *v = btf__type_by_id(btf, vs->type);

		if (!strcmp(btf__name_by_offset(btf, v->name_off), var) &&
		    vs->size == size && vs->offset + size <= len) {
			memcpy((char *)copy + vs->offset, value, size);
			err = bpf_map__set_initial_value(rodata, copy, len);
			break;
		}
	}
	free(copy);
	return err;
}

/* Packet programs run; the rest is not loaded.  Returns how many run. */
static int pick_programs(struct target *t)
{
	struct bpf_program *prog;
	int n = 0;

	bpf_object__for_each_program(prog, t->obj) {
		enum bpf_prog_type type = bpf_program__type(prog);

		if (type == BPF_PROG_TYPE_UNSPEC) {
			/* a section only tc knows (redirect_xmit ...): set
			 * the type as bpfwd's loader does
			 */
			bpf_program__set_type(prog, BPF_PROG_TYPE_SCHED_CLS);
			type = BPF_PROG_TYPE_SCHED_CLS;
		}
		if (type == BPF_PROG_TYPE_SCHED_CLS ||
		    type == BPF_PROG_TYPE_XDP)
			n++;
		else
			bpf_program__set_autoload(prog, false);
	}
	return n;
}

static int target_open(struct env *e, struct target *t, const char *file)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = e->pin_dir);
	char path[PATH_MAX + 256];
	struct bpf_map *m;
	size_t i;
	int err;

	t->pol = &default_policy;
	for (i = 0; i < ARRAY_SIZE(policies); i++)
		if (!strcmp(policies[i].obj, file))
			t->pol = &policies[i];
	snprintf(path, sizeof(path), "%s/%s", e->obj_dir, file);
	t->obj = bpf_object__open_file(path, &oo);
	if (!t->obj)
		return -errno;
	if (!pick_programs(t))
		return -ENOENT;
	bpf_object__for_each_map(m, t->obj)
		if (bpf_map__type(m) == BPF_MAP_TYPE_CPUMAP &&
		    bpf_map__set_max_entries(m, e->ncpus))
			return -EINVAL;
	if (t->pol->rodata_out) {
		err = rodata_set(t->obj, t->pol->rodata_out, &e->out,
				 sizeof(e->out));
		if (err)
			return err;
	}
	return bpf_object__load(t->obj);
}

/* The maps the table states need, where the object has them: the port
 * table and its counters, the devmap slot, the cpumap CPU (with a
 * queue), OUT in the flood map
 */
static int target_maps(struct env *e, struct target *t)
{
	struct bpf_devmap_val d = { .ifindex = e->out };
	struct bpf_cpumap_val q = { .qsize = 64 };
	struct bpfwd_cpus c = { .count = 1, .qsize = 64 };
	__u32 slot = SLOT, cpu = e->ncpus - 1;
	struct obj_map {
		const char *name;
		const void *key, *value;
	} maps[] = {
		{ BPFWD_MAP_DEVMAP, &slot, &d },
		{ BPFWD_MAP_CPUMAP, &cpu, &q },
		{ BPFWD_MAP_CPUS, &slot, &c },
		{ BPFWD_MAP_FLOOD, &e->out, &d },
	};
	size_t i;
	int fd;

	c.cpu[0] = cpu;
	t->ports_fd = bpf_object__find_map_fd_by_name(t->obj, BPFWD_MAP_PORTS);
	t->stats_fd = bpf_object__find_map_fd_by_name(t->obj, BPFWD_MAP_STATS);
	for (i = 0; i < ARRAY_SIZE(maps); i++) {
		fd = bpf_object__find_map_fd_by_name(t->obj, maps[i].name);
		if (fd >= 0 &&
		    bpf_map_update_elem(fd, maps[i].key, maps[i].value, 0))
			return -errno;
	}
	return 0;
}

static void fuzz_object(struct env *e, const char *file)
{
	struct target t = { .name = file, .ports_fd = -1, .stats_fd = -1 };
	struct bpf_program *prog;
	char name[128];
	int err;

	err = target_open(e, &t, file);
	if (err == -ENOENT && t.obj) {
		tap_skip(file, "no packet programs (tracing only)");
		goto out;
	}
	tap(ASSERT_OK(file, "open and load", err),
	    "%s loads (every packet program verifies)", file);
	if (err)
		goto out;
	err = target_maps(e, &t);
	if (!ASSERT_OK(file, "map set-up", err)) {
		tap(false, "%s: maps set up", file);
		goto out;
	}
	bpf_object__for_each_program(prog, t.obj) {
		enum bpf_attach_type at;

		if (!bpf_program__autoload(prog))
			continue;
		at = bpf_program__expected_attach_type(prog);
		snprintf(name, sizeof(name), "%s/%s", file,
			 bpf_program__name(prog));
		if (e->only && !strstr(name, e->only))
			continue;
		if (bpf_program__type(prog) == BPF_PROG_TYPE_XDP &&
		    (at == BPF_XDP_DEVMAP || at == BPF_XDP_CPUMAP)) {
			tap_skip(name, at == BPF_XDP_DEVMAP ?
				 "a devmap program: BPF_PROG_TEST_RUN cannot give it the egress device" :
				 "a cpumap program: BPF_PROG_TEST_RUN cannot run it on a cpumap entry");
			continue;
		}
		fuzz_section(e, &t, prog);
	}
	if (t.ports_fd >= 0) {
		bpf_map_delete_elem(t.ports_fd, &e->in);
		bpf_map_delete_elem(t.ports_fd, &e->out);
	}
out:
	bpf_object__close(t.obj);
}

/* libbpf's warnings (a verifier log) as TAP comments */
static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	char line[1024];

	if (level != LIBBPF_WARN)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	printf("# libbpf: %s", line);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int only_objects(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 2 && !strcmp(d->d_name + n - 2, ".o");
}

static int env_init(struct env *e, int argc, char **argv)
{
	char exe[PATH_MAX];
	const char *s;
	ssize_t n;
	int err;

	err = unit_args(argc, argv, " (run by tests/unit/test_fuzz.t)", &e->pin_dir,
			&e->in, &e->out);
	if (err)
		return err;
	if (!unit_own_netns(e->in, e->out)) {
		fprintf(stderr, "%s: clones are really sent: run it in a namespace with only lo, %s and %s (tests/unit/test_fuzz.t)\n",
			argv[0], argv[2], argv[3]);
		return 2;
	}
	/* build/tests/test_fuzz -> build/bpf */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return 1;
	exe[n] = '\0';
	snprintf(e->obj_dir, sizeof(e->obj_dir), "%s/../bpf", dirname(exe));
	s = getenv("FUZZ_FRAMES");
	e->frames = s ? strtoul(s, NULL, 0) : 3000;
	s = getenv("FUZZ_SEED");
	e->seed = s ? strtoull(s, NULL, 0) :
		  (__u64)time(NULL) * 1000003 ^ getpid();
	e->only = getenv("FUZZ_ONLY");
	e->ncpus = libbpf_num_possible_cpus();
	e->lo = if_nametoindex("lo");
	if (!e->frames || e->ncpus <= 0) {
		fprintf(stderr, "%s: FUZZ_FRAMES must be a number > 0\n",
			argv[0]);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct dirent **ents;
	struct env e = {};
	int i, n, err;

	err = env_init(&e, argc, argv);
	if (err)
		return err;
	printf("# seed %llu, %lu frames per section (replay: FUZZ_SEED=%llu FUZZ_FRAMES=%lu)\n",
	       (unsigned long long)e.seed, e.frames,
	       (unsigned long long)e.seed, e.frames);
	libbpf_set_print(libbpf_print);
	build_templates();

	err = spy_load(&e);
	if (err)
		printf("# targets not checked: %s\n", e.spy_why);

	n = scandir(e.obj_dir, &ents, only_objects, by_name);
	if (n <= 0)
		return tap_skip_all("no objects in build/bpf: run make");
	for (i = 0; i < n; i++) {
		fuzz_object(&e, ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	bpf_object__close(e.spy_obj);
	return tap_done();
}
