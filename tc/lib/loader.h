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

/* Opens redirect.o with @pin_dir as pin root and loads only the program
 * of section @sec as @type (no section: only the maps are created and
 * pinned).  Returns 0 and the skeleton, to be freed with loader_free().
 */
int loader_load(const char *pin_dir, const char *sec,
		enum bpf_prog_type type, struct redirect **skel, int *prog_fd,
		const char **prog_name);
void loader_free(struct redirect *skel);

void loader_set_print(void);

#endif /* __BPFWD_LOADER_H */
