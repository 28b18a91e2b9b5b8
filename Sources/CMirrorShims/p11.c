#include "CMirrorShims_p11.h"
#include "CMirrorShims_dl.h"

// libp11 is opened with dlopen(3), not linked (see the header), by the first call that needs
// it; every call below waits for that one load (pthread_once). Never closed: the keys it hands
// out carry its methods.

#define CMIRRORSHIMS_P11_LIBRARY "libp11.so.3"

static struct {
    __typeof__(PKCS11_CTX_new) *contextNew;
    __typeof__(PKCS11_CTX_load) *contextLoad;
    __typeof__(PKCS11_CTX_unload) *contextUnload;
    __typeof__(PKCS11_CTX_free) *contextFree;
    __typeof__(PKCS11_enumerate_slots) *enumerateSlots;
    __typeof__(PKCS11_release_all_slots) *releaseAllSlots;
    __typeof__(PKCS11_get_slotid_from_slot) *slotID;
    __typeof__(PKCS11_login) *login;
    __typeof__(PKCS11_enumerate_keys) *enumerateKeys;
    __typeof__(PKCS11_enumerate_certs) *enumerateCertificates;
    __typeof__(PKCS11_get_private_key) *privateKey;
    __typeof__(ERR_get_CKR_code) *errorLibrary;
} api;

static CMirrorShims_library_state state = CMIRRORSHIMS_LIBRARY_STATE_INIT;

static void load(void) {
    static const char *const names[] = {
        "PKCS11_CTX_new", "PKCS11_CTX_load", "PKCS11_CTX_unload", "PKCS11_CTX_free", "PKCS11_enumerate_slots",
        "PKCS11_release_all_slots", "PKCS11_get_slotid_from_slot", "PKCS11_login", "PKCS11_enumerate_keys",
        "PKCS11_enumerate_certs", "PKCS11_get_private_key", "ERR_get_CKR_code",
    };
    _Static_assert(sizeof(api) == sizeof(names) / sizeof(names[0]) * sizeof(void *), "one name per entry");
    int count = (int)(sizeof(names) / sizeof(names[0]));
    if (CMirrorShims_library_open(CMIRRORSHIMS_P11_LIBRARY, (void **)&api, names, count, state.error, sizeof(state.error)) != 0) return;
    state.loaded = 1;
}

static int ready(void) {
    pthread_once(&state.once, load);
    return state.loaded;
}

int CMirrorShims_p11_load(void) { return ready() ? 0 : -1; }

const char *CMirrorShims_p11_load_error(void) { return ready() ? NULL : state.error; }

const char *CMirrorShims_p11_library_name(void) { return CMIRRORSHIMS_P11_LIBRARY; }

PKCS11_CTX *CMirrorShims_PKCS11_CTX_new(void) { return ready() ? api.contextNew() : NULL; }
int CMirrorShims_PKCS11_CTX_load(PKCS11_CTX *context, const char *module) { return ready() ? api.contextLoad(context, module) : -1; }
void CMirrorShims_PKCS11_CTX_unload(PKCS11_CTX *context) { if (ready()) api.contextUnload(context); }
void CMirrorShims_PKCS11_CTX_free(PKCS11_CTX *context) { if (ready()) api.contextFree(context); }
int CMirrorShims_PKCS11_enumerate_slots(PKCS11_CTX *context, PKCS11_SLOT **slots, unsigned int *count) {
    return ready() ? api.enumerateSlots(context, slots, count) : -1;
}
void CMirrorShims_PKCS11_release_all_slots(PKCS11_CTX *context, PKCS11_SLOT *slots, unsigned int count) {
    if (ready()) api.releaseAllSlots(context, slots, count);
}
unsigned long CMirrorShims_PKCS11_get_slotid_from_slot(PKCS11_SLOT *slot) { return ready() ? api.slotID(slot) : 0; }
int CMirrorShims_PKCS11_login(PKCS11_SLOT *slot, int so, const char *pin) { return ready() ? api.login(slot, so, pin) : -1; }
int CMirrorShims_PKCS11_enumerate_keys(PKCS11_TOKEN *token, PKCS11_KEY **keys, unsigned int *count) {
    return ready() ? api.enumerateKeys(token, keys, count) : -1;
}
int CMirrorShims_PKCS11_enumerate_certs(PKCS11_TOKEN *token, PKCS11_CERT **certificates, unsigned int *count) {
    return ready() ? api.enumerateCertificates(token, certificates, count) : -1;
}
EVP_PKEY *CMirrorShims_PKCS11_get_private_key(PKCS11_KEY *key) { return ready() ? api.privateKey(key) : NULL; }
int CMirrorShims_ERR_get_CKR_code(void) { return ready() ? api.errorLibrary() : -1; }
