# Vitals: the two commands of the README's quick start are `make run` and `make test`.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
EXAMPLE ?= Fixtures/examples/simulated-ecg.csv
# Wide SIMD lanes (AVX2, FMA) when the building machine has them: see docs/architecture.md, "Build settings".
ARCH_FLAGS ?= $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && echo -Xcc -march=x86-64-v3)

.PHONY: deps build run example test fixtures format bench-fftw-c fuzz malformed eval-ecg memory compare-readers compare-ecg \
  eval-steps compare-stats check-pipeline eval-ppg compare-ppg bench bench-check bench-thresholds compare scaling demo-derived

# Installs the system packages the build needs when they are missing (Debian/Ubuntu).
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
build: deps
	$(SWIFT) build -c release $(ARCH_FLAGS) --static-swift-stdlib --product vitals

# Builds in release and runs the main job on the bundled example: what the file holds, its beats scored
# against the simulator's truth, and its heart-rate variability.
run: build
	.build/release/vitals info $(EXAMPLE)
	.build/release/vitals beats $(EXAMPLE) -o .build/example-beats.csv
	.build/release/vitals score --reference $(EXAMPLE:.csv=.truth.csv) --test .build/example-beats.csv --rate 250 --skip 30
	.build/release/vitals hrv $(EXAMPLE)

# Regenerates the bundled example (2 minutes of ambulatory ECG at 250 Hz with 3 % premature
# ventricular beats) and its truth.
example: build
	.build/release/vitals simulate --signal ecg --duration 120 --rate 250 --seed 7 --pvc 0.03 \
	  --noise ambulatory -o $(EXAMPLE)

# Builds once (debug, with the AVX2 kernels when the machine has them, so that both kernels of the CSV
# reader are tested) and runs the unit tests; tests that need ../shared/data skip when it is absent.
# The SHA-256 of every file of Fixtures/ and ../shared/data is compared before and after: no test may
# modify an input.
# Then the benchmarks' allocation gate (make bench-check: a release build of Benchmarks/, 5 iterations
# a benchmark; about 5 minutes on a clean clone).
test: deps
	$(SWIFT) build --build-tests $(ARCH_FLAGS)
	scripts/inputs_unchanged.sh record .build/inputs.sha256
	$(SWIFT) test --skip-build
	scripts/inputs_unchanged.sh verify .build/inputs.sha256
	$(MAKE) bench-check

# The pinned Python packages of Fixtures/generate/requirements.txt, in a local virtual environment.
.venv-fixtures/ready: Fixtures/generate/requirements.txt
	python3 -m venv .venv-fixtures
	.venv-fixtures/bin/pip install -q -r Fixtures/generate/requirements.txt
	touch $@

