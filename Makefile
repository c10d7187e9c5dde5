# SPDX-License-Identifier: GPL-2.0
#
# dm-readbal: make (module), make check (every test), make demo.
# The module is built against Debian's packaged kernel, never the host's:
# KVER names it (tests/vm/kver asks apt), KDIR overrides the build tree.

SHELL := /bin/bash
KVER ?= $(shell tests/vm/kver 2>/dev/null)
KDIR ?= /lib/modules/$(KVER)/build
CACHE ?= /var/cache/dm-readbal
MODULE := dm-readbal/dm-readbal.ko
MODULE_SRC := $(wildcard dm-readbal/*.[ch]) dm-readbal/Kbuild
export KVER CACHE

.PHONY: all module tools tools-test deps unit integration check demo bench bench-quick checkpatch sparse style clean

all: module tools

deps:
	@tests/vm/install-deps

module: $(MODULE)

$(MODULE): $(MODULE_SRC)
	@test -d "$(KDIR)" || { echo "no kernel build tree at $(KDIR): run 'make deps' (installs linux-headers-$(KVER)) or set KDIR=" >&2; exit 2; }
	$(MAKE) -C $(KDIR) M=$(CURDIR)/dm-readbal RB_WERROR=$(RB_WERROR) modules

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

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/dm-readbal clean 2>/dev/null || true
	$(MAKE) -C tests/unit clean 2>/dev/null || true
	$(MAKE) -C tools clean 2>/dev/null || true
