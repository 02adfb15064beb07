"""The PostgreSQL backend: OneClaw's tables with a tenant column, searched by the server's own
full-text search, trigram and vector machinery (the `postgres` extra)."""
