# SPDX-License-Identifier: GPL-2.0
#
# dm-readbal: make (module), make check (every test), make demo.
# The module is built against Debian's packaged kernel, never the host's:
# KVER names it (tests/vm/kver asks apt), KDIR overrides the build tree.

SHELL := /bin/bash
# KVER=6.12 names a series (Debian's newest 6.12, from bookworm-backports).
override KVER := $(shell KVER='$(KVER)' tests/vm/kver 2>/dev/null)
KDIR ?= /lib/modules/$(KVER)/build
CACHE ?= /var/cache/dm-readbal
# The default kernel's module is built in dm-readbal/, another's in build/KVER/.
MODDIR := $(shell KVER='$(KVER)' tests/vm/moddir 2>/dev/null || echo dm-readbal)
MODULE := $(MODDIR)/dm-readbal.ko
MODULE_SRC := $(wildcard dm-readbal/*.[ch]) dm-readbal/Kbuild dm-readbal/compat-probe
export KVER CACHE

.PHONY: all module tools tools-test deps unit integration check check-kernels build-kernels install install-tools install-dkms install-module uninstall check-packaging demo bench bench-quick checkpatch sparse style clean

all: module tools

deps:
	@tests/vm/install-deps

module: $(MODULE)

$(MODULE): $(MODULE_SRC)
	@test -d "$(KDIR)" || { echo "no kernel build tree at $(KDIR): run 'make deps' (installs linux-headers-$(KVER)) or set KDIR=\$$(tests/vm/fetch-headers $(KVER)) (unpacks them)" >&2; exit 2; }
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(MODDIR) RB_WERROR=$(RB_WERROR) modules

tools:
	$(MAKE) -C tools

tools-test:
	$(MAKE) -C tools test

unit:
	$(MAKE) -C tests/unit run

integration: module tools
	tests/modules/build
	tests/vm/run tests/integration/*.sh

# Every test, one summary line: "N passed, N failed".
check: deps
	@tests/check

# The kernel matrix (tests/check-kernels): for each of KERNELS, the W=1
# -Werror build and the guest suite (RB_KERNEL_TESTS narrows it);
# build-kernels only builds. make check KVER=6.12 runs every lane on 6.12.
KERNELS ?= 6.1 6.12
check-kernels: tools
	@tests/check-kernels $(KERNELS)

build-kernels:
	@tests/check-kernels --build-only $(KERNELS)

# The guest's output comes back through the results share.
demo: deps module
	@rm -rf results/demo
	RB_RESULTS_DIR=results/demo tests/vm/run tests/demo/mixed-array.sh
	@sed -n '/^legs:/,/^dmsetup status/p' results/demo/logs/01-mixed-array.log

# Benchmarks (docs/benchmarks.md): bench writes the report, bench-quick a short one.
bench: deps module tools
	bench/run --full

bench-quick: deps module tools
	bench/run --quick

# Kernel style, with the checkpatch of Debian's linux-source-6.1.
# Kernel style: W=1 -Werror build, sparse, checkpatch of Debian's linux-source-6.1.
checkpatch sparse style:
	tests/style/run

# make install [DESTDIR=] [PREFIX=/usr/local]: the tool and its man page,
# and the module's sources for DKMS in /usr/src/dm-readbal-VERSION; with no
# DESTDIR, dkms then builds and installs the module for the running kernel
# (and, AUTOINSTALL, for each kernel installed later). install-module is
# the one-kernel alternative without DKMS (modules_install for KVER).
PREFIX ?= /usr/local
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dm-readbal/dkms.conf)
DKMS_SRC = $(DESTDIR)/usr/src/dm-readbal-$(VERSION)
DKMS_FILES = $(filter-out %.mod.c dm-readbal/compat-flags.h,$(wildcard dm-readbal/*.[ch])) \
	dm-readbal/Kbuild dm-readbal/dkms.conf

install: install-tools install-dkms

install-tools: tools
	install -D -m 0755 tools/readbal/readbal $(DESTDIR)$(PREFIX)/sbin/readbal
	install -D -m 0644 docs/readbal.8 $(DESTDIR)$(PREFIX)/share/man/man8/readbal.8

install-dkms:
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)
	install -m 0644 $(DKMS_FILES) $(DKMS_SRC)/
	install -m 0755 dm-readbal/compat-probe $(DKMS_SRC)/
	@# Again over an earlier install of this version: dkms keeps old builds.
	@if [ -z "$(DESTDIR)" ]; then \
		dkms remove -m dm-readbal -v $(VERSION) --all >/dev/null 2>&1; \
		dkms install -m dm-readbal -v $(VERSION); \
	fi

install-module: module
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(MODDIR) INSTALL_MOD_PATH=$(DESTDIR) INSTALL_MOD_DIR=updates modules_install

# make install into a temporary tree, then dkms add/build/install from it.
check-packaging: tools
	@tests/packaging/run

uninstall:
	-[ -n "$(DESTDIR)" ] || dkms remove -m dm-readbal -v $(VERSION) --all
	rm -rf $(DKMS_SRC)
	rm -f $(DESTDIR)$(PREFIX)/sbin/readbal $(DESTDIR)$(PREFIX)/share/man/man8/readbal.8

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(MODDIR) clean 2>/dev/null || true
	$(MAKE) -C tests/unit clean 2>/dev/null || true
	$(MAKE) -C tools clean 2>/dev/null || true
