"""Reference vectors for VitalsCore's FIR design, polyphase resampling and decimation.

Writes
  Fixtures/fir/firwin.json                 scipy.signal.firwin coefficients (hamming and kaiser windows,
                                           every pass type, transition-width design, kaiser_beta/atten)
  Fixtures/resampling/resample_poly.json   scipy.signal.resample_poly outputs (default Kaiser(5.0) design,
                                           constant zero padding) for several (up, down) pairs
  Fixtures/resampling/decimate.json        scipy.signal.decimate(ftype='fir', zero_phase=False) outputs

Inputs are synthetic (fixed seed) and rounded to float32, so the Swift tests feed exactly the samples
SciPy saw; SciPy computes in float64. Run with the pinned packages of requirements.txt.
"""

import json
import pathlib

import numpy as np
import scipy
from scipy import signal

ROOT = pathlib.Path(__file__).resolve().parent.parent


def float32_list(values):
    # Nine significant digits identify a float32 exactly.
    return [float(f"{v:.9g}") for v in np.asarray(values, dtype=np.float32)]


def rounded(values, digits=12):
    return [float(f"{v:.{digits}g}") for v in np.asarray(values, dtype=np.float64)]


def synthetic(seed, n, rate):
    """A float32 test signal: two tones, a step and white noise."""
    rng = np.random.default_rng(seed)
    t = np.arange(n) / rate
    x = np.sin(2 * np.pi * 1.3 * t) + 0.4 * np.sin(2 * np.pi * 0.31 * rate * t) + 0.1 * rng.standard_normal(n)
    x[n // 2 :] += 0.5
    return np.asarray(x, dtype=np.float32)


def write(path, payload):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, separators=(",", ":")) + "\n")
    print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size} bytes)")


def firwin_cases():
    cases = []

    def add(name, numtaps, cutoff, pass_zero, window, fs=2.0, width=None, scale=True):
        kwargs = dict(pass_zero=pass_zero, fs=fs, scale=scale)
        if width is None:
            kwargs["window"] = window
        else:
            kwargs["width"] = width
        taps = signal.firwin(numtaps, cutoff, **kwargs)
        cases.append(
            dict(
                name=name,
                numtaps=numtaps,
                cutoff=list(np.atleast_1d(cutoff).astype(float)),
                pass_type=pass_zero,
                window=window if isinstance(window, str) else "kaiser",
                kaiser_beta=float(window[1]) if isinstance(window, tuple) else None,
                width=width,
                fs=fs,
                scale=scale,
                coefficients=list(map(float, taps)),
            )
        )

    add("lowpass hamming 31", 31, 0.2, "lowpass", "hamming")
    add("lowpass hamming even 40", 40, 0.35, "lowpass", "hamming")
    add("lowpass hamming 101 at 360 Hz", 101, 40.0, "lowpass", "hamming", fs=360.0)
    add("highpass hamming 51", 51, 0.1, "highpass", "hamming")
    add("bandpass hamming 65 at 250 Hz", 65, [5.0, 15.0], "bandpass", "hamming", fs=250.0)
    add("bandstop hamming 81", 81, [0.25, 0.35], "bandstop", "hamming")
    add("lowpass hamming unscaled 21", 21, 0.5, "lowpass", "hamming", scale=False)
    add("lowpass kaiser 5.0 201", 201, 0.1, "lowpass", ("kaiser", 5.0))
    add("bandpass kaiser 8.6 99", 99, [0.2, 0.4], "bandpass", ("kaiser", 8.6))
    add("highpass kaiser 12 73", 73, 0.6, "highpass", ("kaiser", 12.0))
    add("lowpass width-designed 61 at 100 Hz", 61, 20.0, "lowpass", "width", fs=100.0, width=6.0)
    add("lowpass width-designed 15", 15, 0.3, "lowpass", "width", width=0.4)

    beta = [dict(attenuation=a, beta=float(signal.kaiser_beta(a))) for a in (10.0, 21.0, 30.0, 50.0, 60.0, 90.0)]
    atten = [
        dict(numtaps=n, width=w, attenuation=float(signal.kaiser_atten(n, w)))
        for n, w in ((11, 0.1), (61, 0.12), (201, 0.05))
    ]
    return dict(scipy=scipy.__version__, firwin=cases, kaiser_beta=beta, kaiser_atten=atten)


def resample_cases():
    pairs = [(4, 5), (2, 1), (1, 3), (125, 360), (250, 360), (5, 2), (3, 3)]
    x = synthetic(seed=20260521, n=500, rate=360.0)
    cases = []
    for up, down in pairs:
        y = signal.resample_poly(np.asarray(x, dtype=np.float64), up, down)
        cases.append(dict(up=up, down=down, output=rounded(y)))
    return dict(scipy=scipy.__version__, input=float32_list(x), cases=cases)


def decimate_cases():
    x = synthetic(seed=7, n=400, rate=250.0)
    cases = []
    for q in (2, 3, 5):
        y = signal.decimate(np.asarray(x, dtype=np.float64), q, ftype="fir", zero_phase=False)
        cases.append(dict(factor=q, output=rounded(y)))
    return dict(scipy=scipy.__version__, input=float32_list(x), cases=cases)


if __name__ == "__main__":
    write(ROOT / "fir" / "firwin.json", firwin_cases())
    write(ROOT / "resampling" / "resample_poly.json", resample_cases())
    write(ROOT / "resampling" / "decimate.json", decimate_cases())
