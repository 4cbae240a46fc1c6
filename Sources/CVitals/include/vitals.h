/*
 * vitals.h: the C interface of the Vitals library (libVitalsC).
 *
 * A small, stable surface over the public Swift API for callers in other languages (the Python
 * package in python/ uses it through ctypes). Every function is safe to call from several threads
 * at once on different objects; a `vitals_recording` is used by one thread at a time.
 *
 * Errors. Every function that can fail returns a `vitals_status` (VITALS_OK is 0). On failure, when
 * `error` is not NULL, `*error` receives a NUL-terminated UTF-8 message naming the file and place
 * (or the argument) at fault, which the caller frees with vitals_free(); on success `*error` is
 * left untouched. No Swift error or trap crosses this boundary for bad input: NULL pointers,
 * negative counts, NaN or out-of-range rates and malformed files are all reported as statuses.
 *
 * Memory. Buffers and strings the library returns through `**` out-parameters are allocated with
 * malloc() and owned by the caller, who frees each with vitals_free() (free() is equivalent). An
 * empty result is returned as a NULL pointer with a zero count. Input buffers are only read during
 * the call and never kept. Strings the library returns as `const char *` are static.
 *
 * Options. Functions that read files take the options of the matching `vitals` command as an array
 * of argument words (for example {"--rate", "250", "--channel", "MLII"}), validated exactly as the
 * command line validates them; `option_count` may be 0 with `options` NULL. Paths name files: "-"
 * (standard input) is an argument error.
 *
 * Samples are 32-bit floats in physical units (mV, g, ...), as the readers yield them; sample
 * positions are 0-based 64-bit indices at the rate the call was given or the recording states.
 */
#ifndef VITALS_H
#define VITALS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface: incremented when a declaration of this header changes. */
#define VITALS_ABI_VERSION 1

typedef int32_t vitals_status;
enum {
  VITALS_OK = 0,
  VITALS_INPUT_ERROR = 1,    /* a file that cannot be read, is malformed, or holds nothing to do */
  VITALS_ARGUMENT_ERROR = 2, /* a bad argument or option: NULL, a negative count, an absurd rate */
  VITALS_OUTPUT_ERROR = 3,   /* a result that cannot be written or encoded */
  VITALS_INTERNAL_ERROR = 4  /* anything else; the message says what */
};

/* Frees what the library returned through an out-parameter. NULL is accepted. */
void vitals_free(void *pointer);

/* The library's version as `vitals --version` prints it (e.g. "0.1.0"), a static string. */
const char *vitals_version(void);

/* VITALS_ABI_VERSION of the library that is loaded. */
int32_t vitals_abi_version(void);

/* Build information as a JSON object, a static string: version, abi, swift (the compiler),
 * configuration (debug or release), simd (the lane width the kernels were built for, in bits: 256
 * for AVX2 builds, else 128), fftw. */
const char *vitals_build_info(void);

/* ---------------------------------------------------------------------------------------------- */
/* Recordings: WFDB records, EDF/EDF+, CSV/TSV, Apple Health ECG CSV, read chunk by chunk.        */

typedef struct vitals_recording vitals_recording;

/* Opens the recording at `path` with the options every reading command shares (--channel, --rate,
 * --time-column, --time-unit, --no-header, --delimiter, --skip-lines, ...; see `vitals info --help`).
 * On success `*recording` is a handle the caller closes with vitals_recording_close(). */
vitals_status vitals_recording_open(const char *path, const char *const *options, int32_t option_count,
                                    vitals_recording **recording, char **error);

/* Closes a recording opened with vitals_recording_open(). NULL is accepted. */
void vitals_recording_close(vitals_recording *recording);

/* The recording as JSON: {"path","format","sample_rate" (Hz, of every channel of the chunks),
 * "start_time" (ISO 8601 or null), "start_unix_s" (seconds since 1970 or null), "signals":
 * [{"name","unit","sample_rate","sample_count" (or null)}], "annotation_files": ["atr", ...]}.
 * `*json` is the caller's. */
vitals_status vitals_recording_describe(const vitals_recording *recording, char **json, char **error);

