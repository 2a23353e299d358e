# figure: blocks=block_mask
import math
import warnings

import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

torch.manual_seed(0)
HEADS, LENGTH, HEAD_DIM = 2, 1024, 64
q, k, v = (torch.randn(1, HEADS, LENGTH, HEAD_DIM) for _ in range(3))


# --8<-- [start:mods]
def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


WINDOW = 256


def sliding_window(b, h, q_idx, kv_idx):
    return (q_idx >= kv_idx) & (q_idx - kv_idx < WINDOW)


document_id = torch.repeat_interleave(torch.arange(3), torch.tensor([300, 500, 224]))


def document_causal(b, h, q_idx, kv_idx):
    return (document_id[q_idx] == document_id[kv_idx]) & (q_idx >= kv_idx)


CAP = 20.0


def soft_cap(score, b, h, q_idx, kv_idx):
    return CAP * torch.tanh(score / CAP)


slopes = torch.tensor([0.01, 0.02])  # one per head


def relative_bias(score, b, h, q_idx, kv_idx):
    return score - slopes[h] * (q_idx - kv_idx).abs()
# --8<-- [end:mods]


def block_mask_of(mask_mod):
    return create_block_mask(mask_mod, B=None, H=None, Q_LEN=LENGTH, KV_LEN=LENGTH, device="cpu")


def reference(scores, allowed):
    """softmax(scores) @ v over the allowed pairs, written out."""
    return scores.masked_fill(~allowed, float("-inf")).softmax(dim=-1) @ v


query_pos, key_pos = torch.arange(LENGTH)[:, None], torch.arange(LENGTH)[None, :]
causal_pairs = query_pos >= key_pos
scores = q @ k.transpose(-2, -1) / math.sqrt(HEAD_DIM)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    masks = {name: block_mask_of(mod) for name, mod in
             [("causal", causal), ("sliding_window", sliding_window), ("document_causal", document_causal)]}
    # --8<-- [start:call]
    out = flex_attention(q, k, v, block_mask=masks["causal"])
    # --8<-- [end:call]
for warning in caught:
    print(f"{type(warning.message).__name__}: {str(warning.message).splitlines()[0]}")

checks = {
    "causal vs SDPA is_causal=True": (
        out, F.scaled_dot_product_attention(q, k, v, is_causal=True)),
    "sliding_window vs SDPA bool mask": (
        flex_attention(q, k, v, block_mask=masks["sliding_window"]),
        F.scaled_dot_product_attention(q, k, v, attn_mask=causal_pairs & (query_pos - key_pos < WINDOW))),
    "document_causal vs SDPA bool mask": (
        flex_attention(q, k, v, block_mask=masks["document_causal"]),
        F.scaled_dot_product_attention(
            q, k, v, attn_mask=causal_pairs & (document_id[:, None] == document_id[None, :]))),
    "relative_bias vs SDPA float mask": (
        flex_attention(q, k, v, score_mod=relative_bias),
        F.scaled_dot_product_attention(q, k, v, attn_mask=-slopes[:, None, None] * (query_pos - key_pos).abs())),
    "soft_cap + causal vs written out": (
        flex_attention(q, k, v, score_mod=soft_cap, block_mask=masks["causal"]),
        reference(CAP * torch.tanh(scores / CAP), causal_pairs)),
}
for name, (flex, expected) in checks.items():
    print(f"{name}: max |difference| < 1e-5: {(flex - expected).abs().max().item() < 1e-5}")

SYMBOL = {"full": "█", "partial": "▒", "empty": "·"}


def block_states(block_mask):
    """One string per query block: F (full), P (partial) or E (empty) for each key/value block."""
    dense = torch.zeros(block_mask.kv_num_blocks.shape[-1], block_mask.kv_indices.shape[-1], dtype=torch.long)
    for kind, (counts, indices) in {1: (block_mask.kv_num_blocks, block_mask.kv_indices),
                                    2: (block_mask.full_kv_num_blocks, block_mask.full_kv_indices)}.items():
        for row in range(dense.shape[0]):
            dense[row, indices[0, 0, row, :counts[0, 0, row]]] = kind
    return ["".join("EPF"[state] for state in row.tolist()) for row in dense]


blocks = {"block_size": list(masks["causal"].BLOCK_SIZE), "length": LENGTH, "masks": []}
for name, block_mask in masks.items():
    rows = block_states(block_mask)
    counts = {kind: sum(row.count(kind[0].upper()) for row in rows) for kind in SYMBOL}
    print(f"\n{name}: BLOCK_SIZE {block_mask.BLOCK_SIZE}, sparsity {block_mask.sparsity():.2f}%,",
          ", ".join(f"{n} {kind}" for kind, n in counts.items()))
    for row in rows:
        print("  " + "".join(SYMBOL[{"F": "full", "P": "partial", "E": "empty"}[c]] for c in row))
    blocks["masks"].append({"name": name, "rows": rows, "sparsity": round(block_mask.sparsity(), 2)})
