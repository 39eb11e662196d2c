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
        assemble,
        background_search,
        detailed_results,
        evaluate,
        evaluate_build,
        find_suggestions,
        fit_curve_steps,
        fit_curves,
        fit_inputs,
        largest_fits_for,
        money,
        prepare_build,
        resolve_entry,
        resolve_model,
        suggestion_inputs,
        technique_workloads,
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
    from advisor.core.hardware.parts import PartKind, PlatformPart
    from advisor.core.hardware.power import build_power
    from advisor.core.hardware.quantities import PriceKind, PricePoint
    from advisor.core.hardware.records import MAX_GPUS_PER_MACHINE, MAX_NODES
    from advisor.core.hardware.resolve import (
        board_limit,
        boards_needed,
        gpu_build,
        mixed_build,
        resolve_build,
        resolve_cloud,
        resolve_system,
        with_network,
        with_nodes,
    )
    from advisor.core.hardware.resolved import ResolvedBuild
    from advisor.core.hardware.topology import Topology, bridge_pairs
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
    from advisor.core.memory.held import base_format_name
    from advisor.core.model.arch import ModelArch
    from advisor.core.model.generic import MAX_PARAMS, MIN_PARAMS, generic_decoder
    from advisor.core.model.params import count_params
    from advisor.core.plan.planner import FitStatus, best_plan
    from advisor.core.plan.suggest import suggestions
    from advisor.core.plan.words import CHECKPOINT_WORDS, OFFLOAD_WORDS, SCHEME_WORDS, plan_words
    from advisor.core.schema import SCHEMA_VERSION, Frozen
    from advisor.core.speed.basis import SpeedBasis, basis_of, software_of
    from advisor.core.speed.scores import unfused_reason
    from advisor.core.terms import MEMORY_TERMS, term_label
    from advisor.core.units import GB, GIB, MIB, format_params, format_usd, parse_count

# Each name of the face and the module it lives in, by module (the homes of the imports above).
_HOMES: dict[str, str] = {name: "advisor.core." + home for home, names in (
    ("advice.candidates", "Where"),
    ("advice.catalog_search", "ModelJob SearchRequest search"),
    ("advice.comparison", "BuildEntry COMPARISON_VERSION Comparison MAX_BUILDS MIN_BUILDS ModelRef "
     "READABLE_VERSIONS canonical_comparison first_free unique_name"),
    ("advice.criterion", "Criterion"),
    ("advice.evaluate", "BuildResult PreparedBuild Results SearchAnswer assemble background_search detailed_results "
     "evaluate evaluate_build find_suggestions fit_curve_steps fit_curves fit_inputs largest_fits_for money "
     "prepare_build resolve_entry resolve_model suggestion_inputs technique_workloads with_search"),
    ("advice.formulas", "formulas"),
    ("advice.ranking", "Ranking rank"),
    ("advice.recommend", "recommendation"),
    ("advice.running", "build_running_cost chinchilla_plan with_running_costs"),
    ("advice.running_costs", "ChinchillaPlan RentVsBuy RunningCosts"),
    ("advice.speed_bases", "with_speed_bases"),
    ("cost.machine", "PriceChoice machine_price price_words"),
    ("cost.running", "CHINCHILLA_SOURCE CostSettings DEFAULT_HOURS_PER_DAY DEFAULT_USD_PER_KWH DEFAULT_YEARS "
     "ELECTRICITY_SOURCE HOURS_PER_DAY_RANGE IDLE_SOURCE RunningCost USD_PER_KWH_RANGE YEARS_RANGE "
     "chinchilla_tokens train_hours train_usd"),
    ("estimation.estimator", "estimate"),
    ("estimation.job_checks", "check_planned flags_said message_of past_trained_context"),
    ("estimation.job_rules", "DEFAULT_WEIGHTS engine_caches engine_loads fit_to_engine ignored settled "
     "weights_choices weights_key"),
    ("estimation.job_words", "job_rows say"),
    ("hardware.builds", "Build BuildGpu CloudPrice"),
    ("hardware.catalog", "CatalogRecord"),
    ("hardware.catalog_edits", "dangling_references"),
    ("hardware.catalog_model", "Catalog CatalogLayer IncompleteRecord Origin RecordKind UnknownRecord detect_kind "
     "kind_of"),
    ("hardware.checks", "check_build"),
    ("hardware.data_checks", "Severity data_problems"),
    ("hardware.gpu", "Gpu NvLink Segment"),
    ("hardware.interconnect", "node_link"),
    ("hardware.machines", "on_platform price_tier"),
    ("hardware.memory", "host_ram_gib with_gpu_memory_limit"),
    ("hardware.names", "cloud_display_name display_name vendor_brand"),
    ("hardware.parts", "PartKind PlatformPart"),
    ("hardware.power", "build_power"),
    ("hardware.quantities", "PriceKind PricePoint"),
    ("hardware.records", "MAX_GPUS_PER_MACHINE MAX_NODES"),
    ("hardware.resolve", "board_limit boards_needed gpu_build mixed_build resolve_build resolve_cloud resolve_system with_network with_nodes"),
    ("hardware.resolved", "ResolvedBuild"),
    ("hardware.topology", "Topology bridge_pairs"),
    ("job.choices", "Checkpointing ENGINE_VERSION_PATTERN Engine LORA_TARGETS Method Mode Offload Parallel "
     "Precision"),
    ("job.defaults", "DEFAULT_ENGINE default_job default_job_words shape_words"),
    ("job.engine_versions", "as_run"),
    ("job.frameworks", "apply_framework"),
    ("job.job", "Job"),
    ("job.planned", "BUILD_ONLY_FIELDS PlanPins PlannedJob alone job_of pins_of"),
    ("job.settings", "SETTINGS by_flag choice_label reason_words setting why_not"),
    ("job.settings.declare", "Section Setting Widget bounds_of default_of strict_floor whole_bounds"),
    ("memo", "KeepLast"),
    ("memory.formats", "WEIGHT_FORMATS kv_bytes_per_element weight_format"),
    ("memory.held", "base_format_name"),
    ("model.arch", "ModelArch"),
    ("model.generic", "MAX_PARAMS MIN_PARAMS generic_decoder"),
    ("model.params", "count_params"),
    ("plan.planner", "FitStatus best_plan"),
    ("plan.suggest", "suggestions"),
    ("plan.words", "CHECKPOINT_WORDS OFFLOAD_WORDS SCHEME_WORDS plan_words"),
    ("schema", "Frozen SCHEMA_VERSION"),
    ("speed.basis", "SpeedBasis basis_of software_of"),
    ("speed.scores", "unfused_reason"),
    ("terms", "MEMORY_TERMS term_label"),
    ("units", "GB GIB MIB format_params format_usd parse_count"),
) for name in names.split()}

