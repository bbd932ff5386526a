// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * redirect.o loader: the skeleton's object, opened with a pin root so
 * that maps are shared by name with every other loader of the same
 * table (stock tc included when the root is tc/globals).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>

#include "loader.h"
#include "pins.h"
#include "util.h"
#include "bpfwd.h"	/* the ABI, bpf/bpfwd.h */
#include "redirect.skel.h"

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	/* one -v level below ours: -vv shows libbpf's info, -vvv debug */
	if ((int)level + 1 > opts.verbose)
		return 0;
	fputs("libbpf: ", stderr);
	return vfprintf(stderr, fmt, ap);
}

void loader_set_print(void)
{
	libbpf_set_print(libbpf_print);
}

int table_check_layout(const char *pin_dir, bool *exists, bool warn)
{
	char path[PATH_MAX];
	bool e1, e2;
	int err;

	snprintf(path, sizeof(path), "%s/%s", pin_dir, BPFWD_MAP_PORTS);
	err = pin_check_map(path, BPF_MAP_TYPE_HASH, sizeof(__u32),
			    sizeof(struct bpfwd_port), BPFWD_MAX_PORTS, &e1, warn);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/%s", pin_dir, BPFWD_MAP_STATS);
	err = pin_check_map(path, BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(__u32),
			    sizeof(struct bpfwd_stats), BPFWD_MAX_SLOTS, &e2, warn);
	if (exists)
		*exists = e1 && e2;
	return err;
}

static struct bpf_program *prog_of(struct redirect *skel,
				   enum rd_prog which)
{
	switch (which) {
	case RD_XMIT:
		return skel->progs.rd_xmit;
	case RD_RECV:
		return skel->progs.rd_recv;
	case RD_CLONE_XMIT:
		return skel->progs.clone_xmit;
	case RD_CLONE_RECV:
		return skel->progs.clone_recv;
	case RD_MIRROR_XMIT:
		return skel->progs.mir_xmit;
	case RD_MIRROR_RECV:
		return skel->progs.mir_recv;
	case RD_PEER:
		return skel->progs.rd_peer;
	case RD_NEIGH:
		return skel->progs.rd_neigh;
	case RD_MAPS:
		break;
	}
	return NULL;
}

static struct bpf_program *prog_of_sec(struct redirect *skel,
				       const char *sec)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj)
		if (!strcmp(bpf_program__section_name(prog), sec))
			return prog;
	return NULL;
}

/* Loads program @which, or with @sec the program of that section. */
static int load(const char *pin_dir, enum rd_prog which, const char *sec,
		enum bpf_prog_type type, struct redirect **skelp,
		int *prog_fd, const char **prog_name)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = pin_dir);
	struct bpf_program *prog, *want;
	struct redirect *skel;
	int err;

	err = table_check_layout(pin_dir, NULL, false);
	if (err)
		return err;
	skel = redirect__open_opts(&oo);
	if (!skel) {
		err = -errno;
		p_err("open redirect.o: %s", strerror(-err));
		return err;
	}
	want = sec ? prog_of_sec(skel, sec) : prog_of(skel, which);
	if (sec && !want) {
		p_err("redirect.o has no section %s", sec);
		redirect__destroy(skel);
		return -ENOENT;
	}
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, prog == want);
	if (want)
		bpf_program__set_type(want, type);
	err = redirect__load(skel);
	if (err) {
		p_err("load %s: %s (bpfwd -vv shows the verifier log)",
		      want ? bpf_program__section_name(want) : "maps",
		      strerror(-err));
		redirect__destroy(skel);
		return err;
	}
	*skelp = skel;
	if (prog_fd)
		*prog_fd = want ? bpf_program__fd(want) : -1;
	if (prog_name)
		*prog_name = want ? bpf_program__name(want) : NULL;
	return 0;
}

int loader_load_prog(const char *pin_dir, enum rd_prog which,
		     enum bpf_prog_type type, struct redirect **skel,
		     int *prog_fd, const char **prog_name)
{
	return load(pin_dir, which, NULL, type, skel, prog_fd, prog_name);
}

int loader_load(const char *pin_dir, const char *sec,
		enum bpf_prog_type type, struct redirect **skel, int *prog_fd,
		const char **prog_name)
{
	return load(pin_dir, RD_MAPS, sec, type, skel, prog_fd, prog_name);
}

void loader_free(struct redirect *skel)
{
	redirect__destroy(skel);
}
