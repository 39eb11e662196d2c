"""The job: what the user wants done (model, inference or training, method, weights, context,
sequences, engine or framework) and how it runs on a build, knowing nothing of a build's numbers.

May import: ``advisor.core.hardware``, ``advisor.core.model``, ``schema``, ``units``.
"""
