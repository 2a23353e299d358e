"""python -m docsys.checks.translations: the command line (cli.py)."""

import sys

from docsys.checks.translations.cli import main

sys.exit(main())
