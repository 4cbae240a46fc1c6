/*
 * The machine's limit for the FFT stage of scripts/bench/profile.py: how many single-precision real-input
 * transforms of a given size FFTW computes per second on one core (aligned buffers, one transform after
 * another, as the PPG estimator runs them), with the plan FFTW_MEASURE finds (the fastest it knows), or
 * with --estimate the FFTW_ESTIMATE plan Vitals uses (VitalsFFT's shared plan cache: the same plan, and
 * so the same bits, on every run). Prints "<size> <transforms/s>" per size given, each the best of 5
 * passes of enough transforms to take about 0.1 s (CPU time).
 *
 *   cc -O2 -o fftw_rate fftw_rate.c -lfftw3f && ./fftw_rate 2048 && ./fftw_rate --estimate 2048
 */
#include <fftw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { REPEAT = 5 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  int first = 1;
  unsigned flags = FFTW_MEASURE;
  if (argc > 1 && strcmp(argv[1], "--estimate") == 0) {
    flags = FFTW_ESTIMATE;
    first = 2;
  }
  for (int a = first; a < argc; a++) {
    int size = atoi(argv[a]);
    if (size < 2) {
      fprintf(stderr, "fftw_rate: a size must be at least 2, got %s\n", argv[a]);
      return 1;
    }
    float *input = fftwf_alloc_real((size_t)size);
    fftwf_complex *output = fftwf_alloc_complex((size_t)size / 2 + 1);
    fftwf_plan plan = fftwf_plan_dft_r2c_1d(size, input, output, flags);
    for (int i = 0; i < size; i++) input[i] = (float)((i * 7919) % 1000) / 1000.0f;
    long count = 1;
    for (;;) { /* enough transforms for about 0.1 s */
      double start = now();
      for (long k = 0; k < count; k++) fftwf_execute(plan);
      if (now() - start > 0.1) break;
      count *= 2;
    }
    double best = 1e30;
    for (int r = 0; r < REPEAT; r++) {
      double start = now();
      for (long k = 0; k < count; k++) fftwf_execute(plan);
      double seconds = now() - start;
      if (seconds < best) best = seconds;
    }
    printf("%d %.6g\n", size, (double)count / best);
    fftwf_destroy_plan(plan);
    fftwf_free(input);
    fftwf_free(output);
  }
  return 0;
}
