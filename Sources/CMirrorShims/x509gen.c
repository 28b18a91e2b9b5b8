#include <string.h>
#include "CMirrorShims_x509gen.h"

EVP_PKEY *CMirrorShims_EVP_EC_gen(const char *curve) { return EVP_EC_gen(curve); }
