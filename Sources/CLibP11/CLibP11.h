// Umbrella header for libp11 (Debian: libp11-dev), OpenSSL's maintained PKCS#11 bridge: it
// loads a PKCS#11 module, logs in to a token and hands out EVP_PKEYs whose operations run on
// the token, so that a hardware-backed key never leaves it. Headers only: the library is opened at
// run time, and called through CMirrorShims (CMirrorShims_p11.h).
#include <libp11.h>
