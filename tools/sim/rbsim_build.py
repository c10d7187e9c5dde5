# SPDX-License-Identifier: GPL-2.0
"""rbsim of a git revision, for compare-builds and slow-sweep."""
import io
import os
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))


def build_rev(rev, tmp, tool):
    """rbsim of git revision @rev, built in @tmp; its path.  Errors exit,
    named after @tool."""
    # from the top: in a subdirectory git archives that subdirectory only
    top = os.path.normpath(os.path.join(HERE, "..", ".."))
    tar = subprocess.run(["git", "archive", rev], capture_output=True,
                         cwd=top)
    if tar.returncode:
        sys.exit("%s: git archive %s: %s" %
                 (tool, rev, tar.stderr.decode().strip()))
    with tarfile.open(fileobj=io.BytesIO(tar.stdout)) as t:
        t.extractall(tmp)
    make = subprocess.run(["make", "-s", "-C", os.path.join(tmp, "tools/sim"),
                           "rbsim"], capture_output=True, text=True)
    if make.returncode:
        sys.exit("%s: building %s's rbsim failed:\n%s" %
                 (tool, rev, make.stderr))
    return os.path.join(tmp, "tools/sim/rbsim")
