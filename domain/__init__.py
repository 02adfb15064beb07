"""The search_history domain: entities, request rules, ranking and the use case (FEAT-032).

Standard library only; everything that touches SQLite, numpy or injector lives outside.
"""
