#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlmemory.h>
#include "CMirrorShims_libxml2.h"

void CMirrorShims_xmlFree(void *ptr) { xmlFree(ptr); }
