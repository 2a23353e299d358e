"""python -m docsys.translations: the command line (cli.py)."""

import sys

from docsys.translations.cli import main

sys.exit(main())
