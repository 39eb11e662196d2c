"""A build of different cards made in the Add-build dialog: its name, id, record and save (Qt-free).

A comparison entry names one card × count; a machine holding an RTX 3090 beside an RTX 4090
is a catalog build (``Build.gpus`` holds several card types). The dialog therefore saves it
as a user build record through ``advisor.storage.catalog_store`` (validated, atomic, under
the catalog lock) and adds it to the comparison by its id: it persists, the catalog editor
edits it and Find builds finds it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from advisor.core import Build, BuildGpu, Catalog, Gpu, RecordKind, Segment, Topology, board_limit, boards_needed, first_free
from advisor.storage import catalog_store as store
from advisor.storage import paths
from advisor.storage.locking import locked

MAX_ID = 72  # RecordId allows 80: room for a "-99" suffix


class SaveRefused(Exception):
    """The build was not saved; the message is one line for the dialog."""


def merge_cards(rows: Iterable[tuple[str, int]]) -> tuple[BuildGpu, ...]:
    """(card id, count) rows as the build's cards: one entry per card, in the order first named."""
    counts: dict[str, int] = {}
    for gpu_id, count in rows:
        counts[gpu_id] = counts.get(gpu_id, 0) + count
    return tuple(BuildGpu(gpu_id=g, count=n) for g, n in counts.items())


def can_sit_beside_others(gpu: Gpu) -> bool:
    """A card that goes in a PC slot: not the GPU of an Apple or other unified-memory computer, nor an SXM or OAM
    module (it sits on its own baseboard)."""
    return gpu.segment is not Segment.UNIFIED_MEMORY and not gpu.is_module


#: A build holds at most this many of one card (the count field's bound).
MAX_OF_ONE_CARD = 72
#: What the note under the cards says about a machine of different cards, once it can be built.
MIXED_NOTE = ("<b>Different cards in one machine.</b> With llama.cpp each card holds layers in proportion "
              "to its memory; split evenly (vLLM, tensor parallel), every card works at the slowest card's "
              "pace. OK also saves this build in your catalog, to edit or find later.")


def mixing_problem(first: Gpu | None, cards: Iterable[BuildGpu], incomplete: bool,
                   other_rows: bool = True) -> tuple[str, bool]:
    """Why the cards (``first`` chosen in the list, then the other rows' ``cards``; ``incomplete``: a row names
    no card yet; ``other_rows``: the dialog shows rows for other cards) cannot make a build yet, and whether that is
    an error; ("", False) when they can."""
    cards = tuple(cards)
    if other_rows and first is not None and not can_sit_beside_others(first):
        if first.is_module:
            return (f"The {first.name} sits on its own baseboard and takes no other cards: remove the other cards "
                    "or choose a card.", True)
        return "A computer with unified memory takes no other cards: remove the other cards or choose a card.", True
    if any(c.count > MAX_OF_ONE_CARD for c in cards):
        return f"A build holds at most {MAX_OF_ONE_CARD} of one card.", True
    if first is not None and cards and (needed := boards_needed(first, cards[0].count)):
        why = board_limit(first, cards[0].count)
        return f"{why[0].upper()}{why[1:]}: add {needed[0]}, then set Machines to {needed[1]} in the builds table.", True
    if incomplete:
        return "Choose a card in each row (or remove the row).", False  # a row being filled: a hint
    return "", False


def short_name(gpu: Gpu) -> str:
    """The card as a buyer says it in a build's name: "RTX 3090", not "NVIDIA GeForce RTX 3090"."""
    name = gpu.name.strip()
    return name.removeprefix("GeForce ").strip() or name


def mixed_name(catalog: Catalog, cards: tuple[BuildGpu, ...]) -> str:
    """"RTX 3090 + RTX 4090", "2× RTX 3090 + RTX 4090": what the name field starts with."""
    parts = []
    for c in cards:
        gpu = catalog.gpus.get(c.gpu_id)
        name = short_name(gpu) if gpu is not None else c.gpu_id
        parts.append(f"{c.count}× {name}" if c.count > 1 else name)
    return " + ".join(parts)


def _id_stem(cards: tuple[BuildGpu, ...]) -> str:
    stem = "mixed-" + "-".join(f"{c.count}x-{c.gpu_id}" for c in cards)
    return stem[:MAX_ID].rstrip("-._")


def _taken(catalog: Catalog, root: Path) -> set[str]:
    """Build ids in use: shipped (hidden ones too: a user file would replace them), the user's,
    and the files on disk now (another window may have saved one since the catalog was read)."""
    ids = set(catalog.shipped.builds) | set(catalog.user.builds)
    folder = root / RecordKind.BUILD.folder
    if folder.is_dir():
        ids |= {p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json")}
    return ids


def _free_id(stem: str, taken: set[str]) -> str:
    """``stem``, or ``stem-2``, ``-3`` … that no record file uses (ids are file names)."""
    return first_free(stem, taken, lambda s, n: f"{s}-{n}")


def build_record(catalog: Catalog, cards: tuple[BuildGpu, ...], name: str, topology: Topology,
                 build_id: str) -> Build:
    """The user build record: the cards' own sources stand for its numbers (there are no others)."""
    gpus = [catalog.gpus[c.gpu_id] for c in cards]
    sources = list(dict.fromkeys(str(g.sources[0]) for g in gpus))
    names = " and ".join(f"{c.count}× {g.vendor} {g.name}" for c, g in zip(cards, gpus, strict=True))
    return Build(id=build_id, name=name, gpus=cards, topology=topology, sources=sources,
                 notes=f"Made in the window's Add-build dialog: {names}. The platform (board, CPU, "
                       "power supply) is not listed, so its price, power and slot checks are not known.")


def save_mixed_build(catalog: Catalog, cards: tuple[BuildGpu, ...], name: str, topology: Topology,
                     user_dir: Path | None = None) -> Build:
    """Save the build under a free id in the user's catalog and return it; ``SaveRefused`` says why not.

    The id is chosen and the file written under one hold of the catalog lock, so two windows
    saving the same mix at once get two records, never one over the other.
    """
    root = Path(user_dir) if user_dir is not None else paths.user_catalog_dir()
    name = " ".join(name.split())
    if not name:
        raise SaveRefused("The build needs a name.")
    try:
        with locked(root):
            build = build_record(catalog, cards, name, topology, _free_id(_id_stem(cards), _taken(catalog, root)))
            store.save_record(build, user_dir=root)
    except KeyError as exc:
        raise SaveRefused(f"The card {exc.args[0]} is no longer in the catalog; nothing was saved.") from exc
    except ValueError as exc:  # the record's own checks (pydantic's ValidationError is a ValueError)
        first = exc.errors()[0]["msg"] if hasattr(exc, "errors") else str(exc)
        raise SaveRefused(f"This build cannot be saved: {first}. Nothing was saved.") from exc
    except (store.CatalogStoreError, OSError) as exc:  # a full disk, a folder that is a file, a lock held too long
        reason = str(exc).replace("\n", " ")
        raise SaveRefused(f"Your catalog could not store the build ({reason}); nothing was saved.") from exc
    return build
