// libical (Debian libical-dev, pkg-config libical) for the Calendars target.
#ifndef TICKERD_CICAL_SHIM_H
#define TICKERD_CICAL_SHIM_H

#include <libical/ical.h>

// `icalerrno` is a macro over a function call (`*(icalerrno_return())`), which Swift cannot
// import; these functions stand in for it.
static inline icalerrorenum cical_errno(void) { return *icalerrno_return(); }
static inline void cical_clear_errno(void) { icalerror_clear_errno(); }

#endif
