#ifndef VITALS_CFFTW_SHIM_H
#define VITALS_CFFTW_SHIM_H
#include <fftw3.h>
#endif
