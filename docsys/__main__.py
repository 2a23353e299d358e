"""`python -m docsys record ...` (docsys.record.cli) and `python -m docsys next ...` (docsys.checks.next)."""

import sys

if __name__ == "__main__":
    if sys.argv[1:2] == ["next"]:
        from docsys.checks.next import main

        sys.exit(main(sys.argv[2:]))
    from docsys.record.cli import main

    sys.exit(main())
