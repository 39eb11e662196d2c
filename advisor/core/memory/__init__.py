"""Memory per GPU: weight formats, weights, KV cache, activations, optimizer states and
gradients, the training terms built on the inference ones, and the peak of a job.

May import: ``advisor.core.job``, ``advisor.core.hardware``, ``advisor.core.model``, ``schema``, ``units``.
"""
