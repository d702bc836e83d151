"""Times PolyBlocks' program for one zoo network in one Python process beside
the anchors of the model benchmark (torch eager, Inductor, ONNX Runtime,
IREE; those that compile it): alone and right after each anchor's call
(medians over interleaved rounds), then the calls that follow an anchor's
call one by one (how long another pool's spinning slows them). Each pbtool
given is a build to compare; run one build per process, since an idle pool
that spins after its call slows whatever runs next.

    .venv/bin/python bench/contention.py mobilenet_v2 1 25 new=build/bin/pbtool
"""
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import polyblocks  # noqa: E402
import zoo_torch  # noqa: E402
import models as M  # noqa: E402


def elapsed_ms(run):
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) * 1e3


def main():
    name, batch, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    builds = [spec.split("=", 1) for spec in sys.argv[4:]]
    model, inputs = zoo_torch.MODELS[name][0](batch)
    anchors = {}
    for engine, prepare in M.torch_engines():
        if engine == "PolyBlocks":
            continue
        try:
            anchors[engine], _ = prepare(model, inputs,
                                         "%s-b%d" % (name, batch))
        except Exception as error:  # an anchor that fails to compile it
            print("%s: %s" % (engine, str(error).splitlines()[0][:100]))
    text = M.polyblocks_text(model, inputs, name)
    arrays = [t.numpy() for t in inputs]
    ours = {}
    for label, pbtool in builds:
        os.environ["POLYBLOCKS_PBTOOL"] = os.path.abspath(pbtool)
        kernel = polyblocks.compile(text, name="%s_%s" % (name, label))["forward"]
        ours[label] = lambda kernel=kernel: kernel(*arrays)[0]
    reference = anchors["torch eager"]()
    for label, run in ours.items():
        error = float(np.max(np.abs(run() - reference)))
        assert error < 1e-3, (label, error)
    times = {}
    for _ in range(rounds):
        for label, run in ours.items():
            for where, before in [("alone", run)] + [
                    ("after " + a, f) for a, f in anchors.items()]:
                before()
                times.setdefault((label, where), []).append(elapsed_ms(run))
        for anchor, run in anchors.items():
            times.setdefault((anchor, ""), []).append(elapsed_ms(run))
    for (label, where), ts in times.items():
        print("%-12s %-20s %8.3f ms" % (label, where, statistics.median(ts)))
    # The 12 calls after an anchor's call, each position's median.
    for label, run in ours.items():
        for anchor, before in anchors.items():
            sequences = []
            for _ in range(rounds):
                time.sleep(0.3)  # every pool asleep
                before()
                sequences.append([elapsed_ms(run) for _ in range(12)])
            print("%s, calls after %s: %s" % (
                label, anchor, " ".join("%.1f" % statistics.median(c)
                                        for c in zip(*sequences))))


if __name__ == "__main__":
    main()
