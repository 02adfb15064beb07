"""Row lookups on the side index's postings: rows holding given terms, newest first (issue 3).

The literal search's helpers (data/index_queries.py): one or two CJK characters are found by term,
and a longer ASCII text narrows its trigram candidates to rows holding its inner words.
"""
from __future__ import annotations

import numpy as np

from oneclaw_search.data.entities import marks, sql_batches
from oneclaw_search.data.index_docs import DocKind, fts_term
from oneclaw_search.data.side_index import SideIndex


def doc_ids(index: SideIndex, kind: DocKind, docs: np.ndarray) -> dict[int, str]:
    """History row ids of index rows (rows no longer in the map are left out)."""
    found: dict[int, str] = {}
    for chunk in sql_batches(docs.tolist()):
        found.update(index.execute(f"SELECT doc, id FROM {kind.table('docs')} WHERE doc IN ({marks(chunk)})", chunk))
    return found


def ids_in_order(index: SideIndex, kind: DocKind, docs: np.ndarray) -> list[str]:
    """History ids of index rows, in the rows' order (rows no longer in the map are left out)."""
    ids = doc_ids(index, kind, docs)
    return [ids[doc] for doc in docs.tolist() if doc in ids]


def newest_docs_with_terms(
    index: SideIndex, kind: DocKind, terms: list[str], columns: tuple[int, ...], after: int, before: int, limit: int,
    within: np.ndarray | None = None,
) -> np.ndarray:
    """The newest `limit` live rows in the time window (newest first) holding every one of `terms`
    in one of `columns` (and among `within`, ascending, when given)."""
    reader = index.postings(kind)
    table = reader.rows()
    lists = reader.lists([fts_term(term) for term in terms], table, derived=False)
    found = []
    for column in columns:
        docs = None
        for term in terms:
            listed = lists[fts_term(term)]
            here = listed.docs[listed.counts[:, column] > 0]
            docs = here if docs is None else np.intersect1d(docs, here, assume_unique=True)
        found.append(docs)
    docs = found[0] if len(found) == 1 else np.unique(np.concatenate(found))
    if within is not None:
        docs = np.intersect1d(docs, within, assume_unique=True)
    return docs[table.live_within(docs, after, before)][::-1][:limit]
