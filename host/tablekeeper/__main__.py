"""Allow ``python -m tablekeeper``."""

from tablekeeper.cli import main

raise SystemExit(main())
