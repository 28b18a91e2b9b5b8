#include "CMirrorShims_dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

// RTLD_LOCAL: the library's symbols stay its own. RTLD_LAZY: its dependencies' function
// references are bound at their first call instead of all at once; a missing symbol among
// the ones asked for is still found here, by dlsym(3).
int CMirrorShims_library_open(const char *library, void **table, const char *const *names, int count, char *error, size_t size) {
    void *handle = dlopen(library, RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(error, size, "%s", reason ? reason : "dlopen failed");
        memset(table, 0, (size_t)count * sizeof(void *));
        return -1;
    }
    for (int i = 0; i < count; i++) {
        table[i] = dlsym(handle, names[i]);
        if (table[i] == NULL) {
            snprintf(error, size, "%s has no %s", library, names[i]);
            memset(table, 0, (size_t)count * sizeof(void *));
            dlclose(handle);
            return -1;
        }
    }
    return 0;
}
