"""How much of its datasheet tensor peak each card's matmuls reach, measured: one table, read by
``flops.matmul_share`` (inference) and ``flops.train_matmul_factor`` (training)."""

from __future__ import annotations

#: Maximum achievable matmul FLOP/s (MAMF), TFLOP/s, dense, by catalog GPU id and input precision
#: ("16": BF16, "8": FP8 e4m3): the best of a brute-force search over GEMM shapes with PyTorch,
#: mean of 100 iterations (stas00/ml-engineering compute/accelerator/README.md, "Maximum Achievable
#: Matmul FLOPS comparison table", commit 744d01e18b79512572f64a6bbd8b5f4a725203a7). Cards reach
#: different shares of their datasheet peak (A100 SXM 271.2 of 312 = 86.9 %; H100 SXM 794.5 of 989 =
#: 80.3 %, FP8 1402.6 of 1979 = 70.9 %), so one per-engine compute share (``engine_speed``), fitted on
#: some cards, over- or under-states the others by that ratio. The table's rows map to catalog ids as
#: named there: 'A100 SXM' (both SXM4 memory sizes), 'A100 PCIe' (both PCIe sizes), 'H100 SXM', 'H200
#: SXM' (BF16: 'H200 is the same' as H100 SXM; FP8 its own row), B200, B300, MI300X, MI325X, MI355X.
MATMUL_ACHIEVABLE_TFLOPS: dict[tuple[str, str], float] = {
    ("a100-80gb-sxm", "16"): 271.2, ("a100-40gb-sxm", "16"): 271.2,
    ("a100-80gb-pcie", "16"): 252.9, ("a100-40gb-pcie", "16"): 252.9,
    ("h100-sxm", "16"): 794.5, ("h200-sxm", "16"): 794.5,
    ("h100-sxm", "8"): 1402.6, ("h200-sxm", "8"): 1453.4,
    ("b200", "16"): 1745.0, ("b200", "8"): 3432.5, ("b300", "16"): 1769.0, ("b300", "8"): 3353.3,
    ("mi300x", "16"): 668.4, ("mi325x", "16"): 784.9, ("mi355x", "16"): 1565.0,
    # RDNA 3 (gfx1100), whose datasheet peak counts dual-issue WMMA: the best BF16 torch.mm of square matrices 1,024
    # to 10,240 wide, 30 iterations after 6 warm-ups (zzc0721/torch-performance-test-data test.py at 17b02a91; the
    # method reads 246-265 on an A100 and 758-790 on an H100 in the same table, within 3 % of the rows above):
    # RX 7900 XT 83.18 of 103.0 (80.8 %, database.md at 07858687, ROCm 7.0, PyTorch 2.8), RX 7900 XTX 88.09 of
    # 122.8 (71.7 %; issue #103 of that repository, 2026-01-03, ROCm 7.1, PyTorch 2.10). So gfx1100's GEMMs reach
    # about the share NVIDIA's do: its slower training is not in its matmuls (``TRAIN_MFU_RELATIVE``).
    ("rx-7900-xt", "16"): 83.18, ("rx-7900-xtx", "16"): 88.09,
    # NVIDIA cards the first table lacks, by the same repository's method and table (database.md at 9d828276,
    # 2026-01-12): the median of a card's desktop or server rows (laptops, 48 GB conversions and an overclocked row
    # left out) of the BF16 column, or of FP16 on chips without BF16 units (Turing, Volta), leaving out a row whose
    # BF16 reads under half its FP16 (one RTX 3080's 24.94 against 53.41: a slow BF16 path, not the card). A chip's
    # boards share a row (the RTX 5060 Ti and 4060 Ti 8 and 16 GB; the V100 SXM2 16 GB row for the 32 GB). GeForce
    # cards run above their datasheet's boost clock and reach their peak or more (RTX 3090 76.58 of 71.2, RTX 4090
    # 165.26 of 165.2, RTX 5090 238.04 of 209.5: ``flops.matmul_share`` caps a card at its peak); power-capped
    # inference cards fall well short of theirs (T4 41.93 of 65.0, L4 70.89 of 121.0, L40S 269.15 of 362.05, H100
    # PCIe 495.93 of 756.5).
    ("t4", "16"): 41.93, ("v100-sxm2-32gb", "16"): 94.84, ("h100-pcie", "16"): 495.93, ("h20", "16"): 142.06,
    ("l4", "16"): 70.89, ("l40s", "16"): 269.15, ("rtx-a4000", "16"): 62.78, ("rtx-a6000", "16"): 123.34,
    ("rtx-pro-6000-blackwell", "16"): 417.98, ("rtx-pro-6000-blackwell-server", "16"): 409.42,
    ("rtx-3070", "16"): 41.44, ("rtx-3080", "16"): 64.68, ("rtx-3080-ti", "16"): 77.41, ("rtx-3090", "16"): 76.58,
    ("rtx-4060-ti-8gb", "16"): 42.65, ("rtx-4060-ti-16gb", "16"): 42.65, ("rtx-4070-super", "16"): 74.87,
    ("rtx-4070-ti-super", "16"): 91.05, ("rtx-4090", "16"): 165.26, ("rtx-5060-ti-8gb", "16"): 48.24,
    ("rtx-5060-ti-16gb", "16"): 48.24, ("rtx-5070", "16"): 67.19, ("rtx-5070-ti", "16"): 99.06,
    ("rtx-5080", "16"): 102.89, ("rtx-5090", "16"): 238.04,
}
#: The share a card missing from that table is taken to reach: the median of the table's NVIDIA BF16
#: rows (A100 SXM 86.9, GH200 83.8, A100 PCIe 81.1, H100 SXM 80.3, B300 78.6, B200 77.6, GB200 72.9 %).
#: The engines' compute shares are relative to a card at this share, so a card missing from the
#: table keeps the engine's share of its datasheet peak.
TYPICAL_MATMUL_SHARE = 0.803
