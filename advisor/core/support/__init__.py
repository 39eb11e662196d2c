"""Support: which engine, framework, weight format and method the software runs on which GPUs (CUDA by
compute capability, ROCm by gfx target, Metal, XPU), one sourced row per rule, judged before any memory.

May import: ``advisor.core.memory`` (weight format names) and everything below it.
"""
