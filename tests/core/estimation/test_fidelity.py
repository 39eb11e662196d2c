"""Pins the memory estimator's error on trusted published measurements (benchmarks/fidelity.py).

Every trusted row that can be scored is pinned: its absolute % error must stay within its
bound (the error when pinned, rounded up, plus about two points), so a change that makes a
trusted comparison worse fails here. Rows with a known modelling gap (``fidelity.KNOWN_GAPS``,
each with its reason) are pinned in ``GAP_PINNED`` — they include the rows scored with a
framework mechanism mapped by the benchmark — the others in ``PINNED``. See the "Fidelity"
section of benchmarks/README.md.
"""

import statistics

import pytest

from tests.benchmark_scripts import load_benchmark

fidelity = load_benchmark("fidelity")

ROWS = {row["id"]: row for row in fidelity.load_rows()}

# row id → largest allowed absolute error in % (error when pinned, rounded up, plus ~2 points).
PINNED = {
    "gguf-gemma-2-27b-q8_0-file": 3, "gguf-l31-70b-q4_0-size": 3, "gguf-mistral-7b-v02-q5_k_m-size": 3,
    "gguf-mixtral-8x7b-instruct-q4_k_m-file": 8, "gguf-mixtral-8x7b-q2_k-file": 12,
    "gguf-mixtral-8x7b-q3_k_m-file": 13, "h100dev-decode-1b-b1-alloc": 3, "h100dev-decode-1b-b1-smi": 22,
    "h100dev-decode-8b-b1-alloc": 3, "h100dev-decode-8b-b1-p4096-alloc": 3, "h100dev-decode-8b-b1-p4096-smi": 6,
    "h100dev-decode-8b-b1-smi": 5, "h100dev-decode-8b-b32-alloc": 10, "h100dev-decode-8b-b32-smi": 8,
    "h100dev-decode-8b-b8-alloc": 4, "h100dev-decode-8b-b8-smi": 3, "h100dev-full-1b-alloc": 3,
    "h100dev-full-1b-ckpt-alloc": 3, "h100dev-full-1b-ckpt-smi": 6, "h100dev-full-1b-smi": 13,
    "h100dev-lora-8b-alloc": 9, "h100dev-lora-8b-ckpt-alloc": 4, "h100dev-lora-8b-ckpt-smi": 7,
    "h100dev-lora-8b-smi": 8, "h100dev-prefill-8b-p2048-alloc": 3, "h100dev-prefill-8b-p2048-smi": 5,
    "h100dev-prefill-8b-p8192-alloc": 3, "h100dev-prefill-8b-p8192-smi": 7, "h42d-atorch-l2-7b-full-fsdp16": 50,
    "h42d-atorch-l2-7b-full-fsdp32": 54, "h42d-atorch-l2-7b-full-fsdp64": 57, "h42d-atorch-l2-7b-full-fsdp8": 42,
    "h42d-atorch-l2-7b-lora-fsdp16": 57, "h42d-atorch-l2-7b-lora-fsdp32": 58, "h42d-atorch-l2-7b-lora-fsdp64": 59,
    "h42d-atorch-l2-7b-lora-fsdp8": 54, "h42d-fms-l2-70b-qlora-2gpu-b2": 26, "h42d-fms-mistral7b-full-1gpu-b4": 3,
    "h42d-fms-mistral7b-full-1gpu-b8": 3, "h42d-fms-mistral7b-full-2gpu-b2": 3, "h42d-fms-mistral7b-full-2gpu-b4": 3,
    "h42d-fms-mistral7b-lora-1gpu-b4": 3, "h42d-fms-mistral7b-lora-1gpu-b8": 3, "h42d-fms-mistral7b-lora-2gpu-b2": 9,
    "h42d-fms-mistral7b-lora-2gpu-b4": 11, "h42d-fms-mistral7b-qlora-1gpu-b4": 23,
    "h42d-fms-mistral7b-qlora-1gpu-b8": 26, "h42d-fms-mistral7b-qlora-2gpu-b2": 12,
    "h42d-fms-mistral7b-qlora-2gpu-b4": 12, "h42d-fms-mixtral-lora-2gpu-b2": 5, "h42d-fms-mixtral-lora-2gpu-b4": 4,
    "h42d-fms-mixtral-qlora-1gpu-b4": 13, "h42d-fms-mixtral-qlora-1gpu-b8": 17, "h42d-fms-mixtral-qlora-2gpu-b2": 5,
    "h42d-fms-mixtral-qlora-2gpu-b4": 5, "h42q-fms0527-mistral7b-full-1gpu-b4": 3,
    "h42q-fms0527-mistral7b-full-1gpu-b8": 3, "h42q-fms0527-mistral7b-full-2gpu-b2": 4,
    "h42q-fms0527-mistral7b-full-2gpu-b4": 4, "h42q-fms0527-mistral7b-lora-1gpu-b4": 4,
    "h42q-fms0527-mistral7b-lora-1gpu-b8": 6, "h42q-fms0527-mistral7b-lora-2gpu-b2": 9,
    "h42q-fms0527-mistral7b-lora-2gpu-b4": 9, "h42q-fms0527-mixtral8x7b-lora-2gpu-b2": 5,
    "h42q-fms0527-mixtral8x7b-lora-2gpu-b4": 5, "h42q-stas-l31-8b-zero2-noac-noliger-b200-s8k": 6,
    "h42q-stas-l31-8b-zero2-noac-noliger-h200-s8k": 6, "h43d-fms0601-mixtral8x7b-lora-2gpu-b2": 5,
    "h43d-fms0601-mixtral8x7b-lora-2gpu-b4": 5, "h43d-fms0607-mixtral8x7b-lora-2gpu-b2": 5,
    "h43d-fms0607-mixtral8x7b-lora-2gpu-b4": 5, "h43d-fms0712-llama2-70b-qlora-2gpu-b2": 26,
    "h43d-fms0712-mistral7b-full-1gpu-b4": 3, "h43d-fms0712-mistral7b-full-1gpu-b8": 3,
    "h43d-fms0712-mistral7b-full-2gpu-b2": 4, "h43d-fms0712-mistral7b-full-2gpu-b4": 4,
    "h43d-fms0712-mistral7b-lora-1gpu-b4": 4, "h43d-fms0712-mistral7b-lora-1gpu-b8": 6,
    "h43d-fms0712-mistral7b-lora-2gpu-b2": 11, "h43d-fms0712-mistral7b-lora-2gpu-b4": 12,
    "h43d-fms0712-mistral7b-qlora-1gpu-b4": 29, "h43d-fms0712-mistral7b-qlora-1gpu-b8": 31,
    "h43d-fms0712-mistral7b-qlora-2gpu-b2": 18, "h43d-fms0712-mistral7b-qlora-2gpu-b4": 16,
    "h43d-fms0712-mixtral8x7b-lora-2gpu-b2": 5, "h43d-fms0712-mixtral8x7b-lora-2gpu-b4": 4,
    "h43d-fms0712-mixtral8x7b-qlora-1gpu-b4": 19, "h43d-fms0712-mixtral8x7b-qlora-1gpu-b8": 24,
    "h43d-fms0712-mixtral8x7b-qlora-2gpu-b2": 8, "h43d-fms0712-mixtral8x7b-qlora-2gpu-b4": 8,
    "h43d-fms0916-llama2-70b-qlora-2gpu-b2": 26, "h43d-fms0916-llama2-70b-qlora-2gpu-b4": 32,
    "h43d-fms0916-mistral7b-full-1gpu-b4": 3, "h43d-fms0916-mistral7b-full-1gpu-b8": 3,
    "h43d-fms0916-mistral7b-lora-1gpu-b4": 6, "h43d-fms0916-mistral7b-lora-1gpu-b8": 7,
    "h43d-fms0916-mistral7b-lora-2gpu-b2": 8, "h43d-fms0916-mistral7b-lora-2gpu-b4": 9,
    "h43d-fms0916-mistral7b-qlora-1gpu-b4": 23, "h43d-fms0916-mistral7b-qlora-1gpu-b8": 26,
    "h43d-fms0916-mistral7b-qlora-2gpu-b2": 13, "h43d-fms0916-mistral7b-qlora-2gpu-b4": 13,
    "h43d-fms0916-mixtral8x7b-lora-2gpu-b2": 5, "h43d-fms0916-mixtral8x7b-lora-2gpu-b4": 4,
    "h43d-fms0916-mixtral8x7b-qlora-1gpu-b4": 15, "h43d-fms0916-mixtral8x7b-qlora-1gpu-b8": 19,
    "h43d-fms0916-mixtral8x7b-qlora-2gpu-b2": 8, "h43d-fms0916-mixtral8x7b-qlora-2gpu-b4": 8,
    "h43d-fms1013-llama2-70b-qlora-2gpu-b2": 26, "h43d-fms1013-mistral7b-full-2gpu-b2": 3,
    "h43d-fms1013-mistral7b-full-2gpu-b4": 3, "h43d-fms1013-mistral7b-lora-1gpu-b4": 6,
    "h43d-fms1013-mistral7b-lora-1gpu-b8": 8, "h43d-fms1013-mistral7b-lora-2gpu-b2": 10,
    "h43d-fms1013-mistral7b-lora-2gpu-b4": 12, "h43d-fms1013-mixtral8x7b-lora-2gpu-b2": 4,
    "h43d-fms1013-mixtral8x7b-lora-2gpu-b4": 3, "h43d-fms1013-mixtral8x7b-qlora-1gpu-b4": 15,
    "h43d-fms1013-mixtral8x7b-qlora-1gpu-b8": 19, "h43d-fms1013-mixtral8x7b-qlora-2gpu-b2": 8,
    "h43d-fms1013-mixtral8x7b-qlora-2gpu-b4": 8, "h43d-fms1110-mixtral8x7b-lora-2gpu-b2": 4,
    "h43d-fms1110-mixtral8x7b-lora-2gpu-b4": 3, "h43d-fms1110-mixtral8x7b-qlora-1gpu-b4": 15,
    "h43d-fms1110-mixtral8x7b-qlora-1gpu-b8": 19, "h43d-fms1110-mixtral8x7b-qlora-2gpu-b2": 8,
    "h43d-fms1110-mixtral8x7b-qlora-2gpu-b4": 8, "h43e-titan355-l3-8b-fsdp8-sac-foreach": 26,
    "h43e-titan355-l3-8b-fsdp8-sac-fused": 26, "h43e-titan822-l3-8b-fsdp8-sac-reshard-always": 10,
    "h43e-titan822-l3-8b-fsdp8-sac-reshard-default": 10, "h43e-titan822-l3-8b-fsdp8-sac-reshard-never": 7,
    "h44a-halotrl-qwen3-30b-a3b-fsdp8-16k-b1": 11, "h44a-halotrl-qwen3-30b-a3b-fsdp8-32k-b1": 12,
    "h44a-halotrl-qwen3-30b-a3b-fsdp8-4k-b1": 9, "h44a-halotrl-qwen3-30b-a3b-fsdp8-64k-b1": 5,
    "h44a-oteltt-qwen25-0.5b-lora-r16-mi355x-8xfsdp-alloc": 8,
    "h44a-oteltt-qwen25-0.5b-lora-r16-mi355x-8xfsdp-reserved": 17,
    "h45a-lambda405-l31-405b-full-64xh100-offload-alloc": 31,
    "h45a-lambda405-l31-405b-full-64xh100-offload-reserved": 48, "h46a-aopretrain-l3-8b-fsdp8-bf16-compile": 36,
    "h47c-oteltitan-qwen3-8b-8xmi355x-fsdp8-reserved": 13, "h49b-otelfoundry-qwen3-0.6b-full-1xh100-reserved": 26,
    "h49b-otelfoundry-qwen3-0.6b-full-1xmi355x-reserved": 26,
    "h49b-otelfoundry-qwen3-0.6b-full-8xmi355x-fsdp-reserved": 32,
    "h49b-otelfoundry-qwen3-0.6b-full-8xmi355x-noshard-reserved": 31,
    "h51b-unslothnb-tinyllama-qlora-r32-t4-4k-b2": 14, "h52c-xkong-s10-qwen7b-shape-full-z1-4xa100sxm-allocated": 3,
    "h52c-xkong-s10-qwen7b-shape-full-z1-4xa100sxm-reserved": 16,
    "h52c-xkong-s10-qwen7b-shape-full-z2-4xa100sxm-allocated": 21,
    "h52c-xkong-s10-qwen7b-shape-full-z2-4xa100sxm-reserved": 27,
    "h52c-xkong-s10-qwen7b-shape-full-z3-2xa100sxm-allocated": 6,
    "h52c-xkong-s10-qwen7b-shape-full-z3-2xa100sxm-reserved": 7,
    "h52c-xkong-s10-qwen7b-shape-full-z3-4xa100sxm-allocated": 13,
    "h52c-xkong-s10-qwen7b-shape-full-z3-4xa100sxm-reserved": 34, "h54a-gx10-l31-8b-full-1xgb10": 6,
    "h54a-gx10-l31-8b-lora-r16-1xgb10": 31, "h54b-chenhy-q25-3b-lora-r32-ckpt-b2s256-rx7900xtx-alloc": 11,
    "h54b-chenhy-q25-3b-lora-r32-nockpt-b2s256-rx7900xtx-alloc": 21, "h54b-helian-exp02-a2v1-train-bf16": 3,
    "h54b-helian-exp02-a2v1-train-fp16": 3, "h54b-helian-exp02-a2v1-train-fp32-reference": 3,
    "h54b-helian-exp02-a2v1-train-tf32": 3, "h54b-helian-exp02-a2v2-ddp-bf16": 19,
    "h54b-helian-exp02-a2v2-ddp-fp16": 19, "h54b-helian-exp02-a2v2-ddp-fp32-reference": 19,
    "h54b-helian-exp03-a1-mb1-acc8-global8": 12, "h54b-helian-exp03-a1-mb2-acc4-global8": 23,
    "h54b-helian-exp03-a1-mb4-acc2-global8": 21, "h54b-helian-exp03-a1-mb8-acc1-global8": 14,
    "h54b-helian-exp04-a1-hf-gradient-checkpointing-seq2048": 3,
    "h54b-helian-exp04-a1-hf-gradient-checkpointing-seq4096": 8, "h54b-helian-exp04-a1-no-checkpointing-seq2048": 10,
    "h54b-helian-exp04-a1-no-checkpointing-seq4096": 12, "h54b-helian-exp07-a2v1-one-rank-fixed-local": 3,
    "h54b-helian-exp07-a2v2-two-rank-fixed-local": 19, "h54b-helian-exp07-a2v2-two-rank-no-sync-accumulation": 26,
    "h54b-helian-exp08-a2v2-ddp-replicated-baseline": 19, "h54c-ndvp-tinyllama-nf4-t4-load-weights": 7,
    "h55b-gsleeds-l3-8b-lora-r16-l40s-b2-reserved": 11, "h55b-ttcsc-l32-1b-lora-r64-a100-40gb-b6-alloc": 7,
    "h55b-ttcsc-l32-1b-lora-r64-a100-40gb-b6-reserved": 6, "h55d-mi210asm-vllm-qwen3-14b-bf16-weights": 3,
    "h55d-mi210stack-vllm-awq-tp1-weights": 3, "h57a-osgpu-l31-8b-qlora-r32-rtx6000ada-b1-cheap-log1-alloc": 6,
    "h57a-osgpu-l31-8b-qlora-r32-rtx6000ada-b1-cheap-log2-alloc": 6,
    "h57a-osgpu-l31-8b-qlora-r32-rtx6000ada-b1-cheap-log3-alloc": 6,
    "h57a-osgpu-l31-8b-qlora-r32-rtx6000ada-b1-cheap-log4-alloc": 6,
    "h57a-osgpu-l31-8b-qlora-r32-rtx6000ada-b1-cheap-log5-alloc": 6,
    "h57a-osgpu-l31-8b-qlora-r32-rtxpro6000s-b1-expensive-log1-alloc": 6,
    "h57a-osgpu-l31-8b-qlora-r32-rtxpro6000s-b1-expensive-log2-alloc": 6,
    "h57a-osgpu-l31-8b-qlora-r32-rtxpro6000s-b1-expensive-log3-alloc": 6,
    "h57a-osgpu-l31-8b-qlora-r32-rtxpro6000s-b1-expensive-log4-alloc": 6,
    "h57a-osgpu-l31-8b-qlora-r32-rtxpro6000s-b1-expensive-log5-alloc": 6,
    "h57a-osgpu-l31-8b-qlora-r64-rtx6000adax2-fsdp-b1-cheap-log1-alloc": 19,
    "h57a-osgpu-l31-8b-qlora-r64-rtx6000adax2-fsdp-b1-cheap-log2-alloc": 19,
    "h57a-osgpu-l31-8b-qlora-r64-rtx6000adax2-fsdp-b1-cheap-log3-alloc": 19,
    "h57a-osgpu-l31-8b-qlora-r64-rtx6000adax2-fsdp-b1-cheap-log4-alloc": 19,
    "h57a-osgpu-l31-8b-qlora-r64-rtx6000adax2-fsdp-b1-cheap-log5-alloc": 19,
    "h57a-osgpu-l31-8b-qlora-r64-rtxpro6000s-b2-expensive-log1-alloc": 7,
    "h57a-osgpu-l31-8b-qlora-r64-rtxpro6000s-b2-expensive-log2-alloc": 7,
    "h57a-osgpu-l31-8b-qlora-r64-rtxpro6000s-b2-expensive-log3-alloc": 7,
    "h57a-osgpu-l31-8b-qlora-r64-rtxpro6000s-b2-expensive-log4-alloc": 7,
    "h57a-osgpu-l31-8b-qlora-r64-rtxpro6000s-b2-expensive-log5-alloc": 7,
    "h58a-haloliger-qwen3-8b-b300-full-s16k-noliger": 5, "h58b-sdr-l31-8b-full-fsdp4-b32-4k-active": 24,
    "h61f-fitcheck-final-l1b-qr16-b1-s1024-eager": 11, "h61f-fitcheck-final-l1b-qr16-b1-s1024-sdpa": 5,
    "h61f-fitcheck-final-l3b-qr16-b1-s1024-eager": 7, "h61f-fitcheck-final-l3b-qr16-b1-s1024-sdpa": 3,
    "h61f-fitcheck-final-q15c-qr16-b1-s1024-eager": 3, "h61f-fitcheck-final-q15c-qr16-b1-s1024-sdpa": 6,
    "h61f-fitcheck-final-q7-qr16-b1-s1024-eager": 7, "h61f-fitcheck-final-q7-qr16-b1-s1024-sdpa": 4,
    "h61f-fitcheck-p3-q15-lr32-b1-s2048-eager": 5, "h61f-fitcheck-p3-q15-lr32-b1-s2048-sdpa": 9,
    "h61f-fitcheck-p3-q15-qr32-b1-s2048-eager": 6, "h61f-fitcheck-p3-q15-qr32-b1-s2048-sdpa": 7,
    "h61f-fitcheck-p3-tinyllama-qr32-b1-s1024-eager": 15, "h61f-fitcheck-p3-tinyllama-qr32-b1-s1024-sdpa": 7,
    "h61f-fitcheck-p3-tinyllama-qr32-b12-s1024-sdpa": 11, "h61f-fitcheck-p3-tinyllama-qr32-b2-s1024-eager": 21,
    "h61f-fitcheck-p3-tinyllama-qr32-b2-s1024-sdpa": 8, "h61f-fitcheck-p3-tinyllama-qr32-b4-s1024-eager": 26,
    "h61f-fitcheck-p3-tinyllama-qr32-b4-s1024-sdpa": 9, "h61f-fitcheck-p3-tinyllama-qr32-b8-s1024-eager": 30,
    "h61f-fitcheck-p3-tinyllama-qr32-b8-s1024-sdpa": 10, "h61f-fitcheck-readme-q05-lr32-b2-s512-eager-nockpt": 14,
    "h61f-fitcheck-readme-q05-lr32-b2-s512-sdpa-nockpt": 18,
    "h61f-fitcheck-readme-q15r-lr32-b1-s512-eager-nockpt": 12,
    "h61f-fitcheck-readme-q15r-lr32-b1-s512-sdpa-nockpt": 12, "h61f-fitcheck-sweep-q15-lr32-b2-s1024-eager": 7,
    "h61f-fitcheck-sweep-q15-lr32-b2-s1024-sdpa": 9, "h61f-fitcheck-sweep-q15-qr32-b2-s1024-eager": 3,
    "h61f-fitcheck-sweep-q15-qr32-b2-s1024-sdpa": 7, "h61f-fitcheck-sweep-tinyllama-lr32-b2-s1024-eager": 6,
    "h61f-fitcheck-sweep-tinyllama-lr32-b2-s1024-sdpa": 3, "h61f-fitcheck-sweep-tinyllama-lr32-b2-s2048-eager": 14,
    "h61f-fitcheck-sweep-tinyllama-lr32-b2-s2048-sdpa": 3, "h61f-fitcheck-sweep-tinyllama-lr32-b2-s512-eager": 3,
    "h61f-fitcheck-sweep-tinyllama-lr32-b2-s512-sdpa": 3, "h61f-fitcheck-sweep-tinyllama-qr32-b2-s1024-eager": 21,
    "h61f-fitcheck-sweep-tinyllama-qr32-b2-s1024-sdpa": 8, "h61f-fitcheck-sweep-tinyllama-qr32-b2-s2048-eager": 11,
    "h61f-fitcheck-sweep-tinyllama-qr32-b2-s2048-sdpa": 9, "h61f-fitcheck-sweep-tinyllama-qr32-b2-s512-eager": 15,
    "h61f-fitcheck-sweep-tinyllama-qr32-b2-s512-sdpa": 7, "h61f-fitcheck-verdicts-l1b-qr16-b5-s1024-sdpa-process": 5,
    "h61f-fitcheck-verdicts-l3b-qr16-b4-s1024-sdpa-process": 3,
    "h61f-fitcheck-verdicts-q15c-qr16-b4-s1024-sdpa-process": 5,
    "h61f-fitcheck-verdicts-q7-qr16-b1-s1024-sdpa-process": 13, "hf-octocoder-4bit": 10, "hf-octocoder-bf16": 3,
    "hf-octocoder-int8": 6, "litgpt-codellama-34b-inf-nf4": 4, "litgpt-codellama-34b-inf-nf4dq": 5,
    "litgpt-falcon-40b-inf-nf4": 10, "litgpt-falcon-40b-inf-nf4dq": 11, "litgpt-l2-13b-inf-bf16": 3,
    "litgpt-l2-13b-inf-nf4": 6, "litgpt-l2-13b-inf-nf4dq": 7, "litgpt-l2-13b-lora-4xa100-mb1": 6,
    "litgpt-l2-13b-lora-mb1": 3, "litgpt-l2-13b-qlora-dq-mb1": 3, "litgpt-l2-13b-qlora-mb1": 3,
    "litgpt-l2-70b-inf-nf4dq": 3, "litgpt-l2-7b-adapter-mb1": 3, "litgpt-l2-7b-adapter-nf4-mb1": 3,
    "litgpt-l2-7b-adapter-nf4dq-mb1": 3, "litgpt-l2-7b-adapterv2-mb1": 6, "litgpt-l2-7b-adapterv2-nf4-mb1": 6,
    "litgpt-l2-7b-adapterv2-nf4dq-mb1": 6, "litgpt-l2-7b-inf-bf16": 3, "litgpt-l2-7b-inf-nf4": 8,
    "litgpt-l2-7b-inf-nf4dq": 9, "litgpt-l2-7b-lora-2xa100-mb1": 6, "litgpt-l2-7b-lora-2xa100-mb2": 3,
    "litgpt-l2-7b-lora-2xa100-mb4": 7, "litgpt-l2-7b-lora-mb1": 3, "litgpt-l2-7b-lora-mb2": 3,
    "litgpt-l2-7b-qlora-dq-mb1": 3, "litgpt-l2-7b-qlora-mb1": 3, "litgpt-phi15-inf-bf16": 3,
    "litgpt-phi15-lora-2xa100-mb1": 6, "litgpt-phi15-lora-2xa100-mb2": 11, "litgpt-phi15-lora-2xa100-mb4": 17,
    "litgpt-phi15-lora-mb1": 4, "litgpt-phi15-lora-mb2": 4, "litgpt-phi15-lora-mb4": 4,
    "litgpt-phi15-qlora-dq-mb1": 6, "litgpt-phi15-qlora-mb1": 6, "litgpt-thunder-tinyllama-full-1xa100-eager": 5,
    "litgpt-thunder-tinyllama-full-8xa100-ddp-eager": 11, "litgpt-thunder-tinyllama-full-8xa100-fsdp-eager": 6,
    "litgpthub-gemma2-9b-qlora-a10g": 9, "litgpthub-l2-7b-lora-a10g": 3, "litgpthub-l2-7b-qlora-a10g": 13,
    "litgpthub-l32-1b-lora-a10g": 7, "litgpthub-l32-1b-qlora-a10g": 6, "litgpthub-l32-3b-lora-a10g": 5,
    "litgpthub-l32-3b-qlora-a10g": 10, "litgpthub-llama-3-8b-lora-a10g": 4, "litgpthub-llama-3-8b-qlora-a10g": 11,
    "litgpthub-llama-31-8b-lora-a10g": 4, "litgpthub-llama-31-8b-qlora-a10g": 11, "litgpthub-mistral-7b-lora-a10g": 3,
    "litgpthub-phi3-mini-lora-a10g": 4, "litgpthub-phi3-mini-qlora-a10g": 15,
    "llamacpp-qwen15-72b-q3km-2x3090-gpu0-weights": 3, "optimum-l2-13b-gen-b1-fp16": 8,
    "optimum-l2-13b-gen-b1-gptq": 19, "optimum-l2-13b-gen-b4-fp16": 14, "optimum-l2-13b-prefill-b1-fp16": 6,
    "optimum-l2-13b-prefill-b1-gptq": 14, "optimum-l2-13b-prefill-b16-fp16": 7, "optimum-l2-13b-prefill-b16-gptq": 13,
    "peft-l2-70b-qlora-zero3-2x40gb": 15, "qwen-qwen2-0.5b-in1-bf16": 16, "qwen-qwen2-0.5b-in30720-bf16": 3,
    "qwen-qwen2-1.5b-in1-bf16": 14, "qwen-qwen2-1.5b-in14336-bf16": 6, "qwen-qwen2-57b-a14b-in1-gptq": 4,
    "qwen-qwen2-72b-in1-awq": 7, "qwen-qwen2-72b-in1-gptq": 8, "qwen-qwen2-7b-in1-awq": 9,
    "qwen-qwen2-7b-in1-bf16": 5, "qwen-qwen2-7b-in1-gptq": 11, "qwen-qwen2-7b-in14336-bf16": 5,
    "qwen-qwen2-7b-in30720-awq": 5, "qwen-qwen2-7b-in30720-bf16": 4, "qwen-qwen2-7b-in6144-bf16": 5,
    "qwen-qwen3-30b-a3b-in1-bf16": 3, "qwen-qwen3-30b-a3b-in1-fp8": 4, "qwen-qwen3-30b-a3b-in30720-bf16": 5,
    "qwen-qwen3-32b-in1-awq": 3, "qwen-qwen3-32b-in1-bf16": 3, "qwen-qwen3-32b-in1-fp8": 3,
    "qwen-qwen3-32b-in30720-bf16": 10, "qwen-qwen3-8b-in1-awq": 4, "qwen-qwen3-8b-in1-bf16": 3,
    "qwen-qwen3-8b-in1-fp8": 4, "tt-l31-70b-full-8xa100-offload": 25, "tt-l31-8b-full-4090": 6,
    "tt-l32-3b-full-flags-packed": 7, "tt-l32-3b-full-flags-packed-compile-cce-ac": 12,
    "tt-l32-3b-full-flags-packed-compile-cce-ac-optbwd": 3,
    "tt-l32-3b-full-flags-packed-compile-cce-ac-optbwd-offload": 9, "tt-l32-3b-lora-flags-all": 6,
    "tt-l32-3b-qlora-flags-all": 11, "vllm-l3-8b-tp1-weights": 3, "vllm-l3-8b-tp2-weights": 3,
    "vllm-r1-qwen14b-tp2-4090-weights": 4,
}

