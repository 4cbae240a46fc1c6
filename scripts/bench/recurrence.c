/*
 * The machine's limit for the IIR stages of scripts/bench/profile.py: how many samples per second a
 * band-pass of two second-order sections (the order-2 Butterworth band-passes of the QRS detector, the
 * signal-quality index, the PPG estimator and the step detector) can take on one signal, where each
 * output waits for the one before it, and on four independent signals interleaved, where it need not.
 *
 * Direct form I in double, the feedback term last, as SOSFilterPair runs it: from one output to the
 * next lie one multiplication and one subtraction per section, so one signal is bound by that latency
 * and four signals by the arithmetic. Prints "one <samples/s>" and "four <samples/s per signal>", each
 * the best of 5 passes over 2^22 samples (CPU time).
 *
 *   cc -O2 -o recurrence recurrence.c && ./recurrence
 */
#include <stdio.h>
#include <time.h>

enum { COUNT = 1 << 22, LANES = 4, REPEAT = 5 };

/* A 5–15 Hz band-pass at 250 Hz: scipy.signal.butter(2, [5, 15], 'bandpass', fs=250, output='sos'). */
static const double B[2][3] = {{0.0133592, 0.0267184, 0.0133592}, {1, -2, 1}};
static const double A[2][2] = {{-1.68135386, 0.77989214}, {-1.8795936, 0.89870989}};

static float input[COUNT * LANES], output[COUNT * LANES];

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One section's output for input x, with its state in x1, x2, y1, y2 (locals of the caller). */
#define SECTION(k, x, x1, x2, y1, y2, y)                                                                \
  do {                                                                                                  \
    y = (((B[k][0] * (x) + B[k][1] * x1) + B[k][2] * x2) - A[k][1] * y2) - A[k][0] * y1;                \
    x2 = x1;                                                                                            \
    x1 = (x);                                                                                           \
    y2 = y1;                                                                                            \
    y1 = y;                                                                                             \
  } while (0)

/* CPU seconds of one pass of the band-pass over `signals` (1 or LANES) interleaved signals. */
static double pass(int signals) {
  double p[LANES][2][4] = {{{0}}}; /* x1, x2, y1, y2 per signal and section */
  double start = now();
  if (signals == 1) {
    double a1 = 0, a2 = 0, a3 = 0, a4 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, u, v;
    for (long i = 0; i < COUNT; i++) {
      SECTION(0, (double)input[i], a1, a2, a3, a4, u);
      SECTION(1, u, b1, b2, b3, b4, v);
      output[i] = (float)v;
    }
  } else {
    for (long i = 0; i < COUNT; i++) {
      double u[LANES], v[LANES];
      for (int l = 0; l < LANES; l++) SECTION(0, (double)input[i * LANES + l], p[l][0][0], p[l][0][1],
                                              p[l][0][2], p[l][0][3], u[l]);
      for (int l = 0; l < LANES; l++) SECTION(1, u[l], p[l][1][0], p[l][1][1], p[l][1][2], p[l][1][3], v[l]);
      for (int l = 0; l < LANES; l++) output[i * LANES + l] = (float)v[l];
    }
  }
  return now() - start;
}

static double best(int signals) {
  double seconds = 1e30;
  for (int r = 0; r < REPEAT; r++) {
    double s = pass(signals);
    if (s < seconds) seconds = s;
  }
  return seconds;
}

int main(void) {
  unsigned state = 12345;
  for (long k = 0; k < COUNT * LANES; k++) {
    state = state * 1664525u + 1013904223u;
    input[k] = (float)(state >> 8) / 16777216.0f - 0.5f;
  }
  printf("one %.6e\n", COUNT / best(1));
  printf("four %.6e\n", COUNT / best(LANES));
  double sum = 0;
  for (long k = 0; k < COUNT * LANES; k += 4096) sum += output[k];
  return sum == 1e300; /* keeps the outputs alive */
}
