// libp11, OpenSSL's PKCS#11 bridge, opened at run time (dlopen(3)) instead of linked: only an
// identity on a token (--cert pkcs11:…) uses it, and loading it took part of every run's start
// before `main` (issue #27). Swift calls it only through these; the first call opens the
// library (once). Its types come from the CLibP11 module.
#ifndef CMIRRORSHIMS_P11_H
#define CMIRRORSHIMS_P11_H

#include <libp11.h>

/// Opens libp11 (once): 0, or -1 when it cannot be (see CMirrorShims_p11_load_error).
int CMirrorShims_p11_load(void);
/// Why libp11 could not be opened; NULL when it was.
const char *CMirrorShims_p11_load_error(void);
/// The file name opened: "libp11.so.3" (Debian's libp11-3).
const char *CMirrorShims_p11_library_name(void);

PKCS11_CTX *CMirrorShims_PKCS11_CTX_new(void);
int CMirrorShims_PKCS11_CTX_load(PKCS11_CTX *context, const char *module);
void CMirrorShims_PKCS11_CTX_unload(PKCS11_CTX *context);
void CMirrorShims_PKCS11_CTX_free(PKCS11_CTX *context);
int CMirrorShims_PKCS11_enumerate_slots(PKCS11_CTX *context, PKCS11_SLOT **slots, unsigned int *count);
void CMirrorShims_PKCS11_release_all_slots(PKCS11_CTX *context, PKCS11_SLOT *slots, unsigned int count);
unsigned long CMirrorShims_PKCS11_get_slotid_from_slot(PKCS11_SLOT *slot);
int CMirrorShims_PKCS11_login(PKCS11_SLOT *slot, int so, const char *pin);
int CMirrorShims_PKCS11_enumerate_keys(PKCS11_TOKEN *token, PKCS11_KEY **keys, unsigned int *count);
int CMirrorShims_PKCS11_enumerate_certs(PKCS11_TOKEN *token, PKCS11_CERT **certificates, unsigned int *count);
EVP_PKEY *CMirrorShims_PKCS11_get_private_key(PKCS11_KEY *key);
/// The OpenSSL error library number libp11 queues its PKCS#11 failures under (-1: not open).
int CMirrorShims_ERR_get_CKR_code(void);

#endif
