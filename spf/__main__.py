"""``python -m spf`` and the ``spf`` console script: the command line of :mod:`spf.cli.commands`."""

import sys

from spf.cli.commands import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
