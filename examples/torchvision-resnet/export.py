"""Exports torchvision's ResNet-18 (random weights: nothing is downloaded)
for the C++ program of this example: resnet18.mlir (the network, weights
included) and, to check the program against, an input and torch's output
for it as raw float32 files.

    python export.py OUT_DIR
"""

import os
import sys

import torch
import torchvision

import polyblocks.torch


def calibrate_batch_norm(model, batches=2):
    """Random weights leave batch norm's running statistics at mean 0 and
    variance 1, which shrinks the activations of a deep network to
    nothing; a few random batches in training mode give them real ones."""
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.reset_running_stats()
            m.momentum = None
    model.train()
    with torch.no_grad():
        for _ in range(batches):
            model(torch.randn(8, 3, 224, 224))
    return model.eval()


def main(out_dir):
    torch.manual_seed(0)
    model = calibrate_batch_norm(torchvision.models.resnet18(weights=None))
    image = torch.randn(1, 3, 224, 224)
    polyblocks.torch.export(model, (image,),
                            os.path.join(out_dir, "resnet18.mlir"),
                            function="resnet18")
    with torch.no_grad():
        logits = model(image)
    image.numpy().tofile(os.path.join(out_dir, "input.bin"))
    logits.numpy().tofile(os.path.join(out_dir, "reference.bin"))


if __name__ == "__main__":
    main(sys.argv[1])
