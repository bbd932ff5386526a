// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd probe: what the running kernel offers bpfwd, found by trying it.
 * Attach tests run in a throwaway network namespace of a child process,
 * so probing changes nothing on the host.
 */
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "objects.h"
#include "lib/attach.h"
#include "lib/json.h"
#include "lib/mon_probes.h"
#include "lib/nl.h"
#include "lib/params.h"
#include "lib/pins.h"
#include "lib/trust.h"
#include "lib/util.h"
#include "hook.h"

#ifndef TC_LIB_DIR_DEFAULT
#define TC_LIB_DIR_DEFAULT "/usr/lib/x86_64-linux-gnu/tc"
#endif

/* probe takes no keywords: its table is empty, for the messages */
static const struct kw probe_kws[] = {
	KW_END
};

int probe_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("Usage: bpfwd probe", stdout);
	kw_usage(stdout, probe_kws, 0);
	return BPFWD_EXIT_OK;
}

enum {
	P_CLSACT = 1 << 0,
	P_CLS_BPF = 1 << 1,
	P_ACT_BPF = 1 << 2,
	P_TCX = 1 << 3,
	P_REDIRECT_PEER = 1 << 4,
};

static int trivial_prog(enum bpf_prog_type type)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0,
		  .imm = TC_ACT_OK },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(type, "bpfwd_probe", "GPL", insns, 2, NULL);
}

/* In a child, in a new netns: try each hook on lo; exit code = bits. */
static int probe_hooks(void)
{
	int status, bits = 0, fd;
	bool created;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return 0;
	if (!pid) {
		if (unshare(CLONE_NEWNET))
			_exit(0);
		if (!nl_clsact_add(1, &created))
			bits |= P_CLSACT;
		fd = trivial_prog(BPF_PROG_TYPE_SCHED_CLS);
		if (fd >= 0 && !nl_bpf_filter_set(1, false, 1, fd, "probe",
						  false))
			bits |= P_CLS_BPF;
		if (fd >= 0 && kernel_has_tcx())
			bits |= P_TCX;
		fd = trivial_prog(BPF_PROG_TYPE_SCHED_ACT);
		if (fd >= 0 && !nl_act_filter_add(1, false, 2, fd, "probe"))
			bits |= P_ACT_BPF;
		_exit(bits);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return 0;
	return WEXITSTATUS(status);
}

/* The tracepoints monitor attaches to, found in the kernel's BTF as
 * monitor finds them (tracefs need not be mounted).
 */
static void print_tracepoints(void)
{
	static const char *const want[] = {
		"xdp/xdp_redirect", "xdp/xdp_redirect_err",
		"xdp/xdp_redirect_map", "xdp/xdp_redirect_map_err",
		"xdp/xdp_exception", "xdp/xdp_cpumap_kthread",
		"xdp/xdp_cpumap_enqueue", "xdp/xdp_devmap_xmit",
		"skb/kfree_skb", "tc/tc_redirect", "tc/tc_redirect_err",
	};
	struct btf *btf = btf__load_vmlinux_btf();
	size_t i;

	open_json_object("tracepoints");
	print_string(PRINT_FP, NULL, "%s", "tracepoints:");
	if (!btf)
		print_string(PRINT_FP, NULL, "%s",
			     " (unknown: no kernel BTF, /sys/kernel/btf/vmlinux)");
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		bool have = btf &&
			    mon_has_tracepoint(btf, strchr(want[i], '/') + 1);

		print_bool(PRINT_JSON, want[i], NULL, have);
		if (have)
			print_string(PRINT_FP, NULL, " %s", want[i]);
	}
	print_nl();
	close_json_object();
	btf__free(btf);
}

static void print_plugin(void)
{
	/* root dlopen()s it: not from a place another user controls */
	const char *dir = env_path("TC_LIB_DIR");
	char path[512], why[600] = "";
	void *h = NULL;

	if (!dir)
		dir = TC_LIB_DIR_DEFAULT;
	snprintf(path, sizeof(path), "%s/e_bpfwd.so", dir);
	open_json_object("tc_plugin");
	print_string(PRINT_ANY, "path", "tc plugin: %s", path);
	if (path_trusted(path, why, sizeof(why)))
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		print_bool(PRINT_JSON, "loads", NULL, false);
		print_string(PRINT_ANY, "error", ": does not load: %s",
			     *why ? why : dlerror());
	} else if (!dlsym(h, "bpfwd_exec_util")) {
		print_bool(PRINT_JSON, "loads", NULL, false);
		print_string(PRINT_ANY, "error", ": %s",
			     "no bpfwd_exec_util symbol");
	} else {
		print_bool(PRINT_ANY, "loads", ": loads %s", true);
	}
	if (h)
		dlclose(h);
	print_nl();
	close_json_object();
}

static void feature(const char *key, const char *label, bool have,
		    const char *why)
{
	char fmt[64];

	print_bool(PRINT_JSON, key, NULL, have);
	snprintf(fmt, sizeof(fmt), "%-14s %%s", label);
	print_string(PRINT_FP, NULL, fmt, have ? "yes" : "no");
	if (!have && why)
		print_string(PRINT_FP, NULL, " (%s)", why);
	print_nl();
}

int do_probe(int argc, char **argv)
{
	struct utsname u;
	struct stat st;
	int bits;

	opts.cmd = "probe";
	if (argc > 0 && is_word(*argv, "help"))
		return probe_help(0, NULL);
	bits = kw_parse(probe_kws, argc, argv, NULL, NULL);
	if (bits)
		return bits;
	if (need_root())
		return BPFWD_EXIT_FAIL;
	bits = probe_hooks();
	uname(&u);
	json_begin();
	open_json_object(NULL);
	print_string(PRINT_ANY, "kernel", "kernel         %s\n", u.release);
	print_string(PRINT_ANY, "bpffs", "bpffs          %s", bpffs_root());
	print_nl();
	feature("btf", "btf", !stat("/sys/kernel/btf/vmlinux", &st),
		"no /sys/kernel/btf/vmlinux");
	feature("clsact", "clsact", bits & P_CLSACT, "CONFIG_NET_SCH_INGRESS");
	feature("cls_bpf", "cls_bpf", bits & P_CLS_BPF, "CONFIG_NET_CLS_BPF");
	feature("tcx", "tcx", bits & P_TCX, "needs Linux 6.6");
	feature("act_bpf", "act_bpf", bits & P_ACT_BPF,
		"CONFIG_NET_ACT_BPF or CONFIG_NET_CLS_U32 missing: hook act unavailable");
	print_string(PRINT_ANY, "default_hook", "default hook   %s\n",
		     bits & P_TCX ? "tcx" : "tc");
	hook_probe_print();
	print_tracepoints();
	print_plugin();
	close_json_object();
	json_end();
	return BPFWD_EXIT_OK;
}
