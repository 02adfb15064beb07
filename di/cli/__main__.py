"""`python -m oneclaw_search.di.cli`: the same command as `oneclaw-search`."""
import sys

from oneclaw_search.di.cli.main import main

sys.exit(main())
