"""The memory source: HybridSearchEngine over memory_index, its BM25 model and its kept snapshot."""