/* The number of channels of every chunk (the signals of the description); -1 when `recording` is NULL. */
int32_t vitals_recording_channel_count(const vitals_recording *recording);

/* Reads the next samples of every channel into `samples`, channel-major: channel c's samples go to
 * samples[c * capacity ... c * capacity + *count - 1]. `capacity` is the room per channel (> 0).
 * `*count` is the number read; 0 means the end of the recording. Invalid samples are NaN. */
vitals_status vitals_recording_read(vitals_recording *recording, float *samples, int64_t capacity,
                                    int64_t *count, char **error);

/* The annotations of the WFDB annotation file `record.extension` (e.g. "atr") as JSON:
 * {"samples": [...], "symbols": ["N", "V", ...], "subtypes": [...], "channels": [...], "aux": [...]}. */
vitals_status vitals_annotations_read(const char *record_path, const char *extension, char **json,
                                      char **error);

/* ---------------------------------------------------------------------------------------------- */
/* ECG                                                                                             */

/* Detects the R peaks of one ECG lead of `count` samples at `sample_rate` Hz (the QRS detector of
 * `vitals beats`, causal, with its search-back), and classifies each beat (EC57 classes from its
 * morphology on every lead given and its timing). `leads` holds `lead_count` (>= 1) pointers to
 * `count` samples each; detection runs on leads[0]. `*peaks` receives the sample indices and
 * `*classes` one ASCII letter per beat (N, S, V, F or Q; not NUL-terminated), both `*beat_count`
 * long. `classes` may be NULL when the classes are not wanted: the beats are then only detected
 * (the same peaks, in less time; the other leads are not read). */
vitals_status vitals_ecg_beats(const float *const *leads, int32_t lead_count, int64_t count, double sample_rate,
                               int64_t **peaks, char **classes, int64_t *beat_count, char **error);

/* Detects the R peaks of one ECG lead of `count` samples at `sample_rate` Hz: the peaks of
 * vitals_ecg_beats, on `jobs` (>= 1) threads: with 2 or more, a second thread filters the lead while
 * the calling one decides on the beats (the same peaks, in less time where two cores are free).
 * `*peaks` receives `*beat_count` sample indices. */
vitals_status vitals_ecg_peaks(const float *lead, int64_t count, double sample_rate, int32_t jobs, int64_t **peaks,
                               int64_t *beat_count, char **error);

/* The beats of the recording at `path` as `vitals beats` finds them, as JSON: {"lead",
 * "sample_rate", "sample_count", "beats": [...], "classes": "NNV..." or null, "gaps": [[start,end],...]}.
 * Options as `vitals beats` takes them (--signal ppg for pulses, --channel, ...; not -o, --format or
 * --out-dir). */
vitals_status vitals_recording_beats(const char *path, const char *const *options, int32_t option_count,
                                     char **json, char **error);

/* ---------------------------------------------------------------------------------------------- */
/* Heart-rate variability                                                                         */

/* HRV of `count` beats (sample indices, strictly increasing) at `sample_rate` Hz, as `vitals hrv`
 * computes it (artifact detection, NN intervals; with `labels`, one MIT symbol letter per beat, only
 * N-to-N intervals), as a JSON object whose keys are NeuroKit2's column names ("HRV_MeanNN",
 * "HRV_SDNN", "HRV_RMSSD", ...) with values in NeuroKit2's units (ms, ms^2, ...; null where
 * undefined), in the order `vitals hrv` prints them (time, frequency, nonlinear domains, as NeuroKit2
 * groups them; MeanHR, MinHR, MaxHR and the band peaks are Vitals' own). `labels` may be NULL. */
vitals_status vitals_hrv(const int64_t *peaks, int64_t count, double sample_rate, const char *labels,
                         char **json, char **error);

/* HRV as vitals_hrv computes it, with the options of `vitals hrv` that choose the analysis
 * (--no-artifacts: keep the intervals around RR artifact beats instead of dropping them; --psd,
 * --interpolation-rate, --tachogram-interpolation, --lomb-scaling), validated as the command line
 * validates them; any other word is an argument error. `option_count` may be 0 with `options` NULL,
 * which gives vitals_hrv's result. `*json` as vitals_hrv's, the caller's. */
