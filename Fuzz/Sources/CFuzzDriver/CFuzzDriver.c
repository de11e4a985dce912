// The declaration in include/CFuzzDriver.h is the point of this target; SwiftPM needs one source.
#include "CFuzzDriver.h"