GAP_PINNED = {
    "tt-l31-8b-qlora-4090": 15, "peft-l2-70b-qlora-fsdp-offload-2x24gb": 44, "titan-l31-8b-fsdp8-sac": 10,
    "titan-l31-8b-fsdp128-sac": 10, "optimum-l2-13b-gen-b16-fp16": 25, "optimum-l2-13b-gen-b16-gptq": 37,
    "qwen-qwen3-8b-in30720-bf16": 16, "qwen-qwen3-8b-in30720-awq": 23, "tt-l32-3b-full-flags-packed-compile": 14,
    "tt-l32-3b-full-flags-packed-compile-cce": 20,
}

KNOWN_GAPS = fidelity.KNOWN_GAPS


# Trusted rows that cannot be scored, and why (checked below).
UNSCORED = {
    "litgpt-stablelm3b-lora-2xa100-mb1": "no model preset",
    "litgpt-stablelm3b-lora-2xa100-mb2": "no model preset",
    "litgpt-stablelm3b-lora-2xa100-mb4": "no model preset",
    "litgpt-stablelm3b-lora-amp-mb1": "no model preset",
    "litgpt-stablelm3b-lora-mb1": "no model preset",
    "litgpt-stablelm3b-lora-mb2": "no model preset",
    "litgpt-stablelm3b-lora-mb4": "no model preset",
    "litgpt-stablelm3b-qlora-dq-mb1": "no model preset",
    "litgpt-stablelm3b-qlora-mb1": "no model preset",
    "vllm-l3-8b-tp1-budget": "context_len unknown",
    "titan-l31-8b-fsdp128-sac-compile": "a torchtitan build before its loss was compiled with the model",
    "qwen-qwen2-72b-in1-bf16": fidelity.SUMMED_SPLIT,
    "qwen-qwen2-72b-in30720-bf16": fidelity.SUMMED_SPLIT,
}
BOUNDS = {**PINNED, **GAP_PINNED}


