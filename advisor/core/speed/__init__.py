"""Speed: FLOPs per token, the layout of a job over a build's GPUs and links, collectives,
inference (prefill, decode) and training tokens/s.

May import: ``advisor.core.memory`` and everything below it.
"""
