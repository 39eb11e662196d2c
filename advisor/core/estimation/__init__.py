"""One estimate of one job on one build: memory, speed, fit against usable memory, the job's
own problems and the rule of thumb beside it.

May import: ``advisor.core.cost`` and everything below it.
"""
