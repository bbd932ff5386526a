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
#include "../../bpf/bpfwd.h"
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

int loader_load(const char *pin_dir, const char *sec,
		enum bpf_prog_type type, struct redirect **skelp, int *prog_fd,
		const char **prog_name)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = pin_dir);
	struct bpf_program *prog, *want = NULL;
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
	bpf_object__for_each_program(prog, skel->obj) {
		bool mine = sec && !strcmp(bpf_program__section_name(prog), sec);

		bpf_program__set_autoload(prog, mine);
		if (mine) {
			bpf_program__set_type(prog, type);
			want = prog;
		}
	}
	if (sec && !want) {
		p_err("redirect.o has no section %s", sec);
		redirect__destroy(skel);
		return -ENOENT;
	}
	err = redirect__load(skel);
	if (err) {
		p_err("load %s: %s (bpfwd -vv shows the verifier log)",
		      sec ? sec : "maps", strerror(-err));
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

void loader_free(struct redirect *skel)
{
	redirect__destroy(skel);
}
