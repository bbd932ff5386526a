// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors
 *
 * bpfwd bench scale rows: a port row (.of) measured with more entries
 * in the dut's ports table, or with more flows from gen.  The entries
 * are dummies: the row's own port entry copied under ifindexes no
 * device has (from DUMMY_IFINDEX up), written into the pinned
 * bpfwd_ports map after bpfwd port added the real one and deleted
 * before it is removed, so the real entry is looked up in a table of
 * that many.  The table holds BPFWD_MAX_PORTS entries: a row asking
 * for more is skipped and says so.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "bench.h"
#include "lib/ports.h"
#include "lib/nsrun.h"
#include "lib/pins.h"
#include "lib/util.h"

#define DUMMY_IFINDEX	0x40000000u

const char *need_entries(struct bench *b, const struct method *m)
{
	if (m->entries <= BPFWD_MAX_PORTS)
		return NULL;
	return method_reason(m, "the ports table holds %u entries (BPFWD_MAX_PORTS in bpf/bpfwd.h): %u do not fit",
			     BPFWD_MAX_PORTS, m->entries);
}

static int ports_map(struct bench *b)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/bpfwd/%llu/%s", bpffs_root(),
		 (unsigned long long)b->cookie, BPFWD_MAP_PORTS);
	fd = bpf_obj_get(path);
	if (fd < 0)
		snprintf(b->err, sizeof(b->err), "%s: %s", path, strerror(errno));
	return fd;
}

/* Adds (@add) or deletes @n dummies copied from the row's entry. */
static int dummies(struct bench *b, uint32_t n, bool add)
{
	struct bpfwd_port port;
	uint32_t key, i;
	int fd, err = 0;

	if (!n)
		return 0;
	fd = ports_map(b);
	if (fd < 0)
		return -ENOENT;
	ns_enter(b->ns[NS_DUT]);
	key = if_nametoindex(b->in_dev);
	ns_leave();
	if (add && bpf_map_lookup_elem(fd, &key, &port)) {
		err = -errno;
		snprintf(b->err, sizeof(b->err), "%s: no entry in the ports table",
			 b->in_dev);
	}
	for (i = 0; !err && i < n; i++) {
		key = DUMMY_IFINDEX + i;
		if (!add) {
			bpf_map_delete_elem(fd, &key);
		} else if (bpf_map_update_elem(fd, &key, &port, BPF_NOEXIST)) {
			err = -errno;
			snprintf(b->err, sizeof(b->err), "dummy entry %u of %u: %s",
				 i + 1, n, strerror(-err));
		}
	}
	close(fd);
	return err;
}

int scale_setup(struct bench *b, const struct method *m)
{
	int err = m->of->setup(b, m->of);

	if (!err && m->entries > 1)
		err = dummies(b, m->entries - 1, true);
	return err;
}

void scale_teardown(struct bench *b, const struct method *m)
{
	if (m->entries > 1)
		dummies(b, m->entries - 1, false);
	m->of->teardown(b, m->of);
}
