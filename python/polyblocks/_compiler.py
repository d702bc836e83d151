"""Compiling MLIR text with pbtool into a shared library, cached on disk."""

import dataclasses
import hashlib
import os
import shutil
import subprocess
import tempfile

from ._errors import ToolchainError, error_from_diagnostics
from ._library import load
from ._toolchain import find_pbtool, pbtool_identity


@dataclasses.dataclass(frozen=True)
class CompileOptions:
    """pbtool's flags, as keyword arguments.

    target: "cpu", "nvgpu" or "amdgpu" (--target)
    cpu: the CPU to compile for, as LLVM names it, or "host" (--cpu)
    cpu_features: LLVM feature string, e.g. "+avx2,+fma" (--cpu-features)
    chip: the GPU, e.g. "sm_80", "gfx90a" (--chip)
    no_parallel: no OpenMP; every loop on the calling thread (--no-parallel)
    l2_cache_kib: one core's L2 size that tiling plans for (--l2-cache-kib)
    drop_assertions: compile without the program's run-time checks
        (--drop-assertions)
    extra_flags: further pbtool flags, as written on its command line
    """

    target: str = "cpu"
    cpu: str = "host"
    cpu_features: str = ""
    chip: str = ""
    no_parallel: bool = False
    l2_cache_kib: int = 0
    drop_assertions: bool = False
    extra_flags: tuple = ()

    @classmethod
    def from_kwargs(cls, **kwargs):
        """Options from keyword arguments, rejecting unknown ones by name."""
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(kwargs) - names)
        if unknown:
            raise TypeError("unknown PolyBlocks option%s %s (known: %s)" % (
                "s" if len(unknown) > 1 else "", ", ".join(unknown),
                ", ".join(sorted(names))))
        if "extra_flags" in kwargs:
            kwargs["extra_flags"] = tuple(kwargs["extra_flags"])
        return cls(**kwargs)

    def flags(self):
        """The pbtool command-line flags for these options."""
        flags = ["--target=" + self.target, "--cpu=" + self.cpu]
        if self.cpu_features:
            flags.append("--cpu-features=" + self.cpu_features)
        if self.chip:
            flags.append("--chip=" + self.chip)
        if self.no_parallel:
            flags.append("--no-parallel")
        if self.l2_cache_kib:
            flags.append("--l2-cache-kib=%d" % self.l2_cache_kib)
        if self.drop_assertions:
            flags.append("--drop-assertions")
        flags.extend(self.extra_flags)
        return flags


def cache_dir():
    """Where compiled programs are kept: ``$XDG_CACHE_HOME/polyblocks``
    (``~/.cache/polyblocks`` when unset)."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(root, "polyblocks")


def compile(program, options=None, name="program"):
    """Compiles MLIR text `program` (a tensor program pbtool accepts) into a
    shared library and loads it: a `Library` whose entry points take and
    return numpy arrays.

    The library is cached under `cache_dir()`, keyed by the program text,
    the flags and the pbtool binary: the same program compiles once. Raises
    CompileError with pbtool's diagnostics when it does not compile.
    """
    options = options or CompileOptions()
    pbtool = find_pbtool()
    flags = options.flags()
    # Encoded once: a network's program is mostly its weights in hex (about
    # 100 MB for ResNet-18), and writing it as text took longer than this.
    source_bytes = program.encode()
    digest = hashlib.sha256("\0".join(
        [pbtool_identity(pbtool)] + flags + [""]).encode())
    digest.update(source_bytes)
    key = digest.hexdigest()
    root = cache_dir()
    entry = os.path.join(root, key)
    library, interface = (os.path.join(entry, "kernel.so"),
                          os.path.join(entry, "interface.json"))
    if os.path.exists(library) and os.path.exists(interface):
        return load(library, interface)

    os.makedirs(root, exist_ok=True)
    work = tempfile.mkdtemp(prefix=".tmp-", dir=root)
    try:
        source = os.path.join(work, name + ".mlir")
        with open(source, "wb") as f:
            f.write(source_bytes)
        command = [pbtool, "compile", source, "--emit=shared",
                   "-o", os.path.join(work, "kernel.so"),
                   "--interface", os.path.join(work, "interface.json")] + flags
        try:
            done = subprocess.run(command, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        except OSError as e:
            raise ToolchainError("cannot run %s: %s" % (pbtool, e)) from None
        if done.returncode != 0:
            raise error_from_diagnostics(done.stderr or done.stdout,
                                         "pbtool compile")
        try:
            os.rename(work, entry)
        except OSError:
            # Another process compiled the same program meanwhile.
            if not os.path.exists(library):
                raise
        else:
            work = None
    finally:
        if work:
            shutil.rmtree(work, ignore_errors=True)
    return load(library, interface)
