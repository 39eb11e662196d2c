"""Everyday buyer questions: does ``llm-advisor advise`` with its default options answer as experienced buyers do?

Each question is a job (model, format, engine or training method), a budget and new / used / rent, written as the
flags a user types. Its expert answer is a *category* of machine — "a desktop with two used 24 GB NVIDIA cards, or
a used Mac Studio Ultra" — taken from community build guides and published measurements (cited per question), and
checked on what ``advise`` lists: the answer is a hit when one of the top three rows belongs to the category. No
question is special-cased anywhere in the app; the categories are judged on the catalog's records (card count,
vendor, memory, platform, host RAM), not on names.

Run: ``.venv/bin/python benchmarks/buyer_questions.py [--markdown] [--only ID]`` (a few seconds per question).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from advisor.cli import main as cli_main  # noqa: E402
from advisor.storage.catalog_store import load_catalog  # noqa: E402

CATALOG = load_catalog(migrate_user_files=False).catalog
TOP = 3


# --- categories of machine, judged on the catalog's records -------------------------------------------------


def _gpus(c: dict) -> list:
    return [CATALOG.gpus[g] for g in c["gpus"] if g in CATALOG.gpus]


def cards(n: int | tuple[int, int], gb: tuple[float, float], vendor: str | None = None, owned: bool = True,
          datacenter: bool = False) -> Callable[[dict], bool]:
    """``n`` (or n_min..n_max) cards, each with ``gb`` printed memory (lo..hi), of ``vendor``; a machine one buys
    (owned) or rents; datacenter (fanless) cards only when allowed."""
    lo_n, hi_n = (n, n) if isinstance(n, int) else n

    def ok(c: dict) -> bool:
        g = _gpus(c)
        if not g or not lo_n <= len(g) <= hi_n or (c["price_kind"] == "per_hour") == owned:
            return False
        if any(x.segment.value == "unified-memory" for x in g):
            return False
        if not datacenter and any(x.segment.value == "datacenter" for x in g):
            return False
        return all(gb[0] <= x.memory_gb_marketing <= gb[1] and (vendor is None or x.vendor == vendor) for x in g)
    return ok


def with_host_ram(inner: Callable[[dict], bool], gib: float) -> Callable[[dict], bool]:
    return lambda c: inner(c) and (c.get("host_ram_gib") or 0) >= gib


def mac(min_gb: float, chip: str = "") -> Callable[[dict], bool]:
    """An Apple machine with at least ``min_gb`` of unified memory (an 'Ultra' when ``chip`` says so)."""
    def ok(c: dict) -> bool:
        g = _gpus(c)
        return (len(g) == 1 and g[0].vendor == "Apple" and g[0].memory_gb_marketing >= min_gb
                and chip.lower() in g[0].name.lower())
    return ok


def rented(min_total_gb: float, max_gpus: int = 8, min_each_gb: float = 0,
           max_each_gb: float = float("inf")) -> Callable[[dict], bool]:
    """A cloud instance with at least ``min_total_gb`` of GPU memory on at most ``max_gpus`` GPUs of
    ``min_each_gb`` to ``max_each_gb`` each."""
    def ok(c: dict) -> bool:
        g = _gpus(c)
        return (c["price_kind"] == "per_hour" and 0 < len(g) <= max_gpus
                and sum(x.memory_gb_marketing for x in g) >= min_total_gb
                and all(min_each_gb <= x.memory_gb_marketing <= max_each_gb for x in g))
    return ok


def any_of(*tests: Callable[[dict], bool]) -> Callable[[dict], bool]:
    return lambda c: any(t(c) for t in tests)


@dataclass(frozen=True)
class Question:
    id: str
    ask: str
    argv: tuple[str, ...]
    expert: str
    accepts: Callable[[dict], bool]
    sources: tuple[str, ...] = field(default=())


QUESTIONS = (
    Question("70b-q4-chat-2500-used", "Chat with Llama 3.1 70B (Q4_K_M, llama.cpp), one user, $2,500, used is fine",
             ("llama-3.1-70b", "--weights", "q4_k_m", "--engine", "llama.cpp", "--budget", "2500", "--used"),
             "a desktop with two used 24 GB NVIDIA cards (RTX 3090 class), or a used Mac Studio Ultra",
             any_of(cards(2, (24, 24), "NVIDIA"), mac(64, "ultra")),
             ("https://specpicks.com/reviews/best-gpu-for-ai-rig",
              "https://craftrigs.pages.dev/guides/3000-dual-gpu-llm-rig",
              "https://aidevdayindia.org/blogs/run-local-llm-hardware-guide/build-local-llm-rig-multi-gpu.html")),
    Question("72b-q4-chat-3000-used", "Chat with Qwen2.5 72B (Q4_K_M, llama.cpp), one user, $3,000, used is fine",
             ("qwen2.5-72b", "--weights", "q4_k_m", "--engine", "llama.cpp", "--budget", "3000", "--used"),
             "two used 24 GB NVIDIA cards in a desktop, or a used Mac Studio Ultra",
             any_of(cards(2, (24, 24), "NVIDIA"), mac(64, "ultra")),
             ("https://specpicks.com/reviews/best-gpu-for-ai-rig", "https://canitrun.dev/models/llama-3.1-70b")),
    Question("70b-q4-chat-6000-new", "Chat with Llama 3.1 70B (Q4_K_M, llama.cpp), one user, $6,000, new",
             ("llama-3.1-70b", "--weights", "q4_k_m", "--engine", "llama.cpp", "--budget", "6000"),
             "two new 24-32 GB cards in a desktop, or a Mac Studio with 64 GB or more",
             any_of(cards(2, (24, 32)), mac(64)),
             ("https://craftrigs.pages.dev/guides/3000-dual-gpu-llm-rig",
              "https://sesamedisk.com/ai-inference-workstation-2026/")),
    Question("32b-q4-chat-1500-used", "Chat with Qwen2.5 32B (Q4_K_M, llama.cpp), one user, $1,500, used is fine",
             ("qwen2.5-32b", "--weights", "q4_k_m", "--engine", "llama.cpp", "--budget", "1500", "--used"),
             "a desktop with one used 24 GB card (RTX 3090 class)",
             cards(1, (24, 24)),
             ("https://mylocalai.org/blog/best-budget-ai-pc-build",)),
    Question("27b-q4-chat-1500-used", "Chat with Gemma 3 27B (Q4_K_M, llama.cpp), one user, $1,500, used is fine",
             ("gemma-3-27b", "--weights", "q4_k_m", "--engine", "llama.cpp", "--budget", "1500", "--used"),
             "one 24 GB card",
             cards(1, (24, 24), datacenter=True),
             ("https://www.ariezlabs.com/blog/p40", "https://mylocalai.org/blog/best-budget-ai-pc-build")),
    Question("30b-moe-q4-chat-1500-used", "Chat with Qwen3 30B-A3B (Q4_K_M, llama.cpp), one user, $1,500, used",
             ("qwen3-30b-a3b", "--weights", "q4_k_m", "--engine", "llama.cpp", "--budget", "1500", "--used"),
             "one 24 GB card",
             cards(1, (24, 24), datacenter=True),
             ("https://insiderllm.com/guides/used-tesla-p40-local-ai",
              "https://mylocalai.org/blog/best-budget-ai-pc-build")),
    Question("8b-q4-chat-1000-new", "Chat with Llama 3.1 8B (Q4_K_M, llama.cpp), one user, $1,000, new",
             ("llama-3.1-8b", "--weights", "q4_k_m", "--engine", "llama.cpp", "--budget", "1000"),
             "a desktop with one 12-16 GB card (RTX 3060 12 GB, RTX 4060 Ti / 5060 Ti 16 GB)",
             cards(1, (12, 16)),
             ("https://ownrig.com/builds/budget-home-ai-server", "https://mylocalai.org/blog/best-budget-ai-pc-build")),
    Question("8b-q4-chat-700-used", "Chat with Llama 3.1 8B (Q4_K_M, llama.cpp), one user, $700, used is fine",
             ("llama-3.1-8b", "--weights", "q4_k_m", "--engine", "llama.cpp", "--budget", "700", "--used"),
             "a desktop with one used 8-16 GB card (RTX 3060 12 GB class)",
             cards(1, (8, 16)),
             ("https://ownrig.com/builds/budget-home-ai-server",)),
    Question("qlora-8b-2000-used", "QLoRA fine-tune of Llama 3.1 8B, $2,000, used is fine",
             ("llama-3.1-8b", "--mode", "train", "--method", "qlora", "--budget", "2000", "--used"),
             "one 24 GB NVIDIA card",
             cards(1, (24, 24), "NVIDIA"),
             ("https://www.devopsness.com/blog/fine-tuning-llama-3-consumer-hardware",
              "https://koishiai.com/en/articles/fine-tune-llms-24gb-gpus-qlora")),
    Question("lora-8b-3000-new", "LoRA fine-tune of Llama 3.1 8B on a 16-bit base, $3,000, new",
             ("llama-3.1-8b", "--mode", "train", "--method", "lora", "--budget", "3000"),
             "one 24-32 GB NVIDIA card",
             cards(1, (24, 32), "NVIDIA"),
             ("https://gigagpu.com/fine-tune-llama-3-8b-lora-gpu-guide/",)),
    Question("qlora-70b-10000", "QLoRA fine-tune of Llama 3.1 70B, $10,000, new",
             ("llama-3.1-70b", "--mode", "train", "--method", "qlora", "--budget", "10000"),
             "two 24 GB cards with FSDP-QLoRA, or one 48-96 GB card",
             any_of(cards(2, (24, 24)), cards(1, (48, 96))),
             ("https://www.answer.ai/posts/2024-03-06-fsdp-qlora.html",
              "https://gigagpu.com/rtx-4090-24gb-qlora-fine-tune-guide/")),
    Question("235b-moe-home-5000-used", "Run Qwen3 235B-A22B (Q4_K_M, llama.cpp) at home, $5,000, used is fine",
             ("qwen3-235b-a22b", "--weights", "q4_k_m", "--engine", "llama.cpp", "--budget", "5000", "--used"),
             "one or two 24-32 GB cards with the experts in 128 GB or more of host RAM, or a Mac with 192 GB or more",
             any_of(with_host_ram(cards((1, 2), (24, 32)), 120), mac(192)),
             ("https://www.joshua8.ai/200b-parameters-1000-ebay-hardware/",
              "https://runaihome.com/blog/mac-studio-100b-models-local-ai-2026/")),
    Question("671b-moe-home-15000", "Run DeepSeek V3 (Q4_K_M, llama.cpp) at home, $15,000, used is fine",
             ("deepseek-v3", "--weights", "q4_k_m", "--engine", "llama.cpp", "--budget", "15000", "--used"),
             "a Mac Studio M3 Ultra with 512 GB, or one or two GPUs with the experts in 512 GB or more of host RAM",
             any_of(mac(512), with_host_ram(cards((1, 2), (16, 96)), 480)),
             ("https://wccftech.com/m3-ultra-chip-handles-deepseek-r1-model-with-671-billion-parameters/",
              "https://runaihome.com/blog/mac-studio-100b-models-local-ai-2026/")),
    Question("70b-bf16-serve-rent", "Serve Llama 3.1 70B in bf16 with vLLM, rented",
             ("llama-3.1-70b", "--engine", "vllm", "--cloud"),
             "an instance with about 140 GB of GPU memory or more: one H200 or MI300X, or two 80 GB GPUs",
             rented(140, max_gpus=4, min_each_gb=80),
             ("https://kubernetes.recipes/recipes/ai/llama-70b-model-size-gpu-requirements/",)),
    Question("8b-bf16-serve-rent", "Serve Llama 3.1 8B in bf16 with vLLM, rented, $2 an hour at most",
             ("llama-3.1-8b", "--engine", "vllm", "--cloud", "--budget", "2"),
             "one 24-48 GB GPU (L4, A10G, L40S or an RTX 4090 class card)",
             rented(24, max_gpus=1, max_each_gb=48),
             ("https://kubernetes.recipes/recipes/ai/llama-70b-model-size-gpu-requirements/",)),
    Question("full-8b-rent", "Full fine-tune of Llama 3.1 8B, rented",
             ("llama-3.1-8b", "--mode", "train", "--method", "full", "--cloud"),
             "one 80 GB (or larger) GPU, or two",
             rented(80, max_gpus=2, min_each_gb=80),
             ("https://gigagpu.com/fine-tune-llama-3-8b-lora-gpu-guide/",
              "https://www.devopsness.com/blog/fine-tuning-llama-3-consumer-hardware")),
)


def advise(argv: tuple[str, ...]) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli_main(["advise", *argv, "--json", "--top", str(TOP)])
    if code != 0:
        raise RuntimeError(f"advise {' '.join(argv)} exited {code}")
    return json.loads(out.getvalue())


def _row(c: dict) -> str:
    rate = c["train_tokens_per_s"] or c["decode_tokens_per_s"]
    speed = f"{rate:,.1f} tok/s" if rate else "speed unknown"
    price = "no price" if c["price_usd"] is None else (
        f"${c['price_usd']:,.2f}/h" if c["price_kind"] == "per_hour" else f"${c['price_usd']:,.0f} {c['price_kind']}")
    basis = "" if c["speed_calibrated"] else " (extrapolated)"
    slow = "" if c["usable"] else " — below a usable speed"
    return f"{c['name']}: {price}; {speed}{basis}{slow}"


def run(questions) -> list[tuple[Question, list[dict], bool]]:
    results = []
    for q in questions:
        top = advise(q.argv)["candidates"][:TOP]
        results.append((q, top, any(q.accepts(c) for c in top)))
    return results


def text(results) -> str:
    lines = []
    for q, top, hit in results:
        lines += [f"{'HIT ' if hit else 'MISS'} {q.id}: {q.ask}", f"     llm-advisor advise {' '.join(q.argv)}",
                  f"     expert: {q.expert}", f"     sources: {' '.join(q.sources)}"]
        lines += [f"     {i}. {_row(c)}" + ("  <- the expert's answer" if q.accepts(c) else "")
                  for i, c in enumerate(top, 1)] or ["     (nothing runs it within the limits)"]
    hits = sum(h for *_, h in results)
    lines.append(f"\n{hits} of {len(results)} questions answered as experts do ({hits / len(results):.0%}); "
                 "target 80 %")
    return "\n".join(lines)


def markdown(results) -> str:
    lines = ["| question | expert answer | advise's top three | hit |", "|---|---|---|---|"]
    for q, top, hit in results:
        rows = "<br>".join(f"{i}. {_row(c)}" for i, c in enumerate(top, 1)) or "nothing within the limits"
        lines.append(f"| {q.ask} | {q.expert} | {rows} | {'hit' if hit else 'miss'} |")
    hits = sum(h for *_, h in results)
    lines.append(f"\n{hits} of {len(results)} ({hits / len(results):.0%}).")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--only", metavar="ID", help="ask one question")
    args = ap.parse_args()
    questions = [q for q in QUESTIONS if args.only in (None, q.id)]
    results = run(questions)
    print(markdown(results) if args.markdown else text(results))


if __name__ == "__main__":
    main()
