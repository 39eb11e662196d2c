"""The plan of a job on a build: the best plan found automatically, and what would make a job fit.

May import: ``advisor.core.estimation`` and everything below it.
"""
