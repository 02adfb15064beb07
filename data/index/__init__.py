"""The keyword index over messages and sessions: tantivy documents, their analyzer, building and
searching (Q-01..Q-08, Q-11..Q-15)."""
