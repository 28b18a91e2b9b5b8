// Opening a library at run time (dlopen(3)) and looking its functions up, for the libraries
// that are not linked (libcurl, libxml2) so that they load on a thread of their own while the
// program starts instead of before `main` (issue #27).
#ifndef CMIRRORSHIMS_DL_H
#define CMIRRORSHIMS_DL_H

#include <stddef.h>

/// dlopen(3) `library` (RTLD_LAZY | RTLD_LOCAL) and look up `count` symbols into `table`: 0, or
/// -1 with the reason in `error` (a library that cannot be opened, or a missing symbol).
int CMirrorShims_library_open(const char *library, void **table, const char *const *names, int count, char *error, size_t size);

#endif