@pytest.mark.parametrize("row_id", sorted(BOUNDS))
def test_trusted_row_error_within_pinned_bound(row_id):
    if row_id not in ROWS:
        pytest.skip(f"{row_id} no longer in the measurement table")
    outcome = fidelity.evaluate(ROWS[row_id])
    assert outcome.trusted
    assert outcome.estimate_bytes is not None, outcome.skipped
    assert outcome.error_pct <= BOUNDS[row_id], f"{row_id}: {outcome.error_pct:.1f} % > {BOUNDS[row_id]} %"


def test_every_trusted_row_is_pinned_or_says_why_not():
    trusted = {rid for rid, row in ROWS.items() if row["trusted"] == "yes"}
    assert trusted == set(BOUNDS) | set(UNSCORED)
    for rid, why in UNSCORED.items():
        assert why in fidelity.evaluate(ROWS[rid]).skipped


def test_headline_figures_include_every_scored_trusted_row():
    outcomes = [fidelity.evaluate(row) for row in ROWS.values() if row["trusted"] == "yes"]
    n, median, high = fidelity.summarize(outcomes)["overall"]
    assert n == len(BOUNDS)
    assert median <= 8  # target met (6.5 % with LitGPT's training tables)
    # 13.2 after LitGPT's FSDP mechanisms (2026-11-25; 19.7 before, 34.2 earlier); 17.7 with the sources added on
    # 2026-11-28, whose ATorch FSDP rows (Llama 2 7B on 8-64 A100s, 32-42 GB measured) the estimate puts 39-57 % under;
    # 20.8 with the fifth session's rows (fms-acceleration's re-runs of its A100 table, 71 rows, its QLoRA ones 14-24 %
    # off, as its earlier versions' were; torchtitan PR descriptions), the estimator unchanged; 21.01 with round 8's;
    # 23.05 with round 9's (LambdaLabs' Llama 3.1 405B on 64 H100s with CPU offload: 28 and 45 % off), the estimator
    # unchanged; 20.8 with FSDP's root unit kept whole into the backward (that 405B row 28 -> 4.5 % under).
    assert high <= 24


