"""The drills hold more connections than a user's default limit of open files allows (Debian gives a user who is not
root 1,024, and 20,000 as the hard limit): the drills' process raises its own limit up to the hard one, and the
servers it starts inherit it, as a service manager or a container runtime sets it for a server. Without this, the
first drill of 1,200 connections exhausted the process and every drill after it errored with "Too many open files".
"""
from __future__ import annotations

import resource

# enough for the largest drill (1,600 connections held by the test and as many by nginx), well under the hard limit
# a machine gives a user
DRILL_OPEN_FILES = 16384


def pytest_configure(config) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = DRILL_OPEN_FILES if hard == resource.RLIM_INFINITY else min(hard, DRILL_OPEN_FILES)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
