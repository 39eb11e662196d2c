"""How an estimate divides the model over its GPUs and what it looks up once (``speed.layout``; named apart from
the hardware layout's tests)."""

import pytest

from advisor.core.hardware.records import ResolvedBuild
from advisor.core.job.planned import PlannedJob
from advisor.core.speed.layout import Split, all_known, run_of, split_of
from tests.core.speed.speed_fixtures import llama2_7b, pair_4090_pcie, rtx4090


@pytest.mark.parametrize(("job", "split"), [
    (dict(), Split()),
    (dict(n_gpus=4, parallel="tp"), Split(tp=4)),
    (dict(n_gpus=4, parallel="pp"), Split(stages=4)),
    (dict(n_gpus=4, parallel="layer-split"), Split(stages=4)),
    (dict(n_gpus=8, parallel="fsdp", tp=2), Split(tp=2, replicas=4)),
    (dict(n_gpus=6, parallel="fsdp", tp=4), Split(replicas=6)),  # tp does not divide the GPUs: plain data parallel
    (dict(n_gpus=4, parallel="ddp"), Split(replicas=4)),
])
def test_split_of(job, split):
    assert split_of(PlannedJob(**job)) == split


def test_all_known_is_all_or_nothing():
    assert all_known((1.0, 2.0)) == (1.0, 2.0)
    assert all_known((1.0, None)) is None
    assert all_known(()) == ()


def test_a_run_knows_its_figures_only_when_every_gpu_has_them():
    job = PlannedJob(n_gpus=2, parallel="tp")
    r = run_of(llama2_7b(), job, pair_4090_pcie())
    assert r.known_bws() == r.bws and None not in r.bws and len(r.bws) == 2
    unknown = rtx4090().model_copy(update={"mem_bandwidth_gb_per_s": None})
    half = ResolvedBuild(name="?", gpus=(rtx4090(), unknown), topology=pair_4090_pcie().topology)
    assert run_of(llama2_7b(), job, half).known_bws() is None
    assert run_of(llama2_7b(), job, half).known_peaks() is not None
