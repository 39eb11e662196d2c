"""Cost: the price a build is bought or rented at (new, used, hourly, dated).

May import: ``advisor.core.speed`` and everything below it.
"""
