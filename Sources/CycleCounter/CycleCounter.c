// Everything is inline in include/CycleCounter.h; SwiftPM needs one source file per C target.
#include "CycleCounter.h"
