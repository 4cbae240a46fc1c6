# Vitals: the two commands of the README's quick start are `make run` and `make test`; `make help` lists
# every target. A line starting with `##` just above a target is its entry in `make help`.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
EXAMPLE ?= Fixtures/examples/simulated-ecg.csv
PYTHON_ENV = .venv-python
# Wide SIMD lanes (AVX2, FMA) when the building machine has them: see the Vitals catalog's
# "Build settings" article.
ARCH_FLAGS ?= $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && echo -Xcc -march=x86-64-v3)
# The debug build of the tests, the malformed corpus and the docs: every warning is an error, and no
# debug information (a failing test names its source line without it, and a clean build takes a fifth
# less CPU; build without these flags to debug with lldb).
DEBUG_FLAGS = $(ARCH_FLAGS) -Xswiftc -warnings-as-errors -Xswiftc -gnone
FORMAT_PATHS = Sources Tests Benchmarks/Benchmarks Benchmarks/Support Benchmarks/Package.swift Package.swift \
  scripts/eval/Sources scripts/eval/Package.swift Fuzz

.PHONY: help deps build run example test test-build test-unit test-release-build test-python test-docs python bench-python lint docs fixtures format bench-fftw-c fuzz malformed eval-ecg \
  eval-rhythm eval-quality eval-classify fit-classify memory compare-readers compare-ecg eval-steps eval-steps-mobilise-d \
  compare-stats check-pipeline eval-ppg compare-ppg bench bench-check bench-thresholds compare scaling demo-derived accuracy performance slurm-check \
  profile profile-stages

## Lists the targets with a line each.
help:
	@awk '/^## /{text=substr($$0, 4); next} /^[a-z][a-z-]*:/{if (text != "") printf "  %-18s %s\n", substr($$1, 1, length($$1) - 1), text} {text=""}' $(MAKEFILE_LIST)

## Installs libfftw3-dev, pkg-config and tzdata when missing (Debian/Ubuntu; every build target runs it).
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists fftw3 fftw3f; then \
	  echo "Installing libfftw3-dev and pkg-config"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libfftw3-dev pkg-config; \
	fi
	@if [ ! -d /usr/share/zoneinfo ]; then \
	  echo "Installing tzdata"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tzdata; \
	fi

# The standard library linked statically: every `vitals` process starts about 2 ms sooner (no dynamic
# symbol binding), which pipelines that start one per file notice; the binary is 39 MB instead of 18.
## The release `vitals` binary in .build/release (wide SIMD lanes on AVX2 machines).
build: deps
	$(SWIFT) build -c release $(ARCH_FLAGS) --static-swift-stdlib --product vitals

## Quick start: builds in release and runs the main job on the bundled example.
run: build
	.build/release/vitals info $(EXAMPLE)
	.build/release/vitals beats $(EXAMPLE) -o .build/example-beats.csv
	.build/release/vitals score --reference $(EXAMPLE:.csv=.truth.csv) --test .build/example-beats.csv --rate 250 --skip 30
	.build/release/vitals hrv $(EXAMPLE)

# 2 minutes of ambulatory ECG at 250 Hz with 3 % premature ventricular beats, and its truth.
## Regenerates the bundled example and its truth with `vitals simulate`.
example: build
	.build/release/vitals simulate --signal ecg --duration 120 --rate 250 --seed 7 --pvc 0.03 \
	  --noise ambulatory -o $(EXAMPLE)

# Checks the formatting and the size rules, then builds the package and its tests (debug, warnings as
# errors, with the AVX2 kernels when the machine has them, so that both kernels of the CSV reader are
# tested) beside one release build (make test-release-build): it compiles one module at a time for long
# stretches, and the debug build fills the other core. Checks that the CLI uses the public API only and
# that C compiles against vitals.h, then runs the unit tests (tests that need ../shared/data skip when it
# is absent) beside the benchmarks' allocation gate on the release build (make bench-check, one core),
# the DocC catalogs of the debug build and the Python test environment's install; last, alone so that
# its two-thread test has both cores, the Python package's tests (make test-python) on the release
# build's library. Nothing builds twice. Each job's output is printed whole when it ends. The SHA-256 of
# every file of Fixtures/ and ../shared/data is compared before and after: no test may modify an input.
## Quick start: the whole check that CI runs (.ci/run).
test: deps lint
	$(MAKE) -j2 --output-sync=target test-build test-release-build
	scripts/checks/cli_public_api.sh
	scripts/checks/c_abi_smoke.sh .build/debug
	scripts/inputs_unchanged.sh record .build/inputs.sha256
	$(MAKE) -j4 --output-sync=target test-unit bench-check test-docs $(PYTHON_ENV)/ready \
	  BENCH_CHECK_OPTIONS=--built
	$(MAKE) test-python PYTHON_TEST_BUILD=
	scripts/inputs_unchanged.sh verify .build/inputs.sha256

