# timeout: 240
# figure: steps=decode_graphs
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


def counting_backend(graph_module, example_inputs):
    """Dynamo hands every graph it builds to the backend: count them, note the symbolic sizes, run them as they are."""
    inputs = {node.name: node.meta["example_value"] for node in graph_module.graph.find_nodes(op="placeholder")}
    symbols = sum(isinstance(value, torch.SymInt) for value in inputs.values())
    keys = tuple(inputs["l_cache_keys_0_"].shape)
    graphs.append(f"layer 0's cached keys {keys}, " + (f"{symbols} symbolic sizes" if symbols else "static shapes"))
    number = len(graphs)

    def run(*args):
        graphs_run.append(number)
        return graph_module.forward(*args)

    return run


def decode_step(model, token, cache, positions):
    return model(token, cache, positions).argmax(-1)


graphs_run = []  # the number of every graph that ran, in order


def tracking(compiled, ran):
    """The compiled step, noting which graph ran each call (0: none did, the call ran eagerly)."""

    def step(*args):
        before = len(graphs_run)
        token = compiled(*args)
        ran.append(graphs_run[-1] if len(graphs_run) > before else 0)
        return token

    return step


@torch.inference_mode()
def generate(model, prompt, new_tokens, cache, step):
    tokens = [model(prompt, cache, torch.arange(prompt.shape[1])).argmax(-1)]  # prefill, eager
    for position in range(prompt.shape[1], prompt.shape[1] + new_tokens - 1):
        tokens.append(step(model, tokens[-1][:, None], cache, torch.tensor([position])))
    return torch.cat(tokens)


torch.manual_seed(0)
model = TinyLM().eval()
prompt = torch.randint(VOCAB, (1, 8))
reference = generate(model, prompt, 32, GrowingCache(), decode_step)
steps = []  # per variant, the graph that ran each decode step (0: none ran, the step ran eagerly)
for make_cache, dynamic in ((GrowingCache, None), (StaticCache, None), (GrowingCache, False), (GrowingCache, True)):
    torch._dynamo.reset()
    counters.clear()
    graphs = []
    compiled = torch.compile(decode_step, backend=counting_backend, dynamic=dynamic)
    graphs_run.clear()
    ran = []
    tokens = generate(model, prompt, 32, make_cache(), tracking(compiled, ran))
    steps.append({"variant": f"{make_cache.__name__}, dynamic={dynamic}", "graphs": ran})
    assert len(graphs) == counters["stats"]["unique_graphs"]
    print(f"{make_cache.__name__}, dynamic={dynamic}: 31 decode steps, {len(graphs)} graph(s) compiled")
    for number, kind in enumerate(graphs, 1):
        print(f"  graph {number}: {kind}")
    print("  same tokens as eager:", torch.equal(tokens, reference))


class UnmaskedStaticCache(StaticCache):
    """The static cache with the causal mask kept but the unwritten slots (zeros) left visible."""

    def update(self, layer, k, v, positions):
        keys, values, mask = super().update(layer, k, v, positions)
        return keys, values, mask | (torch.arange(MAX_LEN) > positions.max())


unmasked = generate(model, prompt, 32, UnmaskedStaticCache(), decode_step)
print("tokens change when the unwritten slots are not masked:", not torch.equal(unmasked, reference))

with torch.inference_mode():
    cache = GrowingCache()
    model(prompt, cache, torch.arange(8))
    after_prefill = cache.keys[0].is_contiguous()  # a view into the qkv projection's output
    model(prompt[:, :1], cache, torch.tensor([8]))
    after_cat = cache.keys[0].is_contiguous()
print(f"layer 0's cached keys contiguous: after prefill {after_prefill}, after one torch.cat {after_cat}")

full = StaticCache()
new_key = torch.zeros(1, HEADS, 1, DIM // HEADS)
try:
    full.update(0, new_key, new_key, torch.tensor([MAX_LEN]))  # one token past the preallocated length
except IndexError as error:
    print("IndexError:", error)