def test_every_mechanism_is_a_job_option_and_nothing_else_is_applied():
    # The benchmark maps each row to the options a user sets, nothing per row beyond them.
    from advisor.core.memory.peak import estimate_memory

    for rid, row in ROWS.items():
        outcome = fidelity.evaluate(row)
        if not outcome.mapped or outcome.estimate_bytes is None:
            continue
        assert fidelity.mechanism_options(row), rid
        workload = fidelity.build_workload(row)
        b = estimate_memory(fidelity.load_arch(row["model_id"]), workload).breakdown
        expect = fidelity.estimate_of_kind(row, b)
        assert outcome.estimate_bytes == pytest.approx(expect), rid


def test_unknown_mechanism_is_refused():
    row = dict(ROWS.get("tt-l31-8b-full-4090") or pytest.skip("row gone"), mechanisms="telepathy")
    with pytest.raises(ValueError, match="telepathy"):
        fidelity.evaluate(row)


def test_mechanisms_lower_the_mapped_estimates():
    row = ROWS.get("tt-l31-8b-full-4090") or pytest.skip("row gone")
    assert fidelity.evaluate(row).estimate_bytes < fidelity.evaluate(dict(row, mechanisms="")).estimate_bytes


def test_a_sum_over_the_gpus_of_a_layer_split_is_not_scored():
    # The estimate reports the busiest GPU: a published sum over the GPUs has no figure of the same
    # kind to compare with, and none is made up for the benchmark alone.
    row = ROWS.get("qwen-qwen2-72b-in1-bf16") or pytest.skip("row gone")
    assert fidelity.evaluate(row).skipped == fidelity.SUMMED_SPLIT
    assert fidelity.evaluate(dict(row, memory_scope="per_gpu")).estimate_bytes is not None


