# marks: slow
# timeout: 600
# method: processes -- each compiled variant in its own process and Inductor cache, in rounds with its eager baseline
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import torch.nn.functional as F
from torch import nn
from torch._dynamo.utils import counters

VOCAB, DIM, HEADS, LAYERS, MAX_LEN = 256, 256, 4, 2, 128


class GrowingCache:
    """Keys and values of the tokens seen so far, one pair per layer, grown by concatenation."""

    def __init__(self):
        self.keys, self.values = [None] * LAYERS, [None] * LAYERS

    def update(self, layer, k, v, positions):
        if self.keys[layer] is not None:
            k, v = torch.cat([self.keys[layer], k], dim=2), torch.cat([self.values[layer], v], dim=2)
        self.keys[layer], self.values[layer] = k, v
        # causal: the query at position p sees the keys at positions 0..p
        return k, v, torch.arange(k.shape[2], device=k.device) <= positions[:, None]


class Block(nn.Module):
    def __init__(self, layer):
        super().__init__()
        self.layer = layer
        self.norm1, self.norm2 = nn.LayerNorm(DIM), nn.LayerNorm(DIM)
        self.qkv, self.out = nn.Linear(DIM, 3 * DIM), nn.Linear(DIM, DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 4 * DIM), nn.GELU(), nn.Linear(4 * DIM, DIM))

    def forward(self, x, cache, positions):
        batch, length, _ = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(batch, length, 3, HEADS, DIM // HEADS).permute(2, 0, 3, 1, 4)
        k, v, mask = cache.update(self.layer, k, v, positions)
        attended = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = x + self.out(attended.transpose(1, 2).reshape(batch, length, DIM))
        return x + self.mlp(self.norm2(x))


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed, self.position = nn.Embedding(VOCAB, DIM), nn.Embedding(MAX_LEN, DIM)
        self.blocks = nn.ModuleList(Block(layer) for layer in range(LAYERS))
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, tokens, cache, positions):
        x = self.embed(tokens) + self.position(positions)
        for block in self.blocks:
            x = block(x, cache, positions)
        return self.head(x[:, -1])  # logits of the next token only


