// libdeflate, opened at run time (dlopen(3)) instead of linked: only archive output (--warc)
// compresses with it, and loading the library took part of every run's start before `main`
// (issue #27). Swift calls it only through these; the first call opens the library (once).
#ifndef CMIRRORSHIMS_DEFLATE_H
#define CMIRRORSHIMS_DEFLATE_H

#include <libdeflate.h>

/// Opens libdeflate (once): 0, or -1 when it cannot be (see CMirrorShims_deflate_load_error).
int CMirrorShims_deflate_load(void);
/// Why libdeflate could not be opened; NULL when it was.
const char *CMirrorShims_deflate_load_error(void);
/// The file name opened: "libdeflate.so.0" (Debian's libdeflate0).
const char *CMirrorShims_deflate_library_name(void);

struct libdeflate_compressor *CMirrorShims_libdeflate_alloc_compressor(int level);
void CMirrorShims_libdeflate_free_compressor(struct libdeflate_compressor *compressor);
size_t CMirrorShims_libdeflate_gzip_compress_bound(struct libdeflate_compressor *compressor, size_t length);
size_t CMirrorShims_libdeflate_gzip_compress(struct libdeflate_compressor *compressor, const void *input, size_t length, void *output,
                                             size_t available);
uint32_t CMirrorShims_libdeflate_crc32(uint32_t crc, const void *buffer, size_t length);

#endif
