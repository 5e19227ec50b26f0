"""Debian's chromium and its chromedriver for the browser tests: installed with apt-get
when missing and running as root (``debian_binary``, as the Prometheus test installs
Debian's prometheus), and started headless with a fresh profile, no network of its
own and nothing downloaded at run time (selenium-manager never runs: the driver's
path is given)."""
from __future__ import annotations

from pathlib import Path

from tests.servers import debian_binary

# fonts-wqy-microhei: the page's Chinese text in the screenshots (chromium pulls no CJK font)
ALSO = ("chromium-driver", "fonts-wqy-microhei")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars"]


def chromium_binaries() -> tuple[str, str]:
    """(chromium, chromedriver): Debian's packages, installed together when missing."""
    chromium = debian_binary("chromium", "chromium", ALSO)
    chromedriver = debian_binary("chromium-driver", "chromedriver", ("chromium", "fonts-wqy-microhei"))
    return chromium, chromedriver


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
