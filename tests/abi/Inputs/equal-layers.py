"""Writes a network of LAYERS equal 64x64 layers, y = relu(x w_l + b_l), each
with its own constant weights: w_l[k][j] = ((5k + 3j + 7l) % 17 - 8) / 64,
b_l[j] = ((j + l) % 5 - 2) / 8 (split-equal-nests.c computes the same)."""

import sys

N = 64


def weight(layer, k, j):
    return ((5 * k + 3 * j + 7 * layer) % 17 - 8) / 64.0


def bias(layer, j):
    return ((j + layer) % 5 - 2) / 8.0


def main():
    name, layers = sys.argv[1], int(sys.argv[2])
    t = f"tensor<{N}x{N}xf32>"
    lines = [f"func.func @{name}(%x: {t}) -> {t} {{",
             "  %zero = arith.constant 0.0 : f32",
             f"  %e = tensor.empty() : {t}"]
    value = "%x"
    for layer in range(layers):
        rows = ", ".join(
            "[" + ", ".join(f"{weight(layer, k, j)!r}" for j in range(N)) + "]"
            for k in range(N))
        b = ", ".join(f"{bias(layer, j)!r}" for j in range(N))
        lines += [
            f"  %w{layer} = arith.constant dense<[{rows}]> : {t}",
            f"  %b{layer} = arith.constant dense<[{b}]> : tensor<{N}xf32>",
            f"  %f{layer} = linalg.fill ins(%zero : f32) outs(%e : {t}) -> {t}",
            f"  %m{layer} = linalg.matmul ins({value}, %w{layer} : {t}, {t})"
            f" outs(%f{layer} : {t}) -> {t}",
            f"  %y{layer} = linalg.generic {{indexing_maps = ["
            "affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, "
            "affine_map<(i, j) -> (i, j)>], "
            "iterator_types = [\"parallel\", \"parallel\"]}"
            f" ins(%m{layer}, %b{layer} : {t}, tensor<{N}xf32>) outs(%e : {t}) {{",
            "  ^bb0(%a: f32, %c: f32, %o: f32):",
            "    %s = arith.addf %a, %c : f32",
            "    %r = arith.maximumf %s, %zero : f32",
            "    linalg.yield %r : f32",
            f"  }} -> {t}",
        ]
        value = f"%y{layer}"
    lines += [f"  return {value} : {t}", "}"]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
