import itertools

import torch
import torch.nn.functional as F
from torch import nn

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


torch.manual_seed(0)
model = TinyLM().eval()
prompt = torch.randint(VOCAB, (1, 8))
@torch.inference_mode()
def generate(model, prompt, new_tokens):
    cache = GrowingCache()
    logits = model(prompt, cache, torch.arange(prompt.shape[1]))  # prefill: the whole prompt in one call
    tokens = [logits.argmax(-1)]
    for position in range(prompt.shape[1], prompt.shape[1] + new_tokens - 1):
        logits = model(tokens[-1][:, None], cache, torch.tensor([position]))  # decode: one token per call
        tokens.append(logits.argmax(-1))
    return torch.cat(tokens), cache


@torch.inference_mode()
def generate_without_cache(model, prompt, new_tokens):
    sequence = prompt
    for _ in range(new_tokens):
        logits = model(sequence, GrowingCache(), torch.arange(sequence.shape[1]))  # the whole sequence again
        sequence = torch.cat([sequence, logits.argmax(-1)[:, None]], dim=1)
    return sequence[0, prompt.shape[1]:]



def count_positions(module, args):
    positions_run.append(args[0].shape[1])  # how many token positions this call runs through the model


def keep_logits(module, args, logits):
    logits_seen.append(logits)
    if isinstance(args[1], GrowingCache):
        key_addresses.append(args[1].keys[0].data_ptr())  # where layer 0's cached keys live after this call


model.register_forward_pre_hook(count_positions)
model.register_forward_hook(keep_logits)
positions_run, logits_seen, key_addresses = [], [], []
tokens, cache = generate(model, prompt, 16)
print("generated:", tokens.tolist())
print(f"with the cache: {len(positions_run)} calls, positions run: {positions_run[0]} + {sum(positions_run[1:])}"
      f" = {sum(positions_run)}")
print("keys cached per layer:", tuple(cache.keys[0].shape), "(batch, heads, length, head dim)")
cache_bytes = sum(t.numel() * t.element_size() for t in cache.keys + cache.values)
print(f"cache size: {cache_bytes} bytes = 2 (keys, values) x {LAYERS} layers x 1 x {HEADS} x {cache.keys[0].shape[2]}"
      f" x {DIM // HEADS} x {cache.keys[0].element_size()} bytes")
print("torch.cat copied layer 0's cached keys to new memory at every decode call:",
      all(before != after for before, after in itertools.pairwise(key_addresses)))
top2 = torch.cat(logits_seen).topk(2, dim=-1).values
print("every greedy choice won by more than 0.001:", (top2[:, 0] - top2[:, 1]).min().item() > 0.001)
cached_logits, positions_run, logits_seen = torch.cat(logits_seen), [], []
same = torch.equal(tokens, generate_without_cache(model, prompt, 16))
print(f"without the cache: {len(positions_run)} calls, positions run: {' + '.join(map(str, positions_run[:3]))}"
      f" + ... + {positions_run[-1]} = {sum(positions_run)}")
print("same tokens without the cache:", same)
print("logits with and without the cache differ by less than 1e-4:",
      (cached_logits - torch.cat(logits_seen)).abs().max().item() < 1e-4)
