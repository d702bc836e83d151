"""Writes a zoo network, a part of one, or attention alone as a program for
pbtool (weights as constants), for the measurements of bench/RESULTS.md's
notes that time one program with `pbtool bench`:

    .venv/bin/python bench/export_zoo.py mobilenet_v2 --batch 8 -o mb-b8.mlir
    .venv/bin/python bench/export_zoo.py jax:bert_layer --batch 8 -o jb-b8.mlir
    .venv/bin/python bench/export_zoo.py mobilenet_v2 --batch 8 --blocks :5 -o pre.mlir
    .venv/bin/python bench/export_zoo.py attention --keys 512 -o attn.mlir
    build/bin/pbtool bench mb-b8.mlir --function=forward
    .venv/bin/python bench/export_zoo.py attention --keys 512 --torch

--blocks :K (or K:) keeps MobileNetV2's feature blocks before (from) K, the
rest fed by the first part's output; attention is softmax(q k^T / 8) v of
12 heads of 64 over --keys tokens (as the torch exporter writes it), and
--torch times it in torch instead, as written and as
scaled_dot_product_attention (2 threads, medians of 25 calls).
"""
import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))


def torch_program(name, batch, blocks):
    import torch
    import zoo_torch
    model, inputs = zoo_torch.MODELS[name][0](batch=batch)
    if blocks:
        if name != "mobilenet_v2":
            sys.exit("--blocks splits mobilenet_v2 only")
        start, end = blocks.split(":")
        k = int(start or end)
        head = model.features[:k].eval()
        if not start:
            return head, inputs

        class Tail(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.features, self.classifier = model.features[k:], model.classifier

            def forward(self, x):
                x = torch.nn.functional.adaptive_avg_pool2d(self.features(x), 1)
                return self.classifier(x.flatten(1))

        with torch.no_grad():
            return Tail().eval(), (head(*inputs),)
    return model, inputs


def attention_program(keys):
    import torch

    class Attention(torch.nn.Module):
        def forward(self, q, k, v):
            scores = q @ k.transpose(-1, -2) / math.sqrt(64)
            return torch.softmax(scores, dim=-1) @ v

    q = torch.randn(1, 12, keys, 64)
    return Attention(), (q, q, q)


def time_attention_in_torch(keys):
    import statistics
    import time
    import torch
    torch.set_num_threads(2)
    model, (q, k, v) = attention_program(keys)
    sdpa = torch.nn.functional.scaled_dot_product_attention
    for name, run in (("as written", lambda: model(q, k, v)),
                      ("scaled_dot_product_attention", lambda: sdpa(q, k, v))):
        times = []
        with torch.no_grad():
            for _ in range(25):
                start = time.perf_counter()
                run()
                times.append(time.perf_counter() - start)
        print("torch %s: median %.2f ms" % (name, statistics.median(times) * 1e3))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("network",
                        help="a zoo network (jax: prefix for the JAX zoo), "
                             "or 'attention'")
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--blocks", default="",
                        help="mobilenet_v2's feature blocks :K or K:")
    parser.add_argument("--keys", type=int, default=512)
    parser.add_argument("--torch", action="store_true",
                        help="attention: time it in torch, write nothing")
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    if args.torch:
        if args.network != "attention":
            sys.exit("--torch times attention only")
        time_attention_in_torch(args.keys)
        return
    if not args.output:
        sys.exit("-o is required")
    if args.network.startswith("jax:"):
        import zoo_jax
        from polyblocks.jax import export
        fn, example = zoo_jax.MODELS[args.network[4:]][0](batch=args.batch)
        export(fn, example, args.output, function="forward")
        return
    from polyblocks.torch import export
    if args.network == "attention":
        model, inputs = attention_program(args.keys)
    else:
        model, inputs = torch_program(args.network, args.batch, args.blocks)
    export(model, tuple(inputs), args.output, function="forward")


if __name__ == "__main__":
    main()