vitals_status vitals_hrv_with_options(const int64_t *peaks, int64_t count, double sample_rate, const char *labels,
                                      const char *const *options, int32_t option_count, char **json,
                                      char **error);

/* ---------------------------------------------------------------------------------------------- */
/* PPG heart rate                                                                                  */

/* Heart rate per window from `ppg_count` (>= 1) PPG channels and `axis_count` (0 or 3) accelerometer
 * axes, all of `count` samples at `sample_rate` Hz, as `vitals hr --signal ppg` computes it, with
 * windows of `window_s` seconds every `step_s` seconds. JSON: {"windows": [{"start_s","end_s","bpm",
 * "quality" (0 to 1),"reliable" (true or false),"periodic_motion" (0 to 1, the largest
 * periodicity weight of the accelerometer axes, 1 for walking or running; null without axes or
 * when they are flat)}...]}. */
vitals_status vitals_ppg_rate(const float *const *ppg, int32_t ppg_count, const float *const *axes,
                              int32_t axis_count, int64_t count, double sample_rate, double window_s,
                              double step_s, char **json, char **error);

/* ---------------------------------------------------------------------------------------------- */
/* Steps                                                                                           */

/* Steps in three accelerometer axes of `count` samples at `sample_rate` Hz, as `vitals steps`
 * counts them. `unit` is "automatic", "g" or "m/s^2"; `placement` is "body" or "wrist" (NULL for the
 * defaults). `*steps` receives the step sample indices (`*step_count` of them) and `*json` the
 * summary {"steps","walking_s","cadence_spm","bouts": [{"start_s","end_s","steps"}...]}; either
 * out-parameter may be NULL when not wanted. */
vitals_status vitals_steps(const float *x, const float *y, const float *z, int64_t count, double sample_rate,
                           const char *unit, const char *placement, int64_t **steps, int64_t *step_count,
                           char **json, char **error);

/* ---------------------------------------------------------------------------------------------- */
/* Whole recordings                                                                                */

/* Analyzes the recording at `path` as `vitals analyze` does, with its options (--placement,
 * --height, --ecg, --ppg, --accel, ...; not --out, --jobs or --shard), and returns its JSON summary,
 * the line `vitals analyze` prints (without its line break). With `samples` not NULL, `*samples`
 * receives the derived samples file (`NAME.samples.jsonl`, as `vitals analyze --out` writes it) as
 * text, or NULL when the recording states no start time (give --start). */
vitals_status vitals_analyze(const char *path, const char *const *options, int32_t option_count, char **summary,
                             char **samples, char **error);

/* ---------------------------------------------------------------------------------------------- */
/* Statistics partials: HealthKit-style statistics of samples split across processes or machines.  */

/* The statistics partial of the samples in `input_count` Apple Health exports and samples files for
 * the query `options` gives (`vitals stats` options: --type, --option, --interval, --anchor,
 * --timezone, --unit, --source-priority, --per-source), as the bytes `vitals stats --partial FILE`
 * writes (UTF-8 JSON), `*length` long. */
vitals_status vitals_stats_partial(const char *const *inputs, int32_t input_count, const char *const *options,
                                   int32_t option_count, uint8_t **bytes, int64_t *length, char **error);

/* Merges `count` (>= 1) partials of one query (each `lengths[i]` bytes at `partials[i]`) into one
 * partial covering all their samples, as `vitals merge` does; a partial of another query is an input
 * error naming it by its index (`partials[i]`), and so is a partial whose statistics do not lie on its
 * query's intervals. Merging in any grouping (a tree of merges) gives the same counts, extrema,
 * durations and most recent samples as one query over all the samples; sums and averages agree to
 * rounding. */
vitals_status vitals_stats_merge(const uint8_t *const *partials, const int64_t *lengths, int32_t count,
                                 uint8_t **bytes, int64_t *length, char **error);

/* The statistics table of a partial as `vitals stats` prints it: `format` is "csv" or "json". */
vitals_status vitals_stats_table(const uint8_t *partial, int64_t length, const char *format, char **text,
                                 char **error);

#ifdef __cplusplus
}
#endif

#endif /* VITALS_H */
