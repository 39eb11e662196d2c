"""How an estimate divides the model over its GPUs and what it looks up once (``speed.layout``; named apart from
the hardware layout's tests)."""

import pytest

from advisor.core.hardware.allreduce import CUSTOM_ALL_REDUCE_MAX_BYTES, custom_all_reduce_seconds
from advisor.core.hardware.interconnect import collective_time_s
from advisor.core.hardware.records import ResolvedBuild, Topology
from advisor.core.job.choices import Engine
from advisor.core.job.planned import PlannedJob
from advisor.core.speed.layout import Split, all_known, one_shot_all_reduce, run_of, split_of
from tests.core.speed.speed_fixtures import hgx_h100, llama2_7b, pair_3090_nvlink, pair_4090_pcie, rtx4090


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


def _pcie(n: int, p2p: bool) -> ResolvedBuild:
    card = rtx4090().model_copy(update={"p2p_supported": p2p})
    return ResolvedBuild(name=f"{n} cards", gpus=tuple(card for _ in range(n)), topology=Topology(p2p=p2p))


@pytest.mark.parametrize(("engine", "build", "n", "own"), [
    ("vllm", pair_3090_nvlink(), 2, True),  # peer access over the bridge
    ("vllm", pair_4090_pcie(), 2, False),  # no P2P: NCCL through host memory
    ("vllm", _pcie(2, True), 2, True),  # two PCIe cards with P2P
    ("vllm", _pcie(4, True), 4, False),  # "not supported on more than two PCIe-only GPUs"
    ("vllm", hgx_h100(8), 8, True),  # NVLink between every pair
    ("vllm", hgx_h100(8), 3, False),  # world sizes 2, 4, 6, 8 only
    ("sglang", hgx_h100(8), 4, True),
    ("tensorrt-llm", _pcie(2, True), 2, False),  # its automatic choice wants NVLink
    ("tensorrt-llm", pair_3090_nvlink(), 2, True),
    ("transformers", hgx_h100(8), 8, False),  # torch.distributed: NCCL
    ("deepspeed", hgx_h100(8), 8, False),
])
def test_which_engine_reduces_with_its_own_kernel_on_which_gpus(engine, build, n, own):
    assert one_shot_all_reduce(Engine(engine), build, n) is own


def test_tensor_parallel_all_reduces_take_the_engines_kernel_only_under_its_size_limit():
    a, build = llama2_7b(), hgx_h100(8)
    for engine, small_own in (("vllm", True), ("deepspeed", False)):
        r = run_of(a, PlannedJob(engine=engine, n_gpus=8, parallel="tp"), build)
        small, big = a.hidden_size * 2, CUSTOM_ALL_REDUCE_MAX_BYTES
        one_shot = 2 * a.n_layers * custom_all_reduce_seconds(8, small, r.ring.duplex_gb_per_s)
        assert (r.tp_all_reduces(a, Engine(engine), small, 8) == pytest.approx(one_shot)) is small_own
        assert r.own_all_reduce(8, small) is small_own and not r.own_all_reduce(8, big)
        assert not r.own_all_reduce(4, small)  # a part of the GPUs used: not the group the engine's kernel joined
        assert r.tp_all_reduces(a, Engine(engine), big, 8) == pytest.approx(
            2 * a.n_layers * collective_time_s(build, "all_reduce", big, 8))


def test_the_pairs_links_are_kept_per_build_object():
    # a plan search builds a Run per plan it times: the pairs' link kinds are looked up once per build object
    from advisor.core.hardware.interconnect import LinkKind
    from advisor.core.speed.layout import pair_kinds

    bridged, plain = pair_3090_nvlink(), pair_4090_pcie()
    assert pair_kinds(bridged, 2) == {LinkKind.NVLINK} and pair_kinds(bridged, 2) is pair_kinds(bridged, 2)
    assert pair_kinds(plain, 2) == {LinkKind.PCIE_HOST}
    assert pair_kinds(hgx_h100(8), 8) == {LinkKind.NVSWITCH}


def test_the_engines_own_all_reduce_can_be_turned_off():
    # --no-custom-all-reduce (vLLM --disable-custom-all-reduce): NCCL adds the results even where the links allow it
    a, build = llama2_7b(), pair_3090_nvlink()
    on = run_of(a, PlannedJob(engine="vllm", n_gpus=2, parallel="tp"), build)
    off = run_of(a, PlannedJob(engine="vllm", n_gpus=2, parallel="tp", custom_all_reduce=False), build)
    assert on.one_shot and not off.one_shot
    small = a.hidden_size * 2
    assert off.tp_all_reduces(a, Engine.VLLM, small, 2) == pytest.approx(
        2 * a.n_layers * collective_time_s(build, "all_reduce", small, 2))
    # on where the links do not allow it: still NCCL
    assert not run_of(a, PlannedJob(engine="vllm", n_gpus=2, parallel="tp", custom_all_reduce=True),
                      pair_4090_pcie()).one_shot
