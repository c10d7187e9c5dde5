# SPDX-License-Identifier: GPL-2.0
"""dm-readbal benchmark: fio job templates, results parsing and the report.
Shared by the guest driver (bench/guest/driver.py) and the host report
(bench/report); standard library only."""
