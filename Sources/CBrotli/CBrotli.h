// Umbrella header for Brotli's decoder (Debian: libbrotli-dev): the br bodies the engine
// receives undecoded when it records the exchange for an archive. Headers only: the library is
// opened at run time, and called through CMirrorShims (CMirrorShims_brotli.h).
#include <brotli/decode.h>
