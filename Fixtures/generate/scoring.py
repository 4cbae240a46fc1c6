"""Reference beat-matching counts from wfdb-python for Fixtures/scoring/compare_annotations.json.

Synthetic annotation lists only (fixed seeds), at 360 Hz with the 150-ms (54-sample) window:
reference beats of a varying rhythm; detections = reference beats jittered (a few near the window
edge), with some deleted (false negatives), some added (false positives, some inside another
beat's window) and, in one case, a run of double detections. Each case stores both lists and the TP,
FN, FP of wfdb.processing.compare_annotations. That function matches when |difference| < its
window_width (strict), so it is given 55 to match bxb's inclusive 54 samples.

Run: python Fixtures/generate/scoring.py (packages pinned in requirements.txt).
"""

import json
import pathlib

import numpy as np
from wfdb import processing

OUT = pathlib.Path(__file__).resolve().parent.parent / "scoring" / "compare_annotations.json"
RATE = 360
WINDOW = 54


def case(seed, beats, jitter_ms, miss, extra, doubles=0):
    rng = np.random.default_rng(seed)
    rr = np.clip(0.8 + 0.25 * np.sin(np.arange(beats) / 40.0) + 0.08 * rng.standard_normal(beats), 0.3, 2.0)
    reference = np.round(np.cumsum(rr) * RATE).astype(np.int64) + 100
    test = reference + np.round(rng.normal(0, jitter_ms / 1000 * RATE, beats)).astype(np.int64)
    edge = rng.choice(beats, size=beats // 50, replace=False)
    test[edge] = reference[edge] + rng.choice([-1, 1], size=len(edge)) * rng.integers(50, 58, size=len(edge))
    keep = rng.random(beats) >= miss
    test = test[keep]
    added = rng.integers(reference[0], reference[-1], size=int(extra * beats))
    near = reference[rng.choice(beats, size=int(extra * beats) // 2)] + rng.integers(-60, 60, size=int(extra * beats) // 2)
    doubled = reference[rng.choice(beats, size=doubles)] + rng.integers(20, 50, size=doubles)
    test = np.sort(np.concatenate([test, added, near, doubled]))
    comparitor = processing.compare_annotations(reference, test, WINDOW + 1)
    return {
        "name": f"seed{seed}",
        "reference": [int(x) for x in reference],
        "test": [int(x) for x in test],
        "truePositives": int(comparitor.tp),
        "falseNegatives": int(comparitor.fn),
        "falsePositives": int(comparitor.fp),
    }


def main():
    cases = [
        case(1, 800, 8, 0.002, 0.002),
        case(2, 800, 20, 0.02, 0.02),
        case(3, 600, 30, 0.05, 0.08),
        case(4, 600, 15, 0.01, 0.01, doubles=60),
    ]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"sampleRate": RATE, "window": WINDOW, "cases": cases}) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")
    for c in cases:
        print(c["name"], c["truePositives"], c["falseNegatives"], c["falsePositives"])


if __name__ == "__main__":
    main()