def test_every_row_evaluates_or_says_why_not():
    assert len(ROWS) >= 40
    for row in ROWS.values():
        outcome = fidelity.evaluate(row)
        assert outcome.estimate_bytes is not None or outcome.skipped, row["id"]


def test_pinned_inference_median_meets_target():
    errors = [fidelity.evaluate(ROWS[r]).error_pct for r in PINNED if r in ROWS and ROWS[r]["group"] == "inference"]
    assert statistics.median(errors) <= 8


def test_known_gaps_are_pinned_apart():
    assert set(GAP_PINNED) == set(KNOWN_GAPS)
    assert not set(KNOWN_GAPS) & set(PINNED)


@pytest.mark.parametrize(
    ("value", "unit", "nbytes"),
    [("1", "GiB", 1024**3), ("1", "GB", 1e9), ("2048", "MiB", 2 * 1024**3), ("1500", "MB", 1.5e9)],
)
def test_units(value, unit, nbytes):
    assert fidelity.measured_bytes({"measured_value": value, "measured_unit": unit}) == nbytes


@pytest.mark.parametrize(
    ("kind", "notes", "sees"),
    [("max_memory_allocated", "", False), ("max_memory_reserved", "", False), ("nvidia-smi", "", True),
     ("torch", "logs via torch.cuda.max_memory_allocated", False), ("reported", "screenshot", True),
     ("reported", "logs via torch.cuda.max_memory_allocated", True)],  # the column decides, not the notes
)
def test_like_with_like(kind, notes, sees):
    assert fidelity.sees_runtime({"measured_kind": kind, "notes": notes}) is sees


