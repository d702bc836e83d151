"""Writes a dense layer y = relu(x w + b) of M rows, K inputs and N outputs
as a tensor program: `dense-layer.py NAME M K N [constant|argument]`. With
`constant` (the default) w and b are constants of the program, pseudo-random
in [-0.5, 0.5) (a fixed linear congruential sequence); with `argument` w is
the second argument and b the third."""

import sys


def values(count, seed):
    state = seed
    out = []
    for _ in range(count):
        state = (state * 1103515245 + 12345) % (1 << 31)
        out.append((state >> 8) / float(1 << 23) - 0.5)
    return out


def dense(shape, numbers):
    if len(shape) == 1:
        return "[" + ", ".join(f"{v!r}" for v in numbers) + "]"
    step = len(numbers) // shape[0]
    return "[" + ", ".join(dense(shape[1:], numbers[i * step:(i + 1) * step])
                           for i in range(shape[0])) + "]"


def main():
    name, m, k, n = sys.argv[1], *map(int, sys.argv[2:5])
    weights = sys.argv[5] if len(sys.argv) > 5 else "constant"
    x, w, y = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
    b = f"tensor<{n}xf32>"
    params = f"%x: {x}" + (f", %w: {w}, %b: {b}" if weights == "argument" else "")
    lines = [f"func.func @{name}({params}) -> {y} {{",
             "  %zero = arith.constant 0.0 : f32"]
    if weights == "constant":
        lines += [
            f"  %w = arith.constant dense<{dense([k, n], values(k * n, 1))}> : {w}",
            f"  %b = arith.constant dense<{dense([n], values(n, 2))}> : {b}"]
    lines += [
        f"  %e = tensor.empty() : {y}",
        f"  %f = linalg.fill ins(%zero : f32) outs(%e : {y}) -> {y}",
        f"  %m = linalg.matmul ins(%x, %w : {x}, {w}) outs(%f : {y}) -> {y}",
        "  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, "
        "affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], "
        "iterator_types = [\"parallel\", \"parallel\"]}"
        f" ins(%m, %b : {y}, {b}) outs(%e : {y}) {{",
        "  ^bb0(%a: f32, %c: f32, %o: f32):",
        "    %s = arith.addf %a, %c : f32",
        "    %t = arith.maximumf %s, %zero : f32",
        "    linalg.yield %t : f32",
        f"  }} -> {y}",
        f"  return %r : {y}",
        "}"]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
