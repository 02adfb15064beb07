"""`python -m oneclaw_search.tools.cli`: the same command as `oneclaw-search`."""
import sys

from oneclaw_search.tools.cli.main import main

sys.exit(main())
