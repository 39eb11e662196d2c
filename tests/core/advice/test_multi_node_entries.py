"""Comparison entries of several machines: old files load, the count resolves, rent × machines."""

import json

import pytest

from advisor.core.advice.comparison import BuildEntry, Comparison, canonical_comparison
from advisor.core.advice.evaluate import evaluate_build, money, resolve_entry
from advisor.core.job.planned import PlannedJob
from advisor.storage.catalog_store import load_catalog


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(migrate_user_files=False).catalog


def test_a_file_written_before_machines_loads_as_one_machine():
    data = json.loads(canonical_comparison().model_dump_json())
    for b in data["builds"]:
        for key in ("nodes", "nic_id", "nics"):
            b.pop(key)
    loaded = Comparison.model_validate(data)
    assert [b.nodes for b in loaded.builds] == [1, 1] and loaded == canonical_comparison()


def test_two_cloud_instances_rent_at_twice_the_rate(catalog):
    one, two = BuildEntry(name="p5", cloud_id="aws-p5.48xlarge"), BuildEntry(name="2 p5", cloud_id="aws-p5.48xlarge", nodes=2)
    r1, r2 = resolve_entry(catalog, one), resolve_entry(catalog, two)
    assert (r2.nodes, r2.gpu_count) == (2, 16)
    m1, m2 = money(catalog, one, r1), money(catalog, two, r2)
    assert m2["usd_per_hour"] == pytest.approx(2 * m1["usd_per_hour"]) and "2 instances" in m2["price_note"]


def test_a_desktop_pair_gets_a_named_card_and_says_when_it_has_none(catalog):
    bare = BuildEntry(name="2 desks", build_id="2x-rtx-4090-pcie-x16", nodes=2)
    r = evaluate_build(catalog, catalog.models["llama-3.1-8b"], PlannedJob(mode="train", method="lora"), bare)
    assert any("network card" in w for w in r.warnings)
    linked = bare.model_copy(update={"nic_id": "nvidia-connectx-7-100gbe-roce"})
    assert resolve_entry(catalog, linked).network.nic.id == "nvidia-connectx-7-100gbe-roce"
    r = evaluate_build(catalog, catalog.models["llama-3.1-8b"], PlannedJob(mode="train", method="lora"), linked)
    assert not any("network card" in w for w in r.warnings) and r.chosen.plan.n_gpus == 4


def test_training_searches_try_one_to_four_machines_of_systems_and_instances(catalog):
    from advisor.core.advice.candidates import Where, catalog_candidates
    from advisor.core.advice.catalog_search import ModelJob, SearchRequest, search

    cands = catalog_candidates(catalog, where=Where.ANY, max_nodes=4)
    p5 = {c.build.nodes: c for c in cands if c.entry.cloud_id == "aws-p5.48xlarge"}
    assert sorted(p5) == [1, 2, 3, 4] and p5[4].price_usd == pytest.approx(4 * p5[1].price_usd)
    assert p5[4].entry.nodes == 4 and "AWS EFA" in p5[4].notes[-1]
    dgx = [c for c in cands if c.entry.system_id == "nvidia-dgx-h100"]
    assert sorted(c.build.nodes for c in dgx) == [1, 2, 3, 4]
    assert not [c for c in cands if c.kind in ("gpus", "build") and c.build.nodes > 1]  # desktops: no card named
    assert all(c.build.nodes == 1 for c in catalog_candidates(catalog, where=Where.ANY))
    arch = catalog.models["llama-3.1-70b"]
    train = PlannedJob(mode="train", method="full", dataset_tokens=10**9)
    found = search(catalog, (ModelJob(arch=arch, job=train),), SearchRequest(where=Where.CLOUD))
    assert any(f.candidate.build.nodes == 4 for f in found.ranked)
    serve = search(catalog, (ModelJob(arch=arch, job=PlannedJob()),), SearchRequest(where=Where.CLOUD))
    assert all(f.candidate.build.nodes == 1 for f in serve.ranked)