__all__ = ["BUILD_ONLY_FIELDS", "Build", "BuildEntry", "BuildGpu", "BuildResult", "CHECKPOINT_WORDS",
           "CHINCHILLA_SOURCE", "COMPARISON_VERSION", "Catalog", "CatalogLayer", "CatalogRecord", "Checkpointing",
           "ChinchillaPlan", "CloudPrice", "Comparison", "CostSettings", "Criterion", "DEFAULT_ENGINE",
           "DEFAULT_HOURS_PER_DAY", "DEFAULT_USD_PER_KWH", "DEFAULT_WEIGHTS", "DEFAULT_YEARS", "ELECTRICITY_SOURCE",
           "ENGINE_VERSION_PATTERN", "Engine", "FitStatus", "Frozen", "GB", "GIB", "Gpu", "HOURS_PER_DAY_RANGE",
           "IDLE_SOURCE", "IncompleteRecord", "Job", "KeepLast", "LORA_TARGETS", "MAX_BUILDS", "MAX_GPUS_PER_MACHINE",
           "MAX_NODES", "MAX_PARAMS", "MEMORY_TERMS", "MIB", "MIN_BUILDS", "MIN_PARAMS", "Method", "Mode", "ModelArch",
           "ModelJob", "ModelRef", "NvLink", "OFFLOAD_WORDS", "Offload", "Origin", "Parallel", "PartKind", "PlanPins",
           "PlannedJob", "PlatformPart", "Precision", "PreparedBuild", "PriceChoice", "PriceKind", "PricePoint",
           "READABLE_VERSIONS", "Ranking", "RecordKind", "RentVsBuy", "ResolvedBuild", "Results", "RunningCost",
           "RunningCosts", "SCHEMA_VERSION", "SCHEME_WORDS", "SETTINGS", "SearchAnswer", "SearchRequest", "Section",
           "Segment", "Setting", "Severity", "SpeedBasis", "Topology", "USD_PER_KWH_RANGE", "UnknownRecord",
           "WEIGHT_FORMATS", "Where", "Widget", "YEARS_RANGE", "alone", "apply_framework", "as_run", "assemble",
           "background_search", "base_format_name", "basis_of", "best_plan", "board_limit", "boards_needed", "bounds_of", "bridge_pairs", "build_power",
           "build_running_cost", "by_flag", "canonical_comparison", "check_build", "check_planned", "chinchilla_plan",
           "chinchilla_tokens", "choice_label", "cloud_display_name", "count_params", "dangling_references",
           "data_problems", "default_job", "default_job_words", "default_of", "detailed_results", "detect_kind",
           "display_name", "engine_caches", "engine_loads", "estimate", "evaluate", "evaluate_build",
           "find_suggestions", "first_free", "fit_curve_steps", "fit_curves", "fit_inputs", "fit_to_engine",
           "flags_said", "format_params", "format_usd", "formulas", "generic_decoder", "gpu_build", "host_ram_gib",
           "ignored", "job_of", "job_rows", "kind_of", "kv_bytes_per_element", "largest_fits_for", "machine_price",
           "message_of", "mixed_build", "money", "node_link", "on_platform", "parse_count", "past_trained_context",
           "pins_of", "plan_words", "prepare_build", "price_tier", "price_words", "rank", "reason_words",
           "recommendation", "resolve_build", "resolve_cloud", "resolve_entry", "resolve_model", "resolve_system",
           "say", "search", "setting", "settled", "shape_words", "software_of", "strict_floor", "suggestion_inputs",
           "suggestions", "technique_workloads", "term_label", "train_hours", "train_usd", "unfused_reason",
           "unique_name", "vendor_brand", "weight_format", "weights_choices", "weights_key", "whole_bounds", "why_not",
           "with_gpu_memory_limit", "with_network", "with_nodes", "with_running_costs", "with_search",
           "with_speed_bases"]


def __getattr__(name: str) -> Any:
    """A name of the face, imported from its home on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # Not kept here: read from its home each time, so the face always gives what the home holds.
    return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
