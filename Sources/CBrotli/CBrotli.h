// Umbrella header for Brotli's decoder (Debian: libbrotli-dev): the br bodies the engine
// receives undecoded when it records the exchange for an archive.
#include <brotli/decode.h>
