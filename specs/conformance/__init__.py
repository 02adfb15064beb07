"""The language-neutral conformance suite's runner: cases as JSON in specs/conformance/, driven through
any implementation that speaks the line-delimited JSON protocol of specs/conformance/PROTOCOL.md.

It proves FEAT-032's ids (specs/FEAT-032-search-history.md) against this package in process, through
the `oneclaw-search` command line, or against another program entirely.
"""
