"""gongzhu-service: the rules of 拱猪 (Gong Zhu) as a pure engine (``gongzhu.rules``) and a stateless
REST API over it (``gongzhu.api``, which needs the ``server`` extra). See docs/rules.md and openapi.yaml.
Imported from a source checkout, the package first checks that no compiled module is older than its
source (``gongzhu.freshness``).
"""
from importlib.metadata import PackageNotFoundError, version

from .freshness import check as _check_compiled_modules

_check_compiled_modules()

try:
    __version__ = version("gongzhu-service")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"
