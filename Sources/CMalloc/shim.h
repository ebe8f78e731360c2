#ifndef TICKERD_CMALLOC_SHIM_H
#define TICKERD_CMALLOC_SHIM_H

// glibc's allocator controls (malloc_trim), which the Glibc module does not export.
#include <malloc.h>

#endif
