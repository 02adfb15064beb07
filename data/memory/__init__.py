"""The memory source: HybridSearchEngine over memory_index, its BM25 model and its kept snapshot
(HybridSearchEngine.kt; AC-06, BR-08, Q-14)."""
