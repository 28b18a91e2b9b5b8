// CMirrorShims: logic-free C wrappers for the parts of libcurl, OpenSSL, libxml2, zlib and the C
// library that Swift cannot call directly (variadic functions, function-like macros, global
// variables, _GNU_SOURCE declarations), and the tables of the libraries opened at run time
// (libcurl, libxml2, Brotli's decoder, libdeflate, libp11). Every symbol is prefixed `CMirrorShims_`.
// No shim contains logic: each one forwards to exactly one C call.
#ifndef CMIRRORSHIMS_H
#define CMIRRORSHIMS_H

#include "CMirrorShims_brotli.h"
#include "CMirrorShims_curl.h"
#include "CMirrorShims_deflate.h"
#include "CMirrorShims_dl.h"
#include "CMirrorShims_libxml2.h"
#include "CMirrorShims_openssl.h"
#include "CMirrorShims_p11.h"
#include "CMirrorShims_sys.h"
#include "CMirrorShims_fs.h"
#include "CMirrorShims_x509gen.h"
#include "CMirrorShims_zlib.h"

#endif
