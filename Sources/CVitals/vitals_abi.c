// The C interface is implemented in Swift (Sources/VitalsC); this file lets SwiftPM build the header
// as a C target and checks that it compiles as C.
#include "vitals.h"
