// zlib's init calls are function-like macros (they pass the library version and the size of
// z_stream to inflateInit2_/deflateInit2_), which Swift cannot call.
#ifndef CMIRRORSHIMS_ZLIB_H
#define CMIRRORSHIMS_ZLIB_H

#include <zlib.h>

/// inflateInit2(stream, windowBits): 15+16 reads gzip, 15+32 gzip or zlib, -15 raw deflate.
int CMirrorShims_inflateInit2(z_streamp stream, int windowBits);

/// deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY): 15+16
/// writes one gzip member.
int CMirrorShims_deflateInit2(z_streamp stream, int level, int windowBits, int memLevel);

#endif
