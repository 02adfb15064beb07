"""Words as every search sees them: the one analyzer (tantivy's, with Snowball's English stemmer) that
rows, queries and memory chunks go through, and a query's keywords (Q-01, Q-05..Q-07)."""
