# SPDX-License-Identifier: GPL-2.0-only
# Copyright (c) 2026 The bpfwd authors
#
# bpfwd: BPF programs (build/bpf/*.o), the CLI (build/bpfwd) and the tc
# plugin (build/e_bpfwd.so).  `make help` lists the targets.

# SANITIZE=1: the user space (bpfwd, the plugin, the unit tests) with
# AddressSanitizer and UBSan, in its own OUTPUT; `make check SANITIZE=1`
# runs the suite on it: a report exits 99 and fails the test that made it
ifeq ($(SANITIZE),1)
OUTPUT	?= build-san
SAN_CFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	   -fno-sanitize-recover=all
# tc is not built with ASan: its plugin may load the runtime late
SAN_ENV	:= ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0:exitcode=99 \
	   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99
endif
OUTPUT	?= build
PREFIX	?= /usr/local
DESTDIR	?=
ARCH	:= $(shell uname -m)
TC_LIB_DIR ?= /usr/lib/$(ARCH)-linux-gnu/tc
VERSION	:= 0.1

CC	?= gcc
CLANG	?= clang
BPFTOOL	?= bpftool

CFLAGS	?= -O2 -g
CFLAGS	+= -Wall -Wextra -Wno-unused-parameter -Wno-format-truncation -std=gnu11 -fPIC \
	   -fvisibility=hidden -D_GNU_SOURCE \
	   -DBPFWD_VERSION='"$(VERSION)"' \
	   -DTC_LIB_DIR_DEFAULT='"$(TC_LIB_DIR)"' \
	   -I$(OUTPUT) -Itc -Ibpf -MMD -MP $(SAN_CFLAGS)
