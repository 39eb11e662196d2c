"""PyInstaller entry script: the same entry point as the ``llm-advisor`` command."""

import sys

from advisor.cli import main

if __name__ == "__main__":
    sys.exit(main())
