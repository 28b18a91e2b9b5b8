// Brotli's decoder, opened at run time (dlopen(3)) instead of linked: only an exchange recorded
// for an archive (--warc) decodes br bodies itself, and loading the library took part of every
// run's start before `main` (issue #27). Swift calls the decoder only through these; the first
// call opens the library (once). Its types and constants come from the CBrotli module.
#ifndef CMIRRORSHIMS_BROTLI_H
#define CMIRRORSHIMS_BROTLI_H

#include <brotli/decode.h>

/// Opens Brotli's decoder library (once): 0, or -1 when it cannot be (see
/// CMirrorShims_brotli_load_error).
int CMirrorShims_brotli_load(void);
/// Why the library could not be opened; NULL when it was.
const char *CMirrorShims_brotli_load_error(void);
/// The file name opened: "libbrotlidec.so.1" (Debian's libbrotli1).
const char *CMirrorShims_brotli_library_name(void);

BrotliDecoderState *CMirrorShims_BrotliDecoderCreateInstance(void);
void CMirrorShims_BrotliDecoderDestroyInstance(BrotliDecoderState *state);
BrotliDecoderResult CMirrorShims_BrotliDecoderDecompressStream(BrotliDecoderState *state, size_t *available_in, const uint8_t **next_in,
                                                               size_t *available_out, uint8_t **next_out);
BrotliDecoderErrorCode CMirrorShims_BrotliDecoderGetErrorCode(const BrotliDecoderState *state);
const char *CMirrorShims_BrotliDecoderErrorString(BrotliDecoderErrorCode code);

#endif
