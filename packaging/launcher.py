"""PyInstaller entry script: the same entry point as the ``llm-advisor`` command."""

import multiprocessing
import sys

from advisor.cli import main

if __name__ == "__main__":
    # The window's fit sweep runs in a process of its own (advisor/ui/sweep_process.py): in a frozen
    # bundle that process is this executable started again, which must serve it, not open the app.
    multiprocessing.freeze_support()
    sys.exit(main())
