"""Adapters over SQLite (through peewee), rank-bm25 and numpy that implement the domain's ports.

The tables are OneClaw's own (Room schema version 1, identity 9a862db541b23c44221f9a687649d220).
"""
