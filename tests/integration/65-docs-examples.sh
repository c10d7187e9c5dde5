#!/usr/bin/env bash
# vm-timeout: 300
# Every example command of the how-tos and the design notes runs as
# written (tests/docs/run-examples: the blocks marked <!-- test --> in
# Markdown, ".. test" in readbal.rst, on emulated disks named as in the
# docs), so the docs cannot go stale.
set -euo pipefail
tests/docs/run-examples docs/howto-ssd-hdd.md docs/howto-lvm.md docs/design.md \
	docs/readbal.rst