LDLIBS	:= -lbpf -lmnl -lelf -lz -ldl
BPF_CFLAGS := -O2 -g -Wall -target bpf -Ibpf \
	   -I/usr/include/$(ARCH)-linux-gnu

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(OUTPUT)/bpf/%.o,$(BPF_SRCS))
SKELS	 := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.skel.h,$(BPF_SRCS))
LIB_SRCS := $(wildcard tc/lib/*.c)
CLI_SRCS := $(filter-out tc/main.c tc/e_bpfwd.c,$(wildcard tc/*.c)) \
	    $(wildcard tc/bench/*.c)
OBJS	 := $(patsubst %.c,$(OUTPUT)/%.o,$(LIB_SRCS) $(CLI_SRCS))
TEST_BINS := $(patsubst tests/unit/%.c,$(OUTPUT)/tests/%,$(filter-out %.bpf.c,$(wildcard tests/unit/*.c)))
# test-only BPF objects (tests/{netns,unit}/*.bpf.c -> build/tests/bpf/*.o)
TEST_BPF := $(patsubst tests/netns/%.bpf.c,$(OUTPUT)/tests/bpf/%.o,$(wildcard tests/netns/*.bpf.c)) \
	    $(patsubst tests/unit/%.bpf.c,$(OUTPUT)/tests/bpf/%.o,$(wildcard tests/unit/*.bpf.c))

# Debian packages, by name: build, tests, demo
DEPS	:= clang llvm gcc make pkg-config libbpf-dev libmnl-dev libelf-dev \
	   zlib1g-dev bpftool iproute2 ethtool iputils-ping jq perl \
	   python3-docutils util-linux procps socat gnuplot-nox tcpdump \
	   python3 iperf3 nftables xdp-tools

ifeq ($(SANITIZE),1)
# the plugin exports bpfwd_exec_util alone: no ASan ODR indicator beside it
$(OUTPUT)/tc/e_bpfwd.o: SAN_CFLAGS += --param=asan-globals=0
endif

.DELETE_ON_ERROR:
.PHONY: soak all check test fuzz demo bench deps install uninstall clean help man vmtest

all: $(BPF_OBJS) $(OUTPUT)/bpfwd $(OUTPUT)/e_bpfwd.so

$(OUTPUT)/bpf/%.o: bpf/%.bpf.c $(wildcard bpf/*.h) Makefile
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUTPUT)/%.skel.h: $(OUTPUT)/bpf/%.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $* > $@

# The skeletons are only order-only prerequisites of pattern rules, which
# makes them intermediate files: make deleted them after the first build,
# and the next make (or make install) regenerated them and recompiled
# everything that includes them.  Keep them.
.SECONDARY: $(SKELS)

$(OUTPUT)/%.o: %.c Makefile | $(SKELS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

# link to a temporary name, then rename: a test running the old binary
# never finds a half-written one
$(OUTPUT)/bpfwd: $(OUTPUT)/tc/main.o $(OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -o $@.tmp $^ $(LDLIBS) && mv -f $@.tmp $@

$(OUTPUT)/e_bpfwd.so: $(OUTPUT)/tc/e_bpfwd.o $(OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -shared -o $@.tmp $^ $(LDLIBS) && mv -f $@.tmp $@

$(OUTPUT)/tests/%: tests/unit/%.c $(OBJS) Makefile | $(SKELS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Itests/unit -o $@ $< $(OBJS) $(LDLIBS)

$(OUTPUT)/tests/bpf/%.o: tests/netns/%.bpf.c Makefile
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUTPUT)/tests/bpf/%.o: tests/unit/%.bpf.c Makefile
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

-include $(shell find $(OUTPUT) -name '*.d' 2>/dev/null)

# Installs the Debian packages that are missing (needs root and apt).
deps:
	@missing=$$(for p in $(DEPS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "  DEPS     installing:" $$missing; \
		[ "$$(id -u)" = 0 ] || { echo "make deps: need root to install $$missing" >&2; exit 1; }; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null 2>&1 || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; }; \
	fi

TESTS_DIRS := tests/unit tests/cli tests/netns tests/compat tests/examples

check: deps
	$(Q)$(MAKE) --no-print-directory all $(TEST_BINS) $(TEST_BPF)
	@echo "  TEST     prove $(TESTS_DIRS)"
	$(Q)BPFWD=$(abspath $(OUTPUT))/bpfwd BUILD=$(abspath $(OUTPUT)) $(SAN_ENV) \
		prove $(if $(filter 1,$(V)),-v) --exec '' $(sort $(wildcard $(addsuffix /*.t,$(TESTS_DIRS))))

test: check

# The crash-safety tests at full length (several hundred kills)
SOAK_TESTS	:= tests/netns/replace_kill.t
soak: all
	$(Q)BPFWD_SOAK=1 prove $(if $(filter 1,$(V)),-v) $(SOAK_TESTS)

# The fuzz tests at full length: FUZZ_FRAMES random and mutated frames
# through every section of every packet program in build/bpf/ (make
# check runs a few thousand), and FUZZ_SECONDS of bpfwd command lines
# (make check: 45 s); FUZZ_SEED=N replays a run.  With SANITIZE=1 too.
FUZZ_FRAMES	?= 100000
FUZZ_SECONDS	?= 600
fuzz:
	$(Q)$(MAKE) --no-print-directory all $(TEST_BINS) $(TEST_BPF)
	@echo "  FUZZ     $(FUZZ_FRAMES) frames per section, $(FUZZ_SECONDS) s of command lines"
	$(Q)BPFWD=$(abspath $(OUTPUT))/bpfwd BUILD=$(abspath $(OUTPUT)) $(SAN_ENV) \
		FUZZ_FRAMES=$(FUZZ_FRAMES) FUZZ_SECONDS=$(FUZZ_SECONDS) \
		$(if $(FUZZ_SEED),FUZZ_SEED=$(FUZZ_SEED)) \
		prove -v --exec '' tests/unit/test_fuzz.t tests/cli/fuzz.t

# The demo: the bridge comparison of the tc methods, short (under two
# minutes); make bench: every method, more rounds, kept in results/.
DEMO_METHODS	?= bridge,mirred,redirect,redirect-fixed,clone,tcx
BENCH_ROUNDS	?= 9
BENCH_DURATION	?= 3
RESULTS		?= results

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(OUTPUT)/bpfwd bench method $(DEMO_METHODS) rounds 3 duration 2

# bench.png is the pps table's plot; bench-tcp.png, bench-rtt.png and
# bench-scale.png the TCP, round-trip and scale tables'
bench: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)mkdir -p $(RESULTS)
	$(Q)$(OUTPUT)/bpfwd bench rounds $(BENCH_ROUNDS) duration $(BENCH_DURATION) \
		save $(RESULTS)/bench.json plot $(RESULTS)/bench.png | tee $(RESULTS)/bench.txt
	@# the tc path's monitor cost needs a sink that consumes skbs
	$(Q)$(OUTPUT)/bpfwd bench method redirect+mon-errors,redirect+mon-all count tc \
		rounds $(BENCH_ROUNDS) duration $(BENCH_DURATION) \
		save $(RESULTS)/bench-tc-monitor.json plot $(RESULTS)/bench-tc-monitor.png \
		| tee $(RESULTS)/bench-tc-monitor.txt
	@echo "  RESULTS  $(RESULTS)/bench*.txt $(RESULTS)/bench*.json $(RESULTS)/bench*.png"

# every man/*.8.rst: bpfwd.8 and the pages of its objects (bpfwd-xdp.8, ...)
MANS	:= $(patsubst man/%.rst,$(OUTPUT)/man/%,$(wildcard man/*.8.rst))
man: $(MANS)
$(OUTPUT)/man/%.8: man/%.8.rst
	$(call msg,MAN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)rst2man $< > $@

# the ABI header for programs that drive the tables (bpftool users, C)
INCLUDE_DIR	:= $(PREFIX)/include/bpfwd
COMPLETION_DIR	:= $(PREFIX)/share/bash-completion/completions
# bridge: the daemon's systemd unit, with the installed bpfwd's path
SYSTEMD_DIR ?= $(PREFIX)/lib/systemd/system

install: all man
	install -d $(DESTDIR)$(PREFIX)/sbin $(DESTDIR)$(PREFIX)/lib/bpf \
		$(DESTDIR)$(PREFIX)/share/man/man8 $(DESTDIR)$(TC_LIB_DIR) \
		$(DESTDIR)$(INCLUDE_DIR) $(DESTDIR)$(COMPLETION_DIR)
	install -m 0755 $(OUTPUT)/bpfwd $(DESTDIR)$(PREFIX)/sbin/bpfwd
	install -m 0644 $(OUTPUT)/bpf/redirect.o $(DESTDIR)$(PREFIX)/lib/bpf/
	install -m 0644 $(MANS) $(DESTDIR)$(PREFIX)/share/man/man8/
	install -m 0755 $(OUTPUT)/e_bpfwd.so $(DESTDIR)$(TC_LIB_DIR)/e_bpfwd.so
	install -m 0644 bpf/bpfwd.h $(DESTDIR)$(INCLUDE_DIR)/bpfwd.h
	install -m 0644 completion/bpfwd.bash $(DESTDIR)$(COMPLETION_DIR)/bpfwd
	install -d $(DESTDIR)$(SYSTEMD_DIR)
	sed 's|@SBINDIR@|$(PREFIX)/sbin|' systemd/bpfwd-daemon.service > \
		$(DESTDIR)$(SYSTEMD_DIR)/bpfwd-daemon.service
	chmod 0644 $(DESTDIR)$(SYSTEMD_DIR)/bpfwd-daemon.service
	install -m 0644 etc/bpfwd.conf.example -D $(DESTDIR)/etc/bpfwd/bpfwd.conf.example
	sed 's|@SBINDIR@|$(PREFIX)/sbin|g' systemd/bpfwd.service > \
		$(DESTDIR)$(SYSTEMD_DIR)/bpfwd.service
	chmod 0644 $(DESTDIR)$(SYSTEMD_DIR)/bpfwd.service

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/sbin/bpfwd $(DESTDIR)$(PREFIX)/lib/bpf/redirect.o \
		$(addprefix $(DESTDIR)$(PREFIX)/share/man/man8/,$(notdir $(MANS))) \
		$(DESTDIR)$(TC_LIB_DIR)/e_bpfwd.so \
		$(DESTDIR)$(INCLUDE_DIR)/bpfwd.h $(DESTDIR)$(COMPLETION_DIR)/bpfwd \
		$(DESTDIR)$(SYSTEMD_DIR)/bpfwd-daemon.service \
		$(DESTDIR)$(SYSTEMD_DIR)/bpfwd.service \
		$(DESTDIR)/etc/bpfwd/bpfwd.conf.example
	@rmdir $(DESTDIR)$(INCLUDE_DIR) 2>/dev/null || true

vmtest:
	$(MAKE) -C kernel vmtest $(if $(KERNEL),KERNEL=$(KERNEL))

clean:
	rm -rf $(OUTPUT)

help:
	@echo 'bpfwd make targets:'
	@echo '  all        build build/bpf/*.o, build/bpfwd, build/e_bpfwd.so (default)'
	@echo '  check      install missing packages, build, run the tests (prove)'
	@echo '  test       the same as check'
	@echo '  fuzz       the fuzz tests at full length: frames (FUZZ_FRAMES per section),'
	@echo '             command lines (FUZZ_SECONDS); FUZZ_SEED replays a run'
	@echo '  soak       the crash-safety tests with several hundred kill -9 each'
	@echo '  demo       install missing packages, build, short bench: bridge vs the tc methods'
	@echo '  bench      the full bench (BENCH_ROUNDS, BENCH_DURATION) into results/: text, JSON, a plot per table'
	@echo '  deps       install missing Debian packages: $(DEPS)'
	@echo '  man        build the man pages into build/man/'
	@echo '  install    install bpfwd, redirect.o, man pages, tc plugin, bpfwd.h, bash completion,'
	@echo '             bpfwd.service, /etc/bpfwd/bpfwd.conf.example (PREFIX, DESTDIR, TC_LIB_DIR)'
	@echo '  uninstall  remove what install put (same PREFIX, DESTDIR, TC_LIB_DIR)'
	@echo '  vmtest     boot test kernels in QEMU and run tests/vm (KERNEL=deb61|deb612|patched)'
	@echo '  clean      remove build/'
	@echo '  help       this list'
	@echo 'Variables: V=1 (full commands), OUTPUT=dir (default build/),'
	@echo '           SANITIZE=1 (ASan + UBSan into build-san/, for all, check, fuzz)'
