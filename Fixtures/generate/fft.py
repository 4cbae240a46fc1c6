#!/usr/bin/env python3
"""Reference vectors for VitalsFFT: windows, Welch PSD and Lomb-Scargle from SciPy.

Writes Fixtures/fft/{windows,welch,lombscargle}.json from synthetic inputs drawn with fixed seeds.
Requires the pinned numpy/scipy of Fixtures/generate/requirements.txt (scipy 1.17.1).
"""
import json
import pathlib
import warnings

import numpy as np
import scipy
import scipy.signal as signal

OUT = pathlib.Path(__file__).resolve().parent.parent / "fft"

# (scipy window spec, the Swift case it corresponds to, as a name + optional parameter)
WINDOWS = [
    ("boxcar", None), ("triang", None), ("bartlett", None), ("hann", None), ("hamming", None),
    ("blackman", None), ("blackmanharris", None), ("nuttall", None), ("flattop", None),
    ("cosine", None), ("bohman", None), ("parzen", None), ("barthann", None),
    ("tukey", 0.25), ("tukey", 0.7), ("kaiser", 8.0), ("kaiser", 0.5), ("gaussian", 2.5),
]
WINDOW_SIZES = [1, 2, 3, 5, 16, 33]


def window_spec(name, parameter):
    return name if parameter is None else (name, parameter)


def windows():
    cases = []
    for name, parameter in WINDOWS:
        for m in WINDOW_SIZES:
            for periodic in (True, False):
                w = signal.get_window(window_spec(name, parameter), m, fftbins=periodic)
                cases.append({"name": name, "parameter": parameter, "count": m,
                              "periodic": periodic, "values": w.tolist()})
    return {"scipy": scipy.__version__, "cases": cases}


def inputs():
    rng = np.random.default_rng(20260521)
    t4 = np.arange(1200) / 4.0  # 5 min of RR intervals resampled at 4 Hz, ms
    tachogram = 820 + 40 * np.sin(2 * np.pi * 0.1 * t4) + 25 * np.sin(2 * np.pi * 0.27 * t4 + 1) \
        + 6 * rng.standard_normal(t4.size) + 0.05 * t4
    t125 = np.arange(1000) / 125.0  # 8 s of PPG at 125 Hz, arbitrary unit
    ppg = np.sin(2 * np.pi * 1.3 * t125) + 0.4 * np.sin(2 * np.pi * 2.6 * t125 + 0.3) \
        + 0.2 * rng.standard_normal(t125.size) + 0.3 * t125
    ppg_single = ppg.astype(np.float32).astype(np.float64)  # exactly representable as Float
    short = rng.standard_normal(37)
    return {"tachogram": tachogram, "ppg": ppg, "ppgSingle": ppg_single, "short": short}


WELCH_CASES = [
    # input, fs, window, nperseg, noverlap, nfft, detrend, scaling, average, onesided
    ("tachogram", 4.0, ("hann", None), 256, None, None, "constant", "density", "mean", True),
    ("tachogram", 4.0, ("hamming", None), 300, 100, 512, "linear", "spectrum", "median", True),
    ("tachogram", 4.0, ("blackman", None), 128, 96, 255, "none", "density", "median", True),
    ("tachogram", 4.0, ("hann", None), 1000, 0, 1500, "linear", "density", "mean", True),
    ("ppg", 125.0, ("boxcar", None), 250, 0, None, "constant", "density", "mean", False),
    ("ppg", 125.0, ("tukey", 0.25), 200, 150, 1024, "constant", "spectrum", "mean", True),
    ("ppg", 125.0, ("kaiser", 8.0), 333, 100, None, "linear", "density", "mean", False),
    ("ppg", 125.0, ("flattop", None), 125, 62, 125, "constant", "spectrum", "median", True),
    ("ppgSingle", 125.0, ("hann", None), 250, 125, 1024, "constant", "density", "mean", True),
    ("short", 1.0, ("hann", None), 256, None, None, "constant", "density", "mean", True),
]


def welch(data):
    cases = []
    for name, fs, (window, parameter), nperseg, noverlap, nfft, detrend, scaling, average, onesided in WELCH_CASES:
        f, p = signal.welch(data[name], fs=fs, window=window_spec(window, parameter), nperseg=nperseg,
                            noverlap=noverlap, nfft=nfft, detrend=False if detrend == "none" else detrend,
                            return_onesided=onesided, scaling=scaling, average=average)
        cases.append({"input": name, "sampleRate": fs, "window": window, "parameter": parameter,
                      "segmentLength": nperseg, "overlap": noverlap, "fftLength": nfft, "detrend": detrend,
                      "scaling": scaling, "average": average, "onesided": onesided,
                      "frequencies": f.tolist(), "power": p.tolist()})
    return {"scipy": scipy.__version__, "inputs": {k: v.tolist() for k, v in data.items()}, "cases": cases}


def lombscargle():
    rng = np.random.default_rng(7)
    times = np.sort(rng.uniform(0, 60, 200))  # irregular beat times, s
    values = 2 * np.cos(2 * np.pi * 0.2 * times + 0.5) + 1.5 + 0.3 * rng.standard_normal(times.size)
    weights = rng.uniform(0.2, 2.0, times.size)
    omegas = 2 * np.pi * np.linspace(0.02, 1.0, 120)
    cases = []
    for weighted in (False, True):
        for floating_mean in (False, True):
            for normalize in ("power", "normalize", "amplitude"):
                p = signal.lombscargle(times, values, omegas, normalize=normalize,
                                       weights=weights if weighted else None, floating_mean=floating_mean)
                case = {"weighted": weighted, "floatingMean": floating_mean, "normalize": normalize}
                if normalize == "amplitude":
                    case["real"], case["imaginary"] = p.real.tolist(), p.imag.tolist()
                else:
                    case["real"] = p.tolist()
                cases.append(case)
    return {"scipy": scipy.__version__, "times": times.tolist(), "values": values.tolist(),
            "weights": weights.tolist(), "angularFrequencies": omegas.tolist(), "cases": cases}


def main():
    # The "short" case asks for a segment longer than its input on purpose (SciPy shortens it).
    warnings.filterwarnings("ignore", message="nperseg=256 is greater than signal length")
    OUT.mkdir(parents=True, exist_ok=True)
    for name, payload in (("windows", windows()), ("welch", welch(inputs())), ("lombscargle", lombscargle())):
        (OUT / f"{name}.json").write_text(json.dumps(payload, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
