"""The Qt-free core: pure functions over frozen pydantic models.

Layers, each importing only those below it (checked by ``lint-imports``)::

    advice    evaluation of several builds, verdicts, comparison documents, formulas
    estimate  one job on one build: memory + speed + fit + checks
    cost      prices of builds
    speed     FLOPs, layout over GPUs and links, inference and training tokens/s
    memory    formats, weights, KV cache, activations, states, the peak
    job       the job (and how it runs on a build)
    hardware  GPU, build, system and cloud records, catalog, interconnect, checks
    model     architecture, parameter counts, generic decoder
    schema, units
"""
