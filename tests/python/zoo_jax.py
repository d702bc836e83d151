"""The JAX / Flax networks of the model zoo, with random weights: each
builder returns (fn, args) where fn(*args) is the network applied to its
parameters and input."""

import jax
import jax.numpy as jnp
import flax.linen as nn


class MLP(nn.Module):
    sizes: tuple = (512, 256, 10)

    @nn.compact
    def __call__(self, x):
        for i, size in enumerate(self.sizes):
            x = nn.Dense(size)(x)
            if i + 1 < len(self.sizes):
                x = nn.relu(x)
        return x


class ConvBlock(nn.Module):
    """Two 3x3 convolutions with batch norm (inference statistics) and
    ReLU, a residual connection and average pooling (NHWC, as Flax does)."""

    channels: int = 64

    @nn.compact
    def __call__(self, x):
        y = nn.Conv(self.channels, (3, 3), padding="SAME")(x)
        y = nn.relu(nn.BatchNorm(use_running_average=True)(y))
        y = nn.Conv(self.channels, (3, 3), padding="SAME")(y)
        y = nn.BatchNorm(use_running_average=True)(y)
        y = nn.relu(y + nn.Conv(self.channels, (1, 1))(x))
        return nn.avg_pool(y, (2, 2), strides=(2, 2))


class BertLayer(nn.Module):
    """A BERT-base encoder layer: Flax's multi-head attention (DenseGeneral
    projections), post-norm, erf GELU."""

    hidden: int = 768
    heads: int = 12
    ffn: int = 3072

    @nn.compact
    def __call__(self, x):
        attention = nn.MultiHeadDotProductAttention(num_heads=self.heads)(x, x)
        x = nn.LayerNorm(epsilon=1e-12)(x + attention)
        y = nn.Dense(self.hidden)(nn.gelu(nn.Dense(self.ffn)(x), approximate=False))
        return nn.LayerNorm(epsilon=1e-12)(x + y)


def _build(module, x):
    params = module.init(jax.random.PRNGKey(0), x)
    return (lambda p, x: module.apply(p, x)), (params, x)


def mlp(batch=1):
    return _build(MLP(), jax.random.normal(jax.random.PRNGKey(1), (batch, 784)))


def conv_block(batch=1):
    return _build(ConvBlock(), jax.random.normal(jax.random.PRNGKey(1), (batch, 56, 56, 32)))


def bert_layer(batch=1, seq=128):
    return _build(BertLayer(), jax.random.normal(jax.random.PRNGKey(1), (batch, seq, 768)))


# name -> (builder, tolerance), as in zoo_torch.MODELS.
MODELS = {
    "mlp": (mlp, 1e-5),
    "conv_block": (conv_block, 1e-4),
    "bert_layer": (bert_layer, 1e-4),
}
