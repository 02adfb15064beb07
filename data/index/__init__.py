"""The keyword index over messages and sessions: tantivy documents, their analyzer, building and searching."""
