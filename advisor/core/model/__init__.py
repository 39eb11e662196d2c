"""The model: architecture records, exact parameter counts, the generic decoder for a bare size.

May import: ``advisor.core.schema``, ``advisor.core.units``.
"""
