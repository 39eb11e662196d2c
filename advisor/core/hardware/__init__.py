"""The hardware: GPU, build, system and cloud records, the catalog aggregate, interconnect
bandwidths, board power and the physical checks (PSU, slots, bridges, lanes, P2P).

May import: ``advisor.core.model`` (the catalog holds model presets), ``schema``, ``units``.
"""
