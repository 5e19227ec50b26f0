"""``python -m gongzhu``: the ``gongzhu-service`` command (``gongzhu.cli``)."""
import sys

from gongzhu.cli import main

sys.exit(main())