# The unit tests of make test's debug build.
test-unit:
	$(SWIFT) test --skip-build

# The debug build of make test: the package, its tests and libVitalsC.so (the C library c_abi_smoke.sh
# compiles against).
test-build: deps
	$(SWIFT) build --build-tests $(DEBUG_FLAGS)

# The release build of Benchmarks/ (the allocation gate's suites) with the root package's libVitalsC.so
# and vitals built from the same release modules, for the Python tests: one release compile of the
# package serves both, and the Python tests load the library as `pip install ./python` builds it
# (release, the default target).
RELEASE_TEST_BUILD = Benchmarks/.build/release
test-release-build: deps
	scripts/bench/thresholds.sh build VitalsC vitals

# The pinned packages of the Python package's tests (pytest, dask.distributed, NeuroKit2 for the
# compatibility layer), in a local virtual environment; python3-venv is installed when missing.
$(PYTHON_ENV)/ready: python/requirements-test.txt
	@python3 -c 'import ensurepip, venv' 2>/dev/null || \
	  { echo "Installing python3-venv"; $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-venv; }
	python3 -m venv $(PYTHON_ENV)
	$(PYTHON_ENV)/bin/pip install -q -r python/requirements-test.txt
	touch $@

# What test-python builds first (make test, having built it, passes nothing).
PYTHON_TEST_BUILD = test-release-build
## The Python package's tests (pytest) on make test's release library, installed as a user would.
test-python: $(PYTHON_ENV)/ready $(PYTHON_TEST_BUILD)
	VITALS_LIBRARY=$(CURDIR)/$(RELEASE_TEST_BUILD)/libVitalsC.so $(PYTHON_ENV)/bin/pip install -q --no-deps \
	  --no-build-isolation --force-reinstall ./python
	VITALS_CLI=$(CURDIR)/$(RELEASE_TEST_BUILD)/vitals $(PYTHON_ENV)/bin/pytest -q python/tests

## Installs the Python package into the active Python (builds libVitalsC in release with the toolchain).
python: deps
	python3 -m pip install ./python

## The Python package's benchmarks on a release build: call overhead, ecg_peaks, Dask scaling, merges.
bench-python: deps $(PYTHON_ENV)/ready
	$(SWIFT) build -c release $(ARCH_FLAGS) --product VitalsC
	$(SWIFT) build -c release $(ARCH_FLAGS) --product vitals
	VITALS_LIBRARY=$(CURDIR)/.build/release/libVitalsC.so $(PYTHON_ENV)/bin/pip install -q --no-deps \
	  --no-build-isolation --force-reinstall ./python
	scripts/bench/simulated_days.sh .build/release/vitals .build/simulated-days 4
	VITALS_CLI=$(CURDIR)/.build/release/vitals $(PYTHON_ENV)/bin/python python/benchmarks/bench.py \
	  --long .build/simulated-days --json .build/bench-python.json | tee .build/bench-python.md

# The DocC catalogs from make test's debug build.
test-docs:
	scripts/docs/build.sh

## `swift format lint --strict` over the Swift sources, and the size rules of CONTRIBUTING.md.
lint:
	$(SWIFT) format lint --strict --parallel --recursive $(FORMAT_PATHS)
	python3 scripts/checks/house_rules.py

## Rewrites the Swift sources of the repository in the house format (.swift-format).
format:
	$(SWIFT) format --in-place --recursive $(FORMAT_PATHS)

## The DocC catalog of every public module, warnings as errors, into .build/docs/MODULE.doccarchive.
docs: deps
	$(SWIFT) build $(DEBUG_FLAGS)
	scripts/docs/build.sh

# The pinned Python packages of Fixtures/generate/requirements.txt, in a local virtual environment.
.venv-fixtures/ready: Fixtures/generate/requirements.txt
	python3 -m venv .venv-fixtures
	.venv-fixtures/bin/pip install -q -r Fixtures/generate/requirements.txt
	touch $@

