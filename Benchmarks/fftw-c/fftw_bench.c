/*
 * FFTW called directly from C: the reference for the Swift benchmark "RealFFT forward Float 4096".
 * Plans a single-precision real forward transform (fftwf_plan_dft_r2c_1d) on fftwf_alloc buffers
 * with the given planner flag, then times fftwf_execute on it, and also the new-array
 * fftwf_execute_dft_r2c the Swift path uses.
 *
 * Build and run (see the report / `make bench-fftw-c`):
 *   cc -O2 -o fftw_bench fftw_bench.c $(pkg-config --cflags --libs fftw3f) -lm
 *   ./fftw_bench [size=4096] [estimate|measure] [batches=500] [per-batch=1000]
 * Prints the minimum (p0), p25 and median nanoseconds per transform over the batches: the same
 * statistics, over batches of the same 1000 transforms, as the Swift benchmark's wall-clock row.
 */
#include <fftw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void report(const char *label, double *times, int batches) {
  qsort(times, (size_t)batches, sizeof(double), compare);
  printf("%-24s p0 %8.1f   p25 %8.1f   p50 %8.1f   ns per transform\n", label, times[0], times[batches / 4],
         times[batches / 2]);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4096;
  const char *rigor = argc > 2 ? argv[2] : "estimate";
  int batches = argc > 3 ? atoi(argv[3]) : 500;
  int per_batch = argc > 4 ? atoi(argv[4]) : 1000;
  unsigned flags = strcmp(rigor, "measure") == 0 ? FFTW_MEASURE : FFTW_ESTIMATE;

  float *in = fftwf_alloc_real((size_t)n);
  fftwf_complex *out = fftwf_alloc_complex((size_t)n / 2 + 1);
  fftwf_plan plan = fftwf_plan_dft_r2c_1d(n, in, out, flags);
  if (!plan) {
    fprintf(stderr, "planning failed\n");
    return 1;
  }
  /* The same signal as the Swift benchmark's testSignal(count:rate: 125). */
  for (int i = 0; i < n; i++) {
    double t = i / 125.0;
    in[i] = (float)(sin(2 * M_PI * 1.3 * t) + 0.5 * sin(2 * M_PI * 7.1 * t + 0.4) + (double)(i % 97) / 97);
  }
  double *times = malloc(sizeof(double) * (size_t)batches);
  printf("FFTW %s, real forward float, n = %d, %s, %d batches of %d\n", fftwf_version, n, rigor, batches, per_batch);

  for (int i = 0; i < per_batch; i++) fftwf_execute(plan); /* warm-up */
  for (int b = 0; b < batches; b++) {
    double start = now_ns();
    for (int i = 0; i < per_batch; i++) fftwf_execute(plan);
    times[b] = (now_ns() - start) / per_batch;
  }
  report("fftwf_execute", times, batches);

  for (int b = 0; b < batches; b++) {
    double start = now_ns();
    for (int i = 0; i < per_batch; i++) fftwf_execute_dft_r2c(plan, in, out);
    times[b] = (now_ns() - start) / per_batch;
  }
  report("fftwf_execute_dft_r2c", times, batches);
  printf("checksum %g\n", (double)out[1][0]);

  free(times);
  fftwf_destroy_plan(plan);
  fftwf_free(in);
  fftwf_free(out);
  return 0;
}
