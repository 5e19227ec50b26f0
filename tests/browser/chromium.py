"""Debian's chromium and its chromedriver for the browser tests: installed with apt-get
when missing and running as root (as the Prometheus test installs Debian's prometheus),
and started headless with a fresh profile, no network of its own and nothing
downloaded at run time (selenium-manager never runs: the driver's path is given)."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# fonts-wqy-microhei: the page's Chinese text in the screenshots (chromium pulls no CJK font)
PACKAGES = ["chromium", "chromium-driver", "fonts-wqy-microhei"]
APT_TIMEOUT_S = 900
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars"]


def _installed() -> bool:
    return Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()


def _apt_install(env: dict) -> None:
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *PACKAGES],
                   env=env, check=False, timeout=APT_TIMEOUT_S, capture_output=True)


def chromium_binaries() -> tuple[str, str]:
    """(chromium, chromedriver), installing Debian's packages when missing; the test is
    skipped, saying how to install them, when that cannot be done here."""
    if not _installed() and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        _apt_install(env)
        if not _installed():
            # the package lists may be missing or stale: refresh them once and retry
            subprocess.run(["apt-get", "update", "-qq"], env=env, check=False, timeout=APT_TIMEOUT_S,
                           capture_output=True)
            _apt_install(env)
    if not _installed():
        pytest.skip("Debian's chromium and chromium-driver are needed and could not be installed here "
                    "(not root, or no apt-get): run `sudo apt-get install -y " + " ".join(PACKAGES) + "`")
    return CHROMIUM, CHROMEDRIVER


def driver(profile: Path):
    """A headless chromium through its chromedriver, logging the console and the network."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, chromedriver = chromium_binaries()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(options=options, service=Service(executable_path=chromedriver))