## Regenerates the reference vectors under Fixtures/ (SciPy, wfdb, pyedflib, NeuroKit2, pinned).
fixtures: .venv-fixtures/ready
	for script in Fixtures/generate/*.py; do .venv-fixtures/bin/python "$$script" || exit 1; done

## Vitals' readers against pandas, pyedflib and wfdb-python on the same generated files, same run.
compare-readers: build .venv-fixtures/ready
	.venv-fixtures/bin/python scripts/peers/compare_readers.py

## Vitals' QRS detector against NeuroKit2's on ../shared/data/mitdb: accuracy and speed, same run.
compare-ecg: build .venv-fixtures/ready
	.venv-fixtures/bin/python scripts/peers/compare_ecg.py

## FFTW timed from C: the reference for the FFT benchmark suite's `RealFFT forward Float 4096`.
bench-fftw-c: deps
	mkdir -p .build
	$(CC) -O2 -o .build/fftw-bench Benchmarks/fftw-c/fftw_bench.c $$(pkg-config --cflags --libs fftw3f) -lm
	.build/fftw-bench 4096 estimate
	.build/fftw-bench 4096 measure

# Builds the libFuzzer targets of Fuzz/ once, then runs each of FUZZ_TARGETS for FUZZ_SECONDS (crashes,
# timeouts and out-of-memory inputs land in Fuzz/artifacts/TARGET/); fails when any target found one.
FUZZ_SECONDS ?= 120
FUZZ_TARGETS ?= WFDBHeaderFuzz WFDBSignalFuzz WFDBAnnotationFuzz EDFFuzz CSVFuzz AppleHealthECGFuzz \
  HealthExportFuzz SamplesFileFuzz StreamFuzz BeatCSVFuzz
## Every libFuzzer target of Fuzz/ for FUZZ_SECONDS (default 120) each.
fuzz: deps
	scripts/fuzz.sh build
	failed=""; for t in $(FUZZ_TARGETS); do FUZZ_BUILD=0 scripts/fuzz.sh $$t $(FUZZ_SECONDS) || failed="$$failed $$t"; done; \
	if [ -n "$$failed" ]; then echo "findings in:$$failed"; exit 1; fi

# MALFORMED_OUT=DIR also writes the corpus there, one directory per case.
## The malformed-input corpus alone: damaged inputs through the debug `vitals`, bounded in time and memory.
malformed: deps
	$(SWIFT) build --build-tests $(DEBUG_FLAGS)
	VITALS_MALFORMED_OUT=$(MALFORMED_OUT) $(SWIFT) test --skip-build --filter MalformedCorpusTests

# The evaluation tools of scripts/eval print their results on stdout; the build's progress goes to stderr.
EVAL = $(SWIFT) build -c release $(ARCH_FLAGS) --package-path scripts/eval --product
EVAL_BIN = scripts/eval/.build/release
CLASSIFIER_MODEL = Sources/VitalsAnalysis/ECG/Classification/ElectrocardiogramModel+Fitted.swift

## QRS detection on ../shared/data: MIT-BIH per record and gross, NSTDB by SNR, HRV, AF per 30 s.
eval-ecg: deps
	$(EVAL) ecg-eval >&2
	$(EVAL_BIN)/ecg-eval

## AF per 30 s on ../shared/data MIT-BIH and CPSC 2021, with and without beat classes, with CV.
eval-rhythm: deps
	$(EVAL) rhythm-eval >&2
	$(EVAL_BIN)/rhythm-eval

## ECG signal quality (kSQI) on clean and noise-stressed MIT-BIH: share marked, detection F1 in and out.
eval-quality: deps
	$(EVAL) quality-eval >&2
	$(EVAL_BIN)/quality-eval

# classify-eval measures every recording's features (into .build/classify-features.csv) and prints the all-data
# figures of the committed model; fit_classifier.py prints the cross-validated ones from those features.
## 30-s ECG classification: CinC 2017 confusion and F1 (CV and all-data), MIT-BIH/CPSC 2021 pieces, time.
eval-classify: deps .venv-fixtures/ready
	$(EVAL) classify-eval >&2
	mkdir -p .build
	$(EVAL_BIN)/classify-eval --features .build/classify-features.csv
	.venv-fixtures/bin/python scripts/eval/fit_classifier.py .build/classify-features.csv

## Refits the 30-s ECG classifier's model on ../shared/data and rewrites its Swift parameters (then review).
fit-classify: deps .venv-fixtures/ready
	$(EVAL) classify-eval >&2
	mkdir -p .build
	$(EVAL_BIN)/classify-eval --features .build/classify-features.csv >/dev/null
	.venv-fixtures/bin/python scripts/eval/fit_classifier.py .build/classify-features.csv --write $(CLASSIFIER_MODEL)
	$(SWIFT) format --in-place $(CLASSIFIER_MODEL)

# Leave-one-recording-out CV over both sets chooses four estimator settings (ppg-eval --cv).
## PPG heart rate on ../shared/data (SPC 2015, BAMI-1): MAE per recording and set, CNN-LSTM, CV, PPG vs ECG, PRV.
eval-ppg: deps
	$(EVAL) ppg-eval >&2
	$(EVAL_BIN)/ppg-eval --cv

# Leave-one-group-out CV (an Oxford walker, a Clemson trial) chooses three bout-start settings, and
# leave-one-trial-out the foot tracker's alternation weight (--cv).
## Steps on ../shared/data: Oxford counts, Clemson counts and F1 per placement, false steps in non-walking, feet and asymmetry, CV.
eval-steps: deps
	$(EVAL) steps-eval >&2
	$(EVAL_BIN)/steps-eval --cv

# The trials come from mobgap's source distribution on PyPI (pinned, hash-checked), into .build/external;
# without the network the section says it was skipped.
## Steps and the step-length model at the lower back on recordings from outside ../shared/data (Mobilise-D lab data).
eval-steps-mobilise-d: deps .venv-fixtures/ready
	.venv-fixtures/bin/python scripts/eval/mobilise_d_steps.py --cache .build/external --out .build/external/mobilise-d
	$(EVAL) steps-eval >&2
	$(EVAL_BIN)/steps-eval --mobilise-d .build/external/mobilise-d

## docs/accuracy.md: the eval-* targets' tables, with the commit, date and machine.
accuracy: deps
	scripts/docs/measured.sh docs/accuracy.md "Accuracy" eval-ecg eval-rhythm eval-quality eval-classify eval-ppg \
	  eval-steps eval-steps-mobilise-d

## Peak resident memory streaming a 24-hour, 3-channel, 500 Hz recording (EDF and CSV).
memory: build
	scripts/long_record_memory.sh

## The statistics aggregator against pandas and the export.xml reader against ElementTree, same run.
compare-stats: deps .venv-fixtures/ready
	$(EVAL) stats-eval >&2
	.venv-fixtures/bin/python scripts/peers/compare_aggregation.py

## `vitals analyze` with 1 and 2 jobs (MIT-BIH, four 24-hour ECGs), its peak memory on 24 hours, `vitals stream` latency and memory.
check-pipeline: build
	scripts/pipeline_check.sh

## Runs the Slurm recipes of the docs on a one-node Slurm on this machine (installs slurm-wlm and munge; needs root).
slurm-check: build
	$(SWIFT) build -c release $(ARCH_FLAGS) --product VitalsC
	scripts/checks/slurm_recipes.sh

## PPG heart rate, Vitals against NeuroKit2 on the 12 SPC 2015 recordings: MAE and CPU-time ratio.
compare-ppg: build .venv-fixtures/ready
	.venv-fixtures/bin/python scripts/peers/compare_ppg.py

## Every benchmark suite of Benchmarks/ (release build of the nested package), or one: SUITE=HRV.
bench: deps
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark $(if $(SUITE),--target $(SUITE))

# Allocations per iteration of every benchmark must equal Benchmarks/Thresholds/<Swift major.minor>/
# (deterministic; wall clock is not gated). The suites are built by one release build of Benchmarks/
# and run by BenchmarkTool directly (see scripts/bench/thresholds.sh for why not the plugin).
## The benchmarks' allocation gate (part of make test).
bench-check: deps
	scripts/bench/thresholds.sh check $(BENCH_CHECK_OPTIONS)

## Rewrites the allocation thresholds after an intended change (review the diff, then commit).
bench-thresholds: deps
	scripts/bench/thresholds.sh update

## Every scripts/peers/compare_*.py in one run: Vitals against its fastest peer per stage (.build/compare.md).
compare: build .venv-fixtures/ready
	$(EVAL) stats-eval >&2
	.venv-fixtures/bin/python scripts/peers/compare.py --markdown .build/compare.md --json .build/compare.json

## Where the CPU time of each compare row's work goes, stage by stage, against each stage's machine limit (perf).
profile-stages: build .venv-fixtures/ready
	@command -v perf >/dev/null || { echo "Installing linux-perf"; $(SUDO) apt-get install -y -qq linux-perf; }
	$(EVAL) stats-eval >&2
	.venv-fixtures/bin/python scripts/bench/profile.py > .build/profile.md

## docs/profile.md: the table of make profile-stages, with the commit, date and machine.
profile: deps
	scripts/docs/measured.sh docs/profile.md "Profile" profile-stages=.build/profile.md

## docs/performance.md: the tables of make compare and make bench-python, with the commit, date and machine.
performance: deps
	scripts/docs/measured.sh docs/performance.md "Performance" compare=.build/compare.md \
	  bench-python=.build/bench-python.md

## Time and peak memory against recording length and number of files: docs/scaling.csv and .svg.
scaling: build .venv-fixtures/ready
	.venv-fixtures/bin/python scripts/bench/scaling.py --csv docs/scaling.csv --plot docs/scaling.svg

## A simulated two-day ECG + accelerometer recording through vitals analyze and vitals stats.
demo-derived: build
	scripts/derived_metrics_demo.sh
