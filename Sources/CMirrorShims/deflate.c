#include "CMirrorShims_deflate.h"
#include "CMirrorShims_dl.h"

// libdeflate is opened with dlopen(3), not linked (see the header), by the first call that
// needs it; every call below waits for that one load (pthread_once).

#define CMIRRORSHIMS_DEFLATE_LIBRARY "libdeflate.so.0"

static struct {
    __typeof__(libdeflate_alloc_compressor) *allocCompressor;
    __typeof__(libdeflate_free_compressor) *freeCompressor;
    __typeof__(libdeflate_gzip_compress_bound) *gzipCompressBound;
    __typeof__(libdeflate_gzip_compress) *gzipCompress;
    __typeof__(libdeflate_crc32) *crc32;
} api;

static CMirrorShims_library_state state = CMIRRORSHIMS_LIBRARY_STATE_INIT;

static void load(void) {
    static const char *const names[] = {
        "libdeflate_alloc_compressor", "libdeflate_free_compressor", "libdeflate_gzip_compress_bound", "libdeflate_gzip_compress",
        "libdeflate_crc32",
    };
    _Static_assert(sizeof(api) == sizeof(names) / sizeof(names[0]) * sizeof(void *), "one name per entry");
    int count = (int)(sizeof(names) / sizeof(names[0]));
    if (CMirrorShims_library_open(CMIRRORSHIMS_DEFLATE_LIBRARY, (void **)&api, names, count, state.error, sizeof(state.error)) != 0) return;
    state.loaded = 1;
}

static int ready(void) {
    pthread_once(&state.once, load);
    return state.loaded;
}

int CMirrorShims_deflate_load(void) { return ready() ? 0 : -1; }

const char *CMirrorShims_deflate_load_error(void) { return ready() ? NULL : state.error; }

const char *CMirrorShims_deflate_library_name(void) { return CMIRRORSHIMS_DEFLATE_LIBRARY; }

struct libdeflate_compressor *CMirrorShims_libdeflate_alloc_compressor(int level) { return ready() ? api.allocCompressor(level) : NULL; }
void CMirrorShims_libdeflate_free_compressor(struct libdeflate_compressor *compressor) { if (ready()) api.freeCompressor(compressor); }
size_t CMirrorShims_libdeflate_gzip_compress_bound(struct libdeflate_compressor *compressor, size_t length) {
    return ready() ? api.gzipCompressBound(compressor, length) : 0;
}
size_t CMirrorShims_libdeflate_gzip_compress(struct libdeflate_compressor *compressor, const void *input, size_t length, void *output,
                                             size_t available) {
    return ready() ? api.gzipCompress(compressor, input, length, output, available) : 0;
}
uint32_t CMirrorShims_libdeflate_crc32(uint32_t crc, const void *buffer, size_t length) { return ready() ? api.crc32(crc, buffer, length) : 0; }