def test_paged_optimizer_is_invisible_to_torch_statistics():
    row = dict(ROWS.get("tt-l31-8b-full-4090") or pytest.skip("row gone"))
    paged = fidelity.evaluate(row).estimate_bytes
    row["optimizer"] = "adamw-8bit"
    assert fidelity.evaluate(row).estimate_bytes > paged


def test_grad_accum_mechanism_is_the_grad_accum_option():
    row = dict(ROWS.get("litgpt-l2-7b-lora-2xa100-mb1") or pytest.skip("row gone"))
    assert fidelity.mechanism_options(row)["grad_accum_steps"] == 128  # batch_size 128 // micro-batch 1
    assert fidelity.build_workload(row).grad_accum_steps == 128
    single = fidelity.evaluate(dict(row, mechanisms="framework:litgpt;loss:chunked")).estimate_bytes
    assert fidelity.evaluate(row).estimate_bytes > single + 6e9  # FSDP no_sync: whole block gradients held


@pytest.mark.parametrize(("gpu", "family"), [
    ("A100 40GB", "NVIDIA sm_80"), ("RTX 4090", "NVIDIA sm_89"), ("RTX 3090", "NVIDIA sm_86"),
    ("", "GPU not stated"), ("24GB GPU", "not in the catalog: 24GB GPU"),
])
def test_a_row_is_counted_under_its_gpu_family(gpu: str, family: str) -> None:
    assert fidelity.family_of({"gpu": gpu}) == family


