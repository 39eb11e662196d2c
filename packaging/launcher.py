"""PyInstaller entry script: the same entry point as the ``llm-advisor`` command."""

import multiprocessing
import sys

from advisor.cli import main

if __name__ == "__main__":
    # The window's fit sweep and search run in a process of their own (advisor/ui/core_process.py): in a frozen
    # bundle that process is this executable started again, which must serve it, not open the app.
    multiprocessing.freeze_support()
    sys.exit(main())
