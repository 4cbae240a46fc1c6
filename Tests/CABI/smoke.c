/* A C smoke test of libVitalsC: opens Fixtures/examples/simulated-ecg.csv (or argv[1]), reads it,
 * detects its beats, computes their HRV and prints one line. Exits non-zero on any error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vitals.h"

static int fail(const char *what, vitals_status status, char *error) {
  fprintf(stderr, "smoke: %s failed (status %d): %s\n", what, (int)status, error ? error : "(no message)");
  vitals_free(error);
  return 1;
}

/* The number after "key": in `json`, or -1 when absent. */
static double number_after(const char *json, const char *key) {
  const char *found = strstr(json, key);
  return found ? strtod(found + strlen(key), NULL) : -1;
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "Fixtures/examples/simulated-ecg.csv";
  char *error = NULL;
  vitals_recording *recording = NULL;
  vitals_status status = vitals_recording_open(path, NULL, 0, &recording, &error);
  if (status != VITALS_OK) return fail("vitals_recording_open", status, error);

  char *description = NULL;
  status = vitals_recording_describe(recording, &description, &error);
  if (status != VITALS_OK) return fail("vitals_recording_describe", status, error);
  double rate = number_after(description, "\"sample_rate\":");
  vitals_free(description);

  int32_t channels = vitals_recording_channel_count(recording);
  if (channels < 1) return fail("vitals_recording_channel_count", VITALS_INTERNAL_ERROR, NULL);
  const int64_t capacity = 4096;
  float *block = malloc(sizeof(float) * (size_t)capacity * (size_t)channels);
  float *lead = NULL;
  int64_t total = 0, count = 0;
  do {
    status = vitals_recording_read(recording, block, capacity, &count, &error);
    if (status != VITALS_OK) return fail("vitals_recording_read", status, error);
    lead = realloc(lead, sizeof(float) * (size_t)(total + count + 1));
    memcpy(lead + total, block, sizeof(float) * (size_t)count); /* channel 0 */
    total += count;
  } while (count > 0);
  free(block);
  vitals_recording_close(recording);

  const float *leads[1] = {lead};
  int64_t *peaks = NULL;
  char *classes = NULL;
  int64_t beats = 0;
  status = vitals_ecg_beats(leads, 1, total, rate, &peaks, &classes, &beats, &error);
  if (status != VITALS_OK) return fail("vitals_ecg_beats", status, error);
  int64_t *peaks_two_threads = NULL;
  int64_t beats_two_threads = 0;
  status = vitals_ecg_peaks(lead, total, rate, 2, &peaks_two_threads, &beats_two_threads, &error);
  if (status != VITALS_OK) return fail("vitals_ecg_peaks", status, error);
  int same_peaks = beats_two_threads == beats &&
                   memcmp(peaks_two_threads, peaks, sizeof(int64_t) * (size_t)beats) == 0;
  vitals_free(peaks_two_threads);
  free(lead);

  char *hrv = NULL;
  status = vitals_hrv(peaks, beats, rate, NULL, &hrv, &error);
  if (status != VITALS_OK) return fail("vitals_hrv", status, error);
  const char *keep_artifacts[1] = {"--no-artifacts"};
  char *hrv_every_interval = NULL;
  status = vitals_hrv_with_options(peaks, beats, rate, NULL, keep_artifacts, 1, &hrv_every_interval, &error);
  if (status != VITALS_OK) return fail("vitals_hrv_with_options", status, error);
  vitals_free(hrv_every_interval);

  int64_t ventricular = 0;
  for (int64_t k = 0; k < beats; k++) ventricular += classes[k] == 'V';
  printf("smoke: libVitalsC %s (ABI %d): %s: %lld samples at %g Hz, %lld beats (%lld V), "
         "HRV_MeanNN %.1f ms, HRV_RMSSD %.1f ms\n",
         vitals_version(), (int)vitals_abi_version(), path, (long long)total, rate, (long long)beats,
         (long long)ventricular, number_after(hrv, "\"HRV_MeanNN\":"), number_after(hrv, "\"HRV_RMSSD\":"));
  vitals_free(hrv);
  vitals_free(peaks);
  vitals_free(classes);
  if (!same_peaks) fprintf(stderr, "smoke: vitals_ecg_peaks on 2 threads found other peaks\n");
  return beats > 0 && same_peaks && vitals_abi_version() == VITALS_ABI_VERSION ? 0 : 1;
}