# Regenerates the committed reference vectors under Fixtures/ (SciPy, wfdb, pyedflib, NeuroKit2).
fixtures: .venv-fixtures/ready
	for script in Fixtures/generate/*.py; do .venv-fixtures/bin/python "$$script" || exit 1; done

# Vitals' readers against pandas, pyedflib and wfdb-python on the same generated files, same run.
compare-readers: build .venv-fixtures/ready
	.venv-fixtures/bin/python scripts/peers/compare_readers.py

# Vitals' QRS detector against NeuroKit2's on ../shared/data/mitdb: accuracy and speed, same run.
compare-ecg: build .venv-fixtures/ready
	.venv-fixtures/bin/python scripts/peers/compare_ecg.py

format:
	$(SWIFT) format --in-place --recursive Sources Tests Benchmarks/Benchmarks Benchmarks/Support

# FFTW called from C on the 4096-point real Float plan: the reference for the FFT benchmark suite's
# `RealFFT forward Float 4096` (cd Benchmarks && swift package benchmark --target FFT).
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
fuzz: deps
	scripts/fuzz.sh build
	failed=""; for t in $(FUZZ_TARGETS); do FUZZ_BUILD=0 scripts/fuzz.sh $$t $(FUZZ_SECONDS) || failed="$$failed $$t"; done; \
	if [ -n "$$failed" ]; then echo "findings in:$$failed"; exit 1; fi

# The malformed-input corpus alone (Tests/VitalsCLITests/MalformedCorpusTests.swift): truncated, bit-flipped
# and mislabelled inputs through the debug `vitals` binary, each run bounded in time and memory.
# MALFORMED_OUT=DIR also writes the corpus there, one directory per case.
malformed: deps
	$(SWIFT) build --build-tests $(ARCH_FLAGS)
	VITALS_MALFORMED_OUT=$(MALFORMED_OUT) $(SWIFT) test --skip-build --filter MalformedCorpusTests

# ECG detector accuracy on ../shared/data (MIT-BIH, NSTDB): per-record and gross Se, +P, F1.
eval-ecg: deps
	$(SWIFT) run -c release $(ARCH_FLAGS) --package-path scripts/eval ecg-eval

# Peak resident memory streaming a 24-hour, 3-channel, 500 Hz recording (EDF and CSV).
memory: build
	scripts/long_record_memory.sh

# Step counter accuracy: ../shared/data/oxford-steps totals against the hand count (per walk, MAPE, the
# dataset's own counters for comparison) and false steps per minute in simulated non-walking activity.
eval-steps: deps
	$(SWIFT) run -c release $(ARCH_FLAGS) --package-path scripts/eval steps-eval
# The statistics aggregator (20 M samples, hourly and daily means and sums) against pandas, and the
# export.xml reader (100 MB) against ElementTree.iterparse: throughput and agreement, same run.
compare-stats: deps .venv-fixtures/ready
	$(SWIFT) build -c release $(ARCH_FLAGS) --package-path scripts/eval --product stats-eval
	.venv-fixtures/bin/python scripts/peers/compare_aggregation.py
# Pipeline numbers: analyze throughput with 1 and 2 jobs, 24-hour memory, stream latency and memory.
check-pipeline: build
	scripts/pipeline_check.sh
# PPG heart rate on ../shared/data: MAE per IEEE SPC 2015 recording and over all windows, read + estimate
# time, and PPG-vs-ECG heart rate on wfdb-formats v102s and a103l.
eval-ppg: deps
	$(SWIFT) run -c release $(ARCH_FLAGS) --package-path scripts/eval ppg-eval

# PPG heart rate, Vitals against NeuroKit2 on the 12 SPC 2015 recordings: MAE and CPU-time ratio.
compare-ppg: build .venv-fixtures/ready
	.venv-fixtures/bin/python scripts/peers/compare_ppg.py

# Every benchmark suite of Benchmarks/ (release build of the nested package), or one: make bench SUITE=HRV.
bench: deps
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark $(if $(SUITE),--target $(SUITE))

# The regression gate: allocations per iteration of every benchmark equal Benchmarks/Thresholds/<Swift
# major.minor>/ (deterministic; wall clock is not gated). bench-thresholds rewrites them for review.
bench-check: deps
	scripts/bench/thresholds.sh check

bench-thresholds: deps
	scripts/bench/thresholds.sh update

# Every scripts/peers/compare_*.py in one run, one table of Vitals against its fastest peer per stage
# (the README's table: .build/compare.md).
compare: build .venv-fixtures/ready
	$(SWIFT) build -c release $(ARCH_FLAGS) --package-path scripts/eval --product stats-eval
	.venv-fixtures/bin/python scripts/peers/compare.py --markdown .build/compare.md --json .build/compare.json

# Time and peak memory against recording length (1 min to 24 h) and number of files: docs/scaling.csv
# and docs/scaling.svg.
scaling: build .venv-fixtures/ready
	.venv-fixtures/bin/python scripts/bench/scaling.py --csv docs/scaling.csv --plot docs/scaling.svg

# Derived HealthKit metrics end to end: a simulated two-day ECG + accelerometer recording through
# vitals analyze (samples file) and vitals stats (docs/guide/statistics.md, "From signals to samples").
demo-derived: build
	scripts/derived_metrics_demo.sh
