/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (c) 2026 The bpfwd authors
 *
 * Loads programs of redirect.o (embedded as a skeleton) with their maps
 * pinned by name under a pin directory, setting each program's type
 * itself: libbpf 1.1 does not know the section names tc users type.
 */
#ifndef __BPFWD_LOADER_H
#define __BPFWD_LOADER_H

#include <linux/bpf.h>

struct redirect;

/* Checks the pinned table maps under @pin_dir against this bpfwd's
 * layout: -EEXIST and a message on mismatch, an error or with @warn a
 * warning.
 */
int table_check_layout(const char *pin_dir, bool *exists, bool warn);

/* The programs of redirect.o, by what they do (sections in brackets). */
enum rd_prog {
	RD_MAPS,		/* no program: the maps only */
	RD_XMIT,		/* redirect_xmit */
	RD_RECV,		/* redirect_recv */
	RD_CLONE_XMIT,		/* clone_redirect_xmit */
	RD_CLONE_RECV,		/* clone_redirect_recv */
	RD_MIRROR_XMIT,		/* mirror_xmit */
	RD_MIRROR_RECV,		/* mirror_recv */
	RD_PEER,		/* redirect_peer */
	RD_NEIGH,		/* redirect_neigh */
};

/* Opens redirect.o with @pin_dir as pin root and loads only program
 * @which as @type (RD_MAPS: only the maps are created and pinned).
 * Returns 0 and the skeleton, to be freed with loader_free().
 */
int loader_load_prog(const char *pin_dir, enum rd_prog which,
		     enum bpf_prog_type type, struct redirect **skel,
		     int *prog_fd, const char **prog_name);
/* loader_load_prog() of the program of section @sec (NULL: the maps
 * only), for callers that go through every section (tests/unit).
 */
int loader_load(const char *pin_dir, const char *sec,
		enum bpf_prog_type type, struct redirect **skel, int *prog_fd,
		const char **prog_name);
void loader_free(struct redirect *skel);

void loader_set_print(void);

#endif /* __BPFWD_LOADER_H */
