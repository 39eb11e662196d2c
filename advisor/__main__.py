"""``python -m advisor``: same as the ``llm-advisor`` command."""

import sys

from advisor.cli import main

sys.exit(main())
