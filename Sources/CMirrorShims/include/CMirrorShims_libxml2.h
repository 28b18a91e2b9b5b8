// libxml2's `xmlFree` is a global function-pointer variable, which Swift 6 rejects as not
// concurrency-safe. The header declares no libxml2 types so that Swift modules importing the
// shims do not pull libxml2's ICU headers (see Sources/CLibXML2/CLibXML2.h).
#ifndef CMIRRORSHIMS_LIBXML2_H
#define CMIRRORSHIMS_LIBXML2_H

void CMirrorShims_xmlFree(void *ptr);

#endif
