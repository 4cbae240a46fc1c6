"""Builds the Vitals C library and ships it inside the package.

``build_py`` runs ``swift build -c release --product VitalsC`` in the repository this directory
belongs to, into ``.build/python`` (with ``-Xcc -march=x86-64-v3`` when the CPU has AVX2, as the
Makefile's ARCH_FLAGS), with the Swift runtime linked in (``-static-stdlib``) so that the library
needs no Swift toolchain where it is installed, only FFTW and the C/C++ runtime; it copies
``libVitalsC.so`` and ``vitals.h`` into ``vitals/_lib/``. When the environment variable
``VITALS_LIBRARY`` names an already built ``libVitalsC.so``, that file is copied instead.

The wheel holds a native library but no Python extension: it is tagged ``py3-none-<platform>``.
"""

import json
import os
import pathlib
import re
import shutil
import subprocess

from setuptools import setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent
HEADER = REPOSITORY / "Sources" / "CVitals" / "include" / "vitals.h"


def architecture_flags() -> list[str]:
    """``-Xcc -march=x86-64-v3`` when this machine's CPU has AVX2 (wide SIMD kernels)."""
    try:
        cpu = pathlib.Path("/proc/cpuinfo").read_text()
    except OSError:
        return []
    return ["-Xcc", "-march=x86-64-v3"] if re.search(r"\bavx2\b", cpu) else []


def static_runtime_flags() -> list[str]:
    """The flags that link the Swift runtime into the library: ``-static-stdlib`` and the
    toolchain's ``swift_static`` directory (which SwiftPM does not add for dynamic libraries)."""
    info = json.loads(subprocess.run(["swift", "-print-target-info"], check=True, capture_output=True).stdout)
    resources = pathlib.Path(info["paths"]["runtimeResourcePath"])
    static = resources.parent / "swift_static" / info["target"]["unversionedTriple"].split("-")[2]
    return ["-Xswiftc", "-static-stdlib", "-Xlinker", f"-L{static}"]


def library() -> pathlib.Path:
    """``$VITALS_LIBRARY`` when set, else the release library built now with SwiftPM."""
    configured = os.environ.get("VITALS_LIBRARY")
    if configured:
        return pathlib.Path(configured)
    if not HEADER.exists():
        raise SystemExit(f"vitals: {HEADER} not found: build from a clone of the Vitals repository")
    scratch = REPOSITORY / ".build" / "python"
    command = ["swift", "build", "-c", "release", "--product", "VitalsC", "--package-path", str(REPOSITORY)]
    command += ["--scratch-path", str(scratch), *architecture_flags(), *static_runtime_flags()]
    print("vitals: " + " ".join(command), flush=True)
    subprocess.run(command, check=True)
    return scratch / "release" / "libVitalsC.so"


class BuildWithLibrary(build_py):
    """``build_py`` that also puts libVitalsC.so and vitals.h into ``vitals/_lib``."""

    def run(self) -> None:
        super().run()
        target = pathlib.Path(self.build_lib) / "vitals" / "_lib"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(library(), target / "libVitalsC.so")
        shutil.copyfile(HEADER, target / "vitals.h")


class PlatformWheel(bdist_wheel):
    """A wheel for any Python 3 on this platform (the library is not a CPython extension)."""

    def get_tag(self) -> tuple[str, str, str]:
        return "py3", "none", super().get_tag()[2]


class BinaryDistribution(Distribution):
    """A distribution with native code: installed to platlib, its wheel not pure."""

    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildWithLibrary, "bdist_wheel": PlatformWheel}, distclass=BinaryDistribution)
