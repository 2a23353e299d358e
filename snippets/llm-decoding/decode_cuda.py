# marks: cuda slow
# timeout: 600
# estimate: 90
import torch
import torch.nn.functional as F
from torch import nn
from torch._dynamo.utils import counters
from torch._inductor.cudagraph_trees import CUDAGraphTreeManager

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


def decode_step(model, token, cache, positions):
    return model(token, cache, positions).argmax(-1)


@torch.no_grad()
def generate(model, prompt, new_tokens, cache, step, mark_steps=False):
    tokens = [model(prompt, cache, torch.arange(prompt.shape[1], device="cuda")).argmax(-1)]  # prefill, eager
    for position in range(prompt.shape[1], prompt.shape[1] + new_tokens - 1):
        if mark_steps:
            torch.compiler.cudagraph_mark_step_begin()  # a new iteration: the last replay's outputs may be overwritten
        positions = torch.tensor([position], device="cuda")
        tokens.append(step(model, tokens[-1][:, None], cache, positions).clone())  # clone: keep it past the replay
    return torch.cat(tokens)


recorded = []
record_function = CUDAGraphTreeManager.record_function  # one call per CUDA graph recorded (not the pool's empty one)


def counting_record_function(manager, *args, **kwargs):
    recorded.append(manager)
    return record_function(manager, *args, **kwargs)


torch.manual_seed(0)
model = TinyLM().cuda().eval()
prompt = torch.randint(VOCAB, (1, 8), device="cuda")
reference = generate(model, prompt, 32, GrowingCache(), decode_step)
compiled = torch.compile(decode_step, mode="reduce-overhead")
CUDAGraphTreeManager.record_function = counting_record_function
tokens = generate(model, prompt, 32, StaticCache(device="cuda"), compiled, mark_steps=True)
CUDAGraphTreeManager.record_function = record_function
print("static cache, reduce-overhead: graphs compiled:", counters["stats"]["unique_graphs"])
print("CUDA graphs recorded for 31 decode steps:", len(recorded))
print("compiled graphs that ran without CUDA graphs:", counters["inductor"]["cudagraph_skips"])
print("same tokens as eager:", torch.equal(tokens, reference))
