"""Importers that write other tools' histories (bundles, memory folders, squidbot, Claude Code, OneClaw backups) into ours."""
