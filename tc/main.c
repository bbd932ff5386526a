// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (c) 2026 The bpfwd authors */
#include "objects.h"

int main(int argc, char **argv)
{
	return bpfwd_main(argc, argv);
}
