"""Builds the Vitals C library and ships it inside the package.

``build_py`` runs ``swift build -c release --product VitalsC`` in the repository this directory
belongs to (with ``-Xcc -march=x86-64-v3`` when the CPU has AVX2, as the Makefile's ARCH_FLAGS)
and copies ``libVitalsC.so`` and ``vitals.h`` into ``vitals/_lib/``. When the environment variable
``VITALS_LIBRARY`` names an already built ``libVitalsC.so``, that file is copied instead.

The wheel holds a native library but no Python extension: it is tagged ``py3-none-<platform>``.
"""

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


def library() -> pathlib.Path:
    """``$VITALS_LIBRARY`` when set, else the release library built now with SwiftPM."""
    configured = os.environ.get("VITALS_LIBRARY")
    if configured:
        return pathlib.Path(configured)
    if not HEADER.exists():
        raise SystemExit(f"vitals: {HEADER} not found: build from a clone of the Vitals repository")
    scratch = REPOSITORY / ".build"
    command = ["swift", "build", "-c", "release", "--product", "VitalsC", "--package-path", str(REPOSITORY)]
    command += ["--scratch-path", str(scratch), *architecture_flags()]
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
