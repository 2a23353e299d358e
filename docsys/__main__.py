"""`python -m docsys record ...`: see docsys.record.cli."""

import sys

from docsys.record.cli import main

if __name__ == "__main__":
    sys.exit(main())
