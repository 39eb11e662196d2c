"""The Qt-free core: pure functions over frozen pydantic models.

Its concepts import only those below them (README, "Architecture"; ``lint-imports`` checks it).

The face: what every outer layer but the plots (the command line, the window, the PDF, storage and the
probe) uses of the core, by name from ``advisor.core`` (``__all__``; a contract in pyproject.toml holds them
to it). Each name is imported on first use, so that importing the package costs nothing: the window paints
before the core and pydantic load.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names' homes, for type checkers and the import graph (lint-imports)
    from advisor.core.advice.candidates import Where
    from advisor.core.advice.catalog_search import ModelJob, SearchRequest, search
    from advisor.core.advice.comparison import (
        COMPARISON_VERSION,
        MAX_BUILDS,
        MIN_BUILDS,
        READABLE_VERSIONS,
        BuildEntry,
        Comparison,
        ModelRef,
        canonical_comparison,
        first_free,
        unique_name,
    )
    from advisor.core.advice.criterion import Criterion
    from advisor.core.advice.evaluate import (
        BuildResult,
        PreparedBuild,
        Results,
        SearchAnswer,
        detailed_results,
        evaluate,
        fit_curve_steps,
        money,
        prepare_build,
        resolve_entry,
        resolve_model,
        with_search,
    )
    from advisor.core.advice.formulas import formulas
    from advisor.core.advice.ranking import Ranking, rank
    from advisor.core.advice.recommend import recommendation
    from advisor.core.advice.running import build_running_cost, chinchilla_plan, with_running_costs
    from advisor.core.advice.running_costs import ChinchillaPlan, RentVsBuy, RunningCosts
    from advisor.core.advice.speed_bases import with_speed_bases
    from advisor.core.cost.machine import PriceChoice, machine_price, price_words
    from advisor.core.cost.running import (
        CHINCHILLA_SOURCE,
        DEFAULT_HOURS_PER_DAY,
        DEFAULT_USD_PER_KWH,
        DEFAULT_YEARS,
        ELECTRICITY_SOURCE,
        HOURS_PER_DAY_RANGE,
        IDLE_SOURCE,
        USD_PER_KWH_RANGE,
        YEARS_RANGE,
        CostSettings,
        RunningCost,
        chinchilla_tokens,
        train_hours,
        train_usd,
    )
    from advisor.core.estimation.estimator import estimate
    from advisor.core.estimation.job_checks import check_planned, flags_said, message_of, past_trained_context
    from advisor.core.estimation.job_rules import (
        DEFAULT_WEIGHTS,
        engine_caches,
        engine_loads,
        fit_to_engine,
        ignored,
        settled,
        weights_choices,
        weights_key,
    )
    from advisor.core.estimation.job_words import job_rows, say
    from advisor.core.hardware.builds import Build, BuildGpu, CloudPrice
    from advisor.core.hardware.catalog import CatalogRecord
    from advisor.core.hardware.catalog_edits import dangling_references
    from advisor.core.hardware.catalog_model import (
        Catalog,
        CatalogLayer,
        IncompleteRecord,
        Origin,
        RecordKind,
        UnknownRecord,
        detect_kind,
        kind_of,
    )
    from advisor.core.hardware.checks import check_build
    from advisor.core.hardware.data_checks import Severity, data_problems
    from advisor.core.hardware.gpu import Gpu, NvLink, Segment
    from advisor.core.hardware.interconnect import node_link
    from advisor.core.hardware.machines import on_platform, price_tier
    from advisor.core.hardware.memory import host_ram_gib, with_gpu_memory_limit
    from advisor.core.hardware.names import cloud_display_name, display_name, vendor_brand
    from advisor.core.hardware.power import build_power
    from advisor.core.hardware.quantities import PriceKind, PricePoint
    from advisor.core.hardware.records import MAX_GPUS_PER_MACHINE, MAX_NODES
    from advisor.core.hardware.resolve import (
        gpu_build,
        mixed_build,
        resolve_build,
        resolve_cloud,
        resolve_system,
        with_network,
        with_nodes,
    )
    from advisor.core.hardware.resolved import ResolvedBuild
    from advisor.core.hardware.topology import Topology
    from advisor.core.job.choices import (
        ENGINE_VERSION_PATTERN,
        LORA_TARGETS,
        Checkpointing,
        Engine,
        Method,
        Mode,
        Offload,
        Parallel,
        Precision,
    )
    from advisor.core.job.defaults import DEFAULT_ENGINE, default_job, default_job_words, shape_words
    from advisor.core.job.engine_versions import as_run
    from advisor.core.job.frameworks import apply_framework
    from advisor.core.job.job import Job
    from advisor.core.job.planned import BUILD_ONLY_FIELDS, PlannedJob, PlanPins, alone, job_of, pins_of
    from advisor.core.job.settings import SETTINGS, by_flag, choice_label, reason_words, setting, why_not
    from advisor.core.job.settings.declare import (
        Section,
        Setting,
        Widget,
        bounds_of,
        default_of,
        strict_floor,
        whole_bounds,
    )
    from advisor.core.memo import KeepLast
    from advisor.core.memory.formats import WEIGHT_FORMATS, kv_bytes_per_element, weight_format
    from advisor.core.memory.inference import base_format_name
    from advisor.core.memory.results import MEMORY_TERMS, term_label
    from advisor.core.model.arch import ModelArch
    from advisor.core.model.generic import MAX_PARAMS, MIN_PARAMS, generic_decoder
    from advisor.core.model.params import count_params
    from advisor.core.plan.planner import FitStatus, best_plan
    from advisor.core.plan.suggest import suggestions
    from advisor.core.plan.words import CHECKPOINT_WORDS, OFFLOAD_WORDS, SCHEME_WORDS, plan_words
    from advisor.core.schema import SCHEMA_VERSION, Frozen
    from advisor.core.speed.basis import SpeedBasis, basis_of, software_of
    from advisor.core.speed.scores import unfused_reason
    from advisor.core.units import GB, GIB, MIB, format_params, format_usd, parse_count

#: Each name of the face → the module that defines it.
_HOMES: dict[str, str] = {
    "Where": "advisor.core.advice.candidates",
    "ModelJob": "advisor.core.advice.catalog_search",
    "SearchRequest": "advisor.core.advice.catalog_search",
    "search": "advisor.core.advice.catalog_search",
    "BuildEntry": "advisor.core.advice.comparison",
    "COMPARISON_VERSION": "advisor.core.advice.comparison",
    "Comparison": "advisor.core.advice.comparison",
    "MAX_BUILDS": "advisor.core.advice.comparison",
    "MIN_BUILDS": "advisor.core.advice.comparison",
    "ModelRef": "advisor.core.advice.comparison",
    "READABLE_VERSIONS": "advisor.core.advice.comparison",
    "canonical_comparison": "advisor.core.advice.comparison",
    "first_free": "advisor.core.advice.comparison",
    "unique_name": "advisor.core.advice.comparison",
    "Criterion": "advisor.core.advice.criterion",
    "BuildResult": "advisor.core.advice.evaluate",
    "PreparedBuild": "advisor.core.advice.evaluate",
    "Results": "advisor.core.advice.evaluate",
    "SearchAnswer": "advisor.core.advice.evaluate",
    "detailed_results": "advisor.core.advice.evaluate",
    "evaluate": "advisor.core.advice.evaluate",
    "fit_curve_steps": "advisor.core.advice.evaluate",
    "money": "advisor.core.advice.evaluate",
    "prepare_build": "advisor.core.advice.evaluate",
    "resolve_entry": "advisor.core.advice.evaluate",
    "resolve_model": "advisor.core.advice.evaluate",
    "with_search": "advisor.core.advice.evaluate",
    "formulas": "advisor.core.advice.formulas",
    "Ranking": "advisor.core.advice.ranking",
    "rank": "advisor.core.advice.ranking",
    "recommendation": "advisor.core.advice.recommend",
    "build_running_cost": "advisor.core.advice.running",
    "chinchilla_plan": "advisor.core.advice.running",
    "with_running_costs": "advisor.core.advice.running",
    "ChinchillaPlan": "advisor.core.advice.running_costs",
    "RentVsBuy": "advisor.core.advice.running_costs",
    "RunningCosts": "advisor.core.advice.running_costs",
    "with_speed_bases": "advisor.core.advice.speed_bases",
    "PriceChoice": "advisor.core.cost.machine",
    "machine_price": "advisor.core.cost.machine",
    "price_words": "advisor.core.cost.machine",
    "CHINCHILLA_SOURCE": "advisor.core.cost.running",
    "CostSettings": "advisor.core.cost.running",
    "DEFAULT_HOURS_PER_DAY": "advisor.core.cost.running",
    "DEFAULT_USD_PER_KWH": "advisor.core.cost.running",
    "DEFAULT_YEARS": "advisor.core.cost.running",
    "ELECTRICITY_SOURCE": "advisor.core.cost.running",
    "HOURS_PER_DAY_RANGE": "advisor.core.cost.running",
    "IDLE_SOURCE": "advisor.core.cost.running",
    "RunningCost": "advisor.core.cost.running",
    "USD_PER_KWH_RANGE": "advisor.core.cost.running",
    "YEARS_RANGE": "advisor.core.cost.running",
    "chinchilla_tokens": "advisor.core.cost.running",
    "train_hours": "advisor.core.cost.running",
    "train_usd": "advisor.core.cost.running",
    "estimate": "advisor.core.estimation.estimator",
    "check_planned": "advisor.core.estimation.job_checks",
    "flags_said": "advisor.core.estimation.job_checks",
    "message_of": "advisor.core.estimation.job_checks",
    "past_trained_context": "advisor.core.estimation.job_checks",
    "DEFAULT_WEIGHTS": "advisor.core.estimation.job_rules",
    "engine_caches": "advisor.core.estimation.job_rules",
    "engine_loads": "advisor.core.estimation.job_rules",
    "fit_to_engine": "advisor.core.estimation.job_rules",
    "ignored": "advisor.core.estimation.job_rules",
    "settled": "advisor.core.estimation.job_rules",
    "weights_choices": "advisor.core.estimation.job_rules",
    "weights_key": "advisor.core.estimation.job_rules",
    "job_rows": "advisor.core.estimation.job_words",
    "say": "advisor.core.estimation.job_words",
    "Build": "advisor.core.hardware.builds",
    "BuildGpu": "advisor.core.hardware.builds",
    "CloudPrice": "advisor.core.hardware.builds",
    "CatalogRecord": "advisor.core.hardware.catalog",
    "dangling_references": "advisor.core.hardware.catalog_edits",
    "Catalog": "advisor.core.hardware.catalog_model",
    "CatalogLayer": "advisor.core.hardware.catalog_model",
    "IncompleteRecord": "advisor.core.hardware.catalog_model",
    "Origin": "advisor.core.hardware.catalog_model",
    "RecordKind": "advisor.core.hardware.catalog_model",
    "UnknownRecord": "advisor.core.hardware.catalog_model",
    "detect_kind": "advisor.core.hardware.catalog_model",
    "kind_of": "advisor.core.hardware.catalog_model",
    "check_build": "advisor.core.hardware.checks",
    "Severity": "advisor.core.hardware.data_checks",
    "data_problems": "advisor.core.hardware.data_checks",
    "Gpu": "advisor.core.hardware.gpu",
    "NvLink": "advisor.core.hardware.gpu",
    "Segment": "advisor.core.hardware.gpu",
    "node_link": "advisor.core.hardware.interconnect",
    "on_platform": "advisor.core.hardware.machines",
    "price_tier": "advisor.core.hardware.machines",
    "host_ram_gib": "advisor.core.hardware.memory",
    "with_gpu_memory_limit": "advisor.core.hardware.memory",
    "cloud_display_name": "advisor.core.hardware.names",
    "display_name": "advisor.core.hardware.names",
    "vendor_brand": "advisor.core.hardware.names",
    "build_power": "advisor.core.hardware.power",
    "PriceKind": "advisor.core.hardware.quantities",
    "PricePoint": "advisor.core.hardware.quantities",
    "MAX_GPUS_PER_MACHINE": "advisor.core.hardware.records",
    "MAX_NODES": "advisor.core.hardware.records",
    "gpu_build": "advisor.core.hardware.resolve",
    "mixed_build": "advisor.core.hardware.resolve",
    "resolve_build": "advisor.core.hardware.resolve",
    "resolve_cloud": "advisor.core.hardware.resolve",
    "resolve_system": "advisor.core.hardware.resolve",
    "with_network": "advisor.core.hardware.resolve",
    "with_nodes": "advisor.core.hardware.resolve",
    "ResolvedBuild": "advisor.core.hardware.resolved",
    "Topology": "advisor.core.hardware.topology",
    "Checkpointing": "advisor.core.job.choices",
    "ENGINE_VERSION_PATTERN": "advisor.core.job.choices",
    "Engine": "advisor.core.job.choices",
    "LORA_TARGETS": "advisor.core.job.choices",
    "Method": "advisor.core.job.choices",
    "Mode": "advisor.core.job.choices",
    "Offload": "advisor.core.job.choices",
    "Parallel": "advisor.core.job.choices",
    "Precision": "advisor.core.job.choices",
    "DEFAULT_ENGINE": "advisor.core.job.defaults",
    "default_job": "advisor.core.job.defaults",
    "default_job_words": "advisor.core.job.defaults",
    "shape_words": "advisor.core.job.defaults",
    "as_run": "advisor.core.job.engine_versions",
    "apply_framework": "advisor.core.job.frameworks",
    "Job": "advisor.core.job.job",
    "BUILD_ONLY_FIELDS": "advisor.core.job.planned",
    "PlanPins": "advisor.core.job.planned",
    "PlannedJob": "advisor.core.job.planned",
    "alone": "advisor.core.job.planned",
    "job_of": "advisor.core.job.planned",
    "pins_of": "advisor.core.job.planned",
    "SETTINGS": "advisor.core.job.settings",
    "by_flag": "advisor.core.job.settings",
    "choice_label": "advisor.core.job.settings",
    "reason_words": "advisor.core.job.settings",
    "setting": "advisor.core.job.settings",
    "why_not": "advisor.core.job.settings",
    "Section": "advisor.core.job.settings.declare",
    "Setting": "advisor.core.job.settings.declare",
    "Widget": "advisor.core.job.settings.declare",
    "bounds_of": "advisor.core.job.settings.declare",
    "default_of": "advisor.core.job.settings.declare",
    "strict_floor": "advisor.core.job.settings.declare",
    "whole_bounds": "advisor.core.job.settings.declare",
    "KeepLast": "advisor.core.memo",
    "WEIGHT_FORMATS": "advisor.core.memory.formats",
    "kv_bytes_per_element": "advisor.core.memory.formats",
    "weight_format": "advisor.core.memory.formats",
    "base_format_name": "advisor.core.memory.inference",
    "MEMORY_TERMS": "advisor.core.memory.results",
    "term_label": "advisor.core.memory.results",
    "ModelArch": "advisor.core.model.arch",
    "MAX_PARAMS": "advisor.core.model.generic",
    "MIN_PARAMS": "advisor.core.model.generic",
    "generic_decoder": "advisor.core.model.generic",
    "count_params": "advisor.core.model.params",
    "FitStatus": "advisor.core.plan.planner",
    "best_plan": "advisor.core.plan.planner",
    "suggestions": "advisor.core.plan.suggest",
    "CHECKPOINT_WORDS": "advisor.core.plan.words",
    "OFFLOAD_WORDS": "advisor.core.plan.words",
    "SCHEME_WORDS": "advisor.core.plan.words",
    "plan_words": "advisor.core.plan.words",
    "Frozen": "advisor.core.schema",
    "SCHEMA_VERSION": "advisor.core.schema",
    "SpeedBasis": "advisor.core.speed.basis",
    "basis_of": "advisor.core.speed.basis",
    "software_of": "advisor.core.speed.basis",
    "unfused_reason": "advisor.core.speed.scores",
    "GB": "advisor.core.units",
    "GIB": "advisor.core.units",
    "MIB": "advisor.core.units",
    "format_params": "advisor.core.units",
    "format_usd": "advisor.core.units",
    "parse_count": "advisor.core.units",
}

__all__ = ["BUILD_ONLY_FIELDS", "Build", "BuildEntry", "BuildGpu", "BuildResult", "CHECKPOINT_WORDS",
           "CHINCHILLA_SOURCE", "COMPARISON_VERSION", "Catalog", "CatalogLayer", "CatalogRecord", "Checkpointing",
           "ChinchillaPlan", "CloudPrice", "Comparison", "CostSettings", "Criterion", "DEFAULT_ENGINE",
           "DEFAULT_HOURS_PER_DAY", "DEFAULT_USD_PER_KWH", "DEFAULT_WEIGHTS", "DEFAULT_YEARS", "ELECTRICITY_SOURCE",
           "ENGINE_VERSION_PATTERN", "Engine", "FitStatus", "Frozen", "GB", "GIB", "Gpu", "HOURS_PER_DAY_RANGE",
           "IDLE_SOURCE", "IncompleteRecord", "Job", "KeepLast", "LORA_TARGETS", "MAX_BUILDS", "MAX_GPUS_PER_MACHINE",
           "MAX_NODES", "MAX_PARAMS", "MEMORY_TERMS", "MIB", "MIN_BUILDS", "MIN_PARAMS", "Method", "Mode", "ModelArch",
           "ModelJob", "ModelRef", "NvLink", "OFFLOAD_WORDS", "Offload", "Origin", "Parallel", "PlanPins", "PlannedJob",
           "Precision", "PreparedBuild", "PriceChoice", "PriceKind", "PricePoint", "READABLE_VERSIONS", "Ranking",
           "RecordKind", "RentVsBuy", "ResolvedBuild", "Results", "RunningCost", "RunningCosts", "SCHEMA_VERSION",
           "SCHEME_WORDS", "SETTINGS", "SearchAnswer", "SearchRequest", "Section", "Segment", "Setting", "Severity",
           "SpeedBasis", "Topology", "USD_PER_KWH_RANGE", "UnknownRecord", "WEIGHT_FORMATS", "Where", "Widget",
           "YEARS_RANGE", "alone", "apply_framework", "as_run", "base_format_name", "basis_of", "best_plan",
           "bounds_of", "build_power", "build_running_cost", "by_flag", "canonical_comparison", "check_build",
           "check_planned", "chinchilla_plan", "chinchilla_tokens", "choice_label", "cloud_display_name",
           "count_params", "dangling_references", "data_problems", "default_job", "default_job_words", "default_of",
           "detailed_results", "detect_kind", "display_name", "engine_caches", "engine_loads", "estimate", "evaluate",
           "first_free", "fit_curve_steps", "fit_to_engine", "flags_said", "format_params", "format_usd", "formulas",
           "generic_decoder", "gpu_build", "host_ram_gib", "ignored", "job_of", "job_rows", "kind_of",
           "kv_bytes_per_element", "machine_price", "message_of", "mixed_build", "money", "node_link", "on_platform",
           "parse_count", "past_trained_context", "pins_of", "plan_words", "prepare_build", "price_tier", "price_words",
           "rank", "reason_words", "recommendation", "resolve_build", "resolve_cloud", "resolve_entry", "resolve_model",
           "resolve_system", "say", "search", "setting", "settled", "shape_words", "software_of", "strict_floor",
           "suggestions", "term_label", "train_hours", "train_usd", "unfused_reason", "unique_name", "vendor_brand",
           "weight_format", "weights_choices", "weights_key", "whole_bounds", "why_not", "with_gpu_memory_limit",
           "with_network", "with_nodes", "with_running_costs", "with_search", "with_speed_bases"]


def __getattr__(name: str) -> Any:
    """A name of the face, imported from its home on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # Not kept here: read from its home each time, so the face always gives what the home holds.
    return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