@pytest.mark.parametrize(("framework", "date", "gap"), [
    ("torchtitan", "2025-01-27", True), ("torchtitan", "2025-06-04", False),  # PR #1033 compiled the loss, 2025-04-02
    ("torchtune", "2024-05", True), ("torchtune", "2024-10", False),  # PR #1419, 2024-08-28
    ("hf", "2024-05", False),
])
def test_a_compiled_row_of_a_build_whose_loss_stayed_eager_is_a_known_gap(framework, date, gap):
    row = {"mechanisms": f"framework:{framework};compile", "source_date": date}
    assert bool(fidelity.pre_loss_compile_build(row)) is gap
    assert not fidelity.pre_loss_compile_build(dict(row, mechanisms=f"framework:{framework}"))


def test_keeps_output_mechanism_is_the_keeps_output_option():
    # fitcheck's scripts/measure.py steps with 'out = model(...); out.loss.backward(); optimizer.step()'
    row = ROWS.get("h61f-fitcheck-final-q15c-qr16-b1-s1024-sdpa") or pytest.skip("row gone")
    assert fidelity.build_workload(row).keeps_output
    without = dict(row, mechanisms=row["mechanisms"].replace(";keeps-output", ""))
    assert not fidelity.build_workload(without).keeps_output
    assert fidelity.evaluate(without).estimate_bytes < fidelity.evaluate(row).estimate_bytes


def test_kbit_upcast_mechanism_is_the_kbit_upcast_option():
    # fitcheck's harness runs PEFT's prepare_model_for_kbit_training on its QLoRA rows, without autocast (precision fp32)
    row = ROWS.get("h61f-fitcheck-final-q7-qr16-b1-s1024-eager") or pytest.skip("row gone")
    workload = fidelity.build_workload(row)
    assert workload.kbit_upcast and workload.precision.value == "fp32"
    assert fidelity.evaluate(dict(row, mechanisms="optimizer-kernel:foreach")).estimate_bytes < \
        fidelity.evaluate(row).estimate_bytes
