#include "CMirrorShims_brotli.h"
#include "CMirrorShims_dl.h"

// Brotli's decoder is opened with dlopen(3), not linked (see the header), by the first call
// that needs it; every call below waits for that one load (pthread_once).

#define CMIRRORSHIMS_BROTLI_LIBRARY "libbrotlidec.so.1"

static struct {
    __typeof__(BrotliDecoderCreateInstance) *createInstance;
    __typeof__(BrotliDecoderDestroyInstance) *destroyInstance;
    __typeof__(BrotliDecoderDecompressStream) *decompressStream;
    __typeof__(BrotliDecoderGetErrorCode) *getErrorCode;
    __typeof__(BrotliDecoderErrorString) *errorString;
} api;

static CMirrorShims_library_state state = CMIRRORSHIMS_LIBRARY_STATE_INIT;

static void load(void) {
    static const char *const names[] = {
        "BrotliDecoderCreateInstance", "BrotliDecoderDestroyInstance", "BrotliDecoderDecompressStream",
        "BrotliDecoderGetErrorCode", "BrotliDecoderErrorString",
    };
    _Static_assert(sizeof(api) == sizeof(names) / sizeof(names[0]) * sizeof(void *), "one name per entry");
    int count = (int)(sizeof(names) / sizeof(names[0]));
    if (CMirrorShims_library_open(CMIRRORSHIMS_BROTLI_LIBRARY, (void **)&api, names, count, state.error, sizeof(state.error)) != 0) return;
    state.loaded = 1;
}

static int ready(void) {
    pthread_once(&state.once, load);
    return state.loaded;
}

int CMirrorShims_brotli_load(void) { return ready() ? 0 : -1; }

const char *CMirrorShims_brotli_load_error(void) { return ready() ? NULL : state.error; }

const char *CMirrorShims_brotli_library_name(void) { return CMIRRORSHIMS_BROTLI_LIBRARY; }

BrotliDecoderState *CMirrorShims_BrotliDecoderCreateInstance(void) { return ready() ? api.createInstance(NULL, NULL, NULL) : NULL; }
void CMirrorShims_BrotliDecoderDestroyInstance(BrotliDecoderState *decoder) { if (ready()) api.destroyInstance(decoder); }
BrotliDecoderResult CMirrorShims_BrotliDecoderDecompressStream(BrotliDecoderState *decoder, size_t *available_in, const uint8_t **next_in,
                                                               size_t *available_out, uint8_t **next_out) {
    return ready() ? api.decompressStream(decoder, available_in, next_in, available_out, next_out, NULL) : BROTLI_DECODER_RESULT_ERROR;
}
BrotliDecoderErrorCode CMirrorShims_BrotliDecoderGetErrorCode(const BrotliDecoderState *decoder) {
    return ready() ? api.getErrorCode(decoder) : BROTLI_DECODER_ERROR_UNREACHABLE;
}
const char *CMirrorShims_BrotliDecoderErrorString(BrotliDecoderErrorCode code) { return ready() ? api.errorString(code) : "Brotli's decoder is not open"; }