class StaticCache:
    """Buffers for MAX_LEN positions, allocated once; each call writes its keys and values at their positions."""

    def __init__(self, batch=1, device="cpu"):
        shape = (batch, HEADS, MAX_LEN, DIM // HEADS)
        self.keys = [torch.zeros(shape, device=device) for _ in range(LAYERS)]
        self.values = [torch.zeros(shape, device=device) for _ in range(LAYERS)]
        for buffer in self.keys + self.values:
            torch._dynamo.mark_static_address(buffer)  # mutated in place: must be static for CUDA graphs

    def update(self, layer, k, v, positions):
        self.keys[layer].index_copy_(2, positions, k)
        self.values[layer].index_copy_(2, positions, v)
        # causal, and the slots not written yet lie past every query's position: masked too
        return self.keys[layer], self.values[layer], torch.arange(MAX_LEN, device=k.device) <= positions[:, None]


ROUNDS, GENERATIONS, PROMPT, NEW_TOKENS = 15, 12, 64, 32  # each round: GENERATIONS in a row per variant


def decode_step(model, token, cache, positions):
    return model(token, cache, positions).argmax(-1)


@torch.inference_mode()
def generate(model, prompt, make_cache, step):
    """Greedy generation; returns the tokens and the seconds spent in the decode steps (prefill not counted)."""
    if make_cache is None:  # no cache: every step runs the whole sequence again
        sequence, start = prompt, None
        for _ in range(NEW_TOKENS):
            next_token = decode_step(model, sequence, GrowingCache(), torch.arange(sequence.shape[1]))
            sequence = torch.cat([sequence, next_token[:, None]], dim=1)
            start = start or time.perf_counter()  # the clock starts after the first token, as with a cache
        return sequence[0, PROMPT:].tolist(), time.perf_counter() - start
    cache = make_cache()
    tokens = [decode_step(model, prompt, cache, torch.arange(PROMPT))]  # prefill, eager
    start = time.perf_counter()
    for position in range(PROMPT, PROMPT + NEW_TOKENS - 1):
        tokens.append(step(model, tokens[-1][:, None], cache, torch.tensor([position])))
    return torch.cat(tokens).tolist(), time.perf_counter() - start


def measure(variants):
    """Per variant: the first generation's seconds (compilation included), decode rates (tokens/s), graphs, tokens."""
    torch.manual_seed(0)
    model = TinyLM().eval()
    prompt = torch.randint(VOCAB, (1, PROMPT))
    results, steps = {}, {name: torch.compile(decode_step) if compiled else decode_step
                          for name, (_, compiled) in variants.items()}
    for name, (make_cache, compiled) in variants.items():
        start = time.perf_counter()
        tokens, _ = generate(model, prompt, make_cache, steps[name])
        results[name] = {"first": time.perf_counter() - start, "rates": [], "tokens": tokens,
                         "graphs": counters["stats"]["unique_graphs"] if compiled else None}
    graphs_before_rounds = counters["stats"]["unique_graphs"]
    for _ in range(ROUNDS):
        for name, (make_cache, _) in variants.items():
            seconds = sum(generate(model, prompt, make_cache, steps[name])[1] for _ in range(GENERATIONS))
            results[name]["rates"].append(GENERATIONS * (NEW_TOKENS - 1) / seconds)
    for row in results.values():
        row["compiled in rounds"] = counters["stats"]["unique_graphs"] - graphs_before_rounds
    return results


CACHES = {"none": None, "growing": GrowingCache, "static": StaticCache}
VARIANTS = {"eager, no cache": ("none", False), "eager, growing cache": ("growing", False),
            "torch.compile, growing cache": ("growing", True), "eager, static cache": ("static", False),
            "torch.compile, static cache": ("static", True)}
PROCESSES = (["eager, no cache", "eager, growing cache", "torch.compile, growing cache"],
             ["eager, static cache", "torch.compile, static cache"])  # each compiled variant beside its baseline

torch.set_num_threads(1)
if sys.argv[1:2] == ["--variants"]:  # what each new process below runs
    print(json.dumps(measure({name: (CACHES[VARIANTS[name][0]], VARIANTS[name][1]) for name in sys.argv[2:]})))
    sys.exit()


def in_new_process(names):
    with tempfile.TemporaryDirectory() as cache_dir:
        env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache_dir}
        done = subprocess.run([sys.executable, __file__, "--variants", *names], env=env, capture_output=True,
                              text=True, check=True)
    return json.loads(done.stdout)


rows = {}
for names in PROCESSES:
    rows.update(in_new_process(names))

BASELINES = {"eager, growing cache": "eager, growing cache", "torch.compile, growing cache": "eager, growing cache",
             "eager, static cache": "eager, static cache", "torch.compile, static cache": "eager, static cache"}


def quartiles(values):
    q1, median, q3 = statistics.quantiles(values, n=4)
    return median, q3 - q1


def paired(name):
    """Median and IQR of the rate over the eager rate with the same cache, round by round (same process)."""
    if name not in BASELINES:
        return "—", "—"
    ratios = [a / b for a, b in zip(rows[name]["rates"], rows[BASELINES[name]]["rates"], strict=True)]
    return tuple(f"{x:.3f}" for x in quartiles(ratios))


print("threads: 1")
print("| variant | decode (tokens/s) | IQR (tokens/s) | runs | ÷ eager, same round (×) | IQR (×) "
      "| first generation (s) | IQR (s) | runs | graphs |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for name, row in rows.items():
    median, iqr = quartiles(row["rates"])
    ratio, ratio_iqr = paired(name)
    graphs = "—" if row["graphs"] is None else row["graphs"]
    print(f"| {name} | {median:.1f} | {iqr:.1f} | {ROUNDS} | {ratio} | {ratio_iqr} | {row['first']:.2f} | — | 1 "
          f"| {graphs} |")
reference = rows["eager, growing cache"]["tokens"]
for name, row in rows.items():
    print(f"{name}: same {NEW_TOKENS} tokens as eager with a growing cache: {row['tokens'] == reference}")
for name in ("torch.compile, growing cache", "torch.compile, static cache"):
    print(f"{name}: {rows[name]['graphs']} graph(s) compiled for {NEW_TOKENS - 1} decode steps")
print("no graph compiled during the timed rounds:", all(row["compiled in rounds"] == 0 for row in rows.values()))
