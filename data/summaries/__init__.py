"""Summarizers behind the domain's Summarizer port that ask a language model for a session's digest
(draagon-forge REQ-016.3 `get_session_summary`), falling back to another summarizer when it fails."""
