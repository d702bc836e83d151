"""The PyTorch networks of the model zoo, with random weights (nothing is
downloaded): each builder returns the model in eval mode and an example
input. Shared by the zoo tests and the model benchmark."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, sizes=(784, 512, 256, 10)):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i + 1 < len(self.layers):
                x = F.relu(x)
        return x


class BertLayer(nn.Module):
    """A BERT-base encoder layer (post-norm, erf GELU), written out as BERT
    computes it: 12 heads of 64, hidden 768, feed-forward 3072."""

    def __init__(self, hidden=768, heads=12, ffn=3072):
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.attn_out = nn.Linear(hidden, hidden)
        self.attn_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.intermediate = nn.Linear(hidden, ffn)
        self.output = nn.Linear(ffn, hidden)
        self.out_norm = nn.LayerNorm(hidden, eps=1e-12)

    def split(self, x):
        b, s, h = x.shape
        return x.view(b, s, self.heads, h // self.heads).transpose(1, 2)

    def forward(self, x):
        b, s, h = x.shape
        q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(h // self.heads)
        context = torch.softmax(scores, dim=-1) @ v
        context = context.transpose(1, 2).reshape(b, s, h)
        x = self.attn_norm(x + self.attn_out(context))
        return self.out_norm(x + self.output(F.gelu(self.intermediate(x))))


class GPT2Block(nn.Module):
    """A GPT-2 (small) block: pre-norm, causal attention with a fused QKV
    projection, tanh GELU; hidden 768, 12 heads."""

    def __init__(self, hidden=768, heads=12, max_len=1024):
        super().__init__()
        self.heads = heads
        self.ln_1 = nn.LayerNorm(hidden)
        self.c_attn = nn.Linear(hidden, 3 * hidden)
        self.c_proj = nn.Linear(hidden, hidden)
        self.ln_2 = nn.LayerNorm(hidden)
        self.c_fc = nn.Linear(hidden, 4 * hidden)
        self.mlp_proj = nn.Linear(4 * hidden, hidden)
        self.register_buffer("causal", torch.tril(torch.ones(max_len, max_len, dtype=torch.bool)))

    def forward(self, x):
        b, s, h = x.shape
        q, k, v = self.c_attn(self.ln_1(x)).split(h, dim=2)
        q, k, v = (t.view(b, s, self.heads, h // self.heads).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-1, -2) / math.sqrt(h // self.heads)
        scores = scores.masked_fill(~self.causal[:s, :s], float("-inf"))
        attn = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(b, s, h)
        x = x + self.c_proj(attn)
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))


class TinyGPT(nn.Module):
    """Token and position embeddings, two GPT-2 blocks, a tied LM head: the
    network that carries the embedding's bounds checks."""

    def __init__(self, vocab=1000, hidden=128, heads=4, layers=2, max_len=64):
        super().__init__()
        self.wte = nn.Embedding(vocab, hidden)
        self.wpe = nn.Embedding(max_len, hidden)
        self.blocks = nn.ModuleList(GPT2Block(hidden, heads, max_len) for _ in range(layers))
        self.ln_f = nn.LayerNorm(hidden)

    def forward(self, ids):
        positions = torch.arange(ids.shape[1])
        x = self.wte(ids) + self.wpe(positions)
        for block in self.blocks:
            x = block(x)
        return self.ln_f(x) @ self.wte.weight.t()


def calibrate_batch_norm(model, shape, batches=2):
    """Random weights leave batch norm's running statistics at mean 0,
    variance 1, and the activations of a deep network shrink to nothing in
    eval mode (MobileNetV2's output is ~3e-9); a few random batches in
    training mode give them the statistics of real activations."""
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.reset_running_stats()
            m.momentum = None  # a cumulative average over the batches
    model.train()
    with torch.no_grad():
        for _ in range(batches):
            model(torch.randn(*shape))
    return model.eval()


def mlp(batch=1):
    return MLP().eval(), (torch.randn(batch, 784),)


def torchvision_cnn(constructor, batch):
    """A torchvision classifier (random weights, batch norm calibrated) and
    an input of `batch` 224 x 224 images."""
    import torchvision
    model = calibrate_batch_norm(getattr(torchvision.models, constructor)(weights=None), (8, 3, 224, 224))
    return model, (torch.randn(batch, 3, 224, 224),)


def resnet18(batch=1):
    return torchvision_cnn("resnet18", batch)


def resnet50(batch=1):
    return torchvision_cnn("resnet50", batch)


def resnext50(batch=1):
    """ResNeXt-50 (32x4d): ResNet-50 with 3x3 convolutions of 32 groups."""
    return torchvision_cnn("resnext50_32x4d", batch)


def mobilenet_v2(batch=1):
    return torchvision_cnn("mobilenet_v2", batch)


def bert_layer(batch=1, seq=128):
    return BertLayer().eval(), (torch.randn(batch, seq, 768),)


def gpt2_block(batch=1, seq=128):
    return GPT2Block().eval(), (torch.randn(batch, seq, 768),)


def tiny_gpt(batch=1, seq=32):
    return TinyGPT().eval(), (torch.randint(0, 1000, (batch, seq)),)


# name -> (builder, tolerance): results must satisfy
# max|ours - torch| <= tolerance * max|torch|, the error scaled by the
# output's magnitude (a sum of many f32 products is exact to a few ulps of
# the magnitude of its terms, not of each result).
MODELS = {
    "mlp": (mlp, 1e-5),
    "resnet18": (resnet18, 1e-4),
    "resnet50": (resnet50, 2e-4),
    "resnext50": (resnext50, 2e-4),
    "mobilenet_v2": (mobilenet_v2, 1e-4),
    "bert_layer": (bert_layer, 1e-4),
    "gpt2_block": (gpt2_block, 1e-4),
    "tiny_gpt": (tiny_gpt, 1e-4),
}
