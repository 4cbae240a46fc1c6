#!/usr/bin/env python3
"""The size and layering rules of CONTRIBUTING.md ("House rules") that a script can check, over Sources/:

- no function, initializer or subscript body over 80 lines, unless the line above its declaration (above
  its attributes and doc comment) is a comment starting `// A SIMD kernel kept in one piece` or
  `// A scan kernel kept in one piece`, saying why;
- no doc comment over 40 lines;
- no file of Sources/VitalsCLI over 150 lines but OptionRanges.swift (a table of option ranges);
- Sources/VitalsCLI imports Vitals and ArgumentParser only;
- README.md at most 300 lines.

Prints each breach as FILE:LINE: message and exits 1 when there is any. The CLI's use of `package`
symbols is checked by scripts/checks/cli_public_api.sh, which needs a build.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
DECLARATION = re.compile(
    r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:public|package|private|fileprivate|internal|static|final|"
    r"override|mutating|nonisolated|convenience|required|class)\s+)*"
    r"(?:func\s+\S+|init[?!]?\s*[<(]|deinit\b|subscript\b)")
EXEMPT = ("// A SIMD kernel kept in one piece", "// A scan kernel kept in one piece")


def code_of(line: str) -> str:
    """The line without string literals and `//` comments, for brace counting."""
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    return line.split("//")[0]


def long_bodies(lines: list[str]):
    """(first line, length, declaration) of every function-like body over 80 lines."""
    index = 0
    while index < len(lines):
        if not DECLARATION.match(lines[index]):
            index += 1
            continue
        depth, opened, end = 0, False, index
        while end < len(lines):
            for character in code_of(lines[end]):
                if character == "{":
                    depth, opened = depth + 1, True
                elif character == "}":
                    depth -= 1
            if (opened and depth <= 0) or (not opened and end > index + 20):
                break
            end += 1
        length = end - index + 1
        if opened and length > 80:
            above = index - 1
            while above >= 0 and lines[above].strip().startswith(("@", "///")):
                above -= 1
            if not (above >= 0 and lines[above].strip().startswith(EXEMPT)):
                yield index + 1, length, lines[index].strip()
            index = end + 1
        else:
            index += 1


def main() -> int:
    breaches = []
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        relative = path.relative_to(ROOT)
        lines = path.read_text(encoding="utf-8").split("\n")
        for line, length, declaration in long_bodies(lines):
            breaches.append(f"{relative}:{line}: {length} lines, over 80: {declaration[:60]}")
        run = 0
        for number, line in enumerate(lines + [""], start=1):
            if line.strip().startswith("///"):
                run += 1
                continue
            if run > 40:
                breaches.append(f"{relative}:{number - run}: doc comment of {run} lines, over 40")
            run = 0
        if relative.parts[1] == "VitalsCLI":
            if len(lines) - 1 > 150 and path.name != "OptionRanges.swift":
                breaches.append(f"{relative}:1: {len(lines) - 1} lines, over 150 for a command file")
            for number, line in enumerate(lines, start=1):
                match = re.match(r"^\s*(?:@\w+\s+)?import\s+(\w+)", line)
                if match and match.group(1) not in ("Vitals", "ArgumentParser"):
                    breaches.append(f"{relative}:{number}: the CLI imports {match.group(1)}")
    readme = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    if readme > 300:
        breaches.append(f"README.md:1: {readme} lines, over 300")
    for breach in breaches:
        print(breach)
    print(f"house rules: {len(breaches)} breaches" if breaches else "house rules: none broken")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
