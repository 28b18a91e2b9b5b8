#include "CMirrorShims_libxml2.h"
#include "CMirrorShims_dl.h"

#include <pthread.h>

// libxml2 is opened with dlopen(3), not linked (see the header). `mirror` and `refresh` open
// it on libcurl's loading thread, after libcurl (CMirrorShims_curl_preload_then); the first
// HTML document comes many milliseconds later. Every call below waits for the load (pthread_once), so none can reach
// libxml2 before xmlInitParser(3) has run, which must happen once before parsers are used
// from several threads.

#define CMIRRORSHIMS_XML_LIBRARY "libxml2.so.2"

static struct {
    __typeof__(xmlInitParser) *initParser;
    __typeof__(htmlCreateMemoryParserCtxt) *htmlCreateMemoryParserCtxt;
    __typeof__(htmlCtxtUseOptions) *htmlCtxtUseOptions;
    __typeof__(htmlParseDocument) *htmlParseDocument;
    __typeof__(htmlFreeParserCtxt) *htmlFreeParserCtxt;
    __typeof__(xmlByteConsumed) *xmlByteConsumed;
    __typeof__(xmlFreeDoc) *xmlFreeDoc;
    __typeof__(xmlReaderForMemory) *xmlReaderForMemory;
    __typeof__(xmlFreeTextReader) *xmlFreeTextReader;
    __typeof__(xmlTextReaderRead) *xmlTextReaderRead;
    __typeof__(xmlTextReaderNodeType) *xmlTextReaderNodeType;
    __typeof__(xmlTextReaderIsEmptyElement) *xmlTextReaderIsEmptyElement;
    __typeof__(xmlTextReaderConstValue) *xmlTextReaderConstValue;
    __typeof__(xmlTextReaderConstLocalName) *xmlTextReaderConstLocalName;
    __typeof__(xmlTextReaderGetParserLineNumber) *xmlTextReaderGetParserLineNumber;
} api;

static CMirrorShims_library_state state = CMIRRORSHIMS_LIBRARY_STATE_INIT;

static void load(void) {
    static const char *const names[] = {
        "xmlInitParser", "htmlCreateMemoryParserCtxt", "htmlCtxtUseOptions", "htmlParseDocument", "htmlFreeParserCtxt",
        "xmlByteConsumed", "xmlFreeDoc", "xmlReaderForMemory", "xmlFreeTextReader", "xmlTextReaderRead",
        "xmlTextReaderNodeType", "xmlTextReaderIsEmptyElement", "xmlTextReaderConstValue", "xmlTextReaderConstLocalName",
        "xmlTextReaderGetParserLineNumber",
    };
    _Static_assert(sizeof(api) == sizeof(names) / sizeof(names[0]) * sizeof(void *), "one name per entry");
    int count = (int)(sizeof(names) / sizeof(names[0]));
    if (CMirrorShims_library_open(CMIRRORSHIMS_XML_LIBRARY, (void **)&api, names, count, state.error, sizeof(state.error)) != 0) return;
    api.initParser();
    state.loaded = 1;
}

static int ready(void) {
    pthread_once(&state.once, load);
    return state.loaded;
}

int CMirrorShims_xml_load(void) { return ready() ? 0 : -1; }

const char *CMirrorShims_xml_load_error(void) { return ready() ? NULL : state.error; }

const char *CMirrorShims_xml_library_name(void) { return CMIRRORSHIMS_XML_LIBRARY; }

htmlParserCtxtPtr CMirrorShims_htmlCreateMemoryParserCtxt(const char *buffer, int size) {
    return ready() ? api.htmlCreateMemoryParserCtxt(buffer, size) : NULL;
}
int CMirrorShims_htmlCtxtUseOptions(htmlParserCtxtPtr context, int options) { return ready() ? api.htmlCtxtUseOptions(context, options) : -1; }
int CMirrorShims_htmlParseDocument(htmlParserCtxtPtr context) { return ready() ? api.htmlParseDocument(context) : -1; }
void CMirrorShims_htmlFreeParserCtxt(htmlParserCtxtPtr context) { if (ready()) api.htmlFreeParserCtxt(context); }
long CMirrorShims_xmlByteConsumed(xmlParserCtxtPtr context) { return ready() ? api.xmlByteConsumed(context) : -1; }
void CMirrorShims_xmlFreeDoc(xmlDocPtr doc) { if (ready()) api.xmlFreeDoc(doc); }

xmlTextReaderPtr CMirrorShims_xmlReaderForMemory(const char *buffer, int size, const char *url, const char *encoding, int options) {
    return ready() ? api.xmlReaderForMemory(buffer, size, url, encoding, options) : NULL;
}
void CMirrorShims_xmlFreeTextReader(xmlTextReaderPtr reader) { if (ready()) api.xmlFreeTextReader(reader); }
int CMirrorShims_xmlTextReaderRead(xmlTextReaderPtr reader) { return ready() ? api.xmlTextReaderRead(reader) : -1; }
int CMirrorShims_xmlTextReaderNodeType(xmlTextReaderPtr reader) { return ready() ? api.xmlTextReaderNodeType(reader) : -1; }
int CMirrorShims_xmlTextReaderIsEmptyElement(xmlTextReaderPtr reader) { return ready() ? api.xmlTextReaderIsEmptyElement(reader) : -1; }
const xmlChar *CMirrorShims_xmlTextReaderConstValue(xmlTextReaderPtr reader) { return ready() ? api.xmlTextReaderConstValue(reader) : NULL; }
const xmlChar *CMirrorShims_xmlTextReaderConstLocalName(xmlTextReaderPtr reader) { return ready() ? api.xmlTextReaderConstLocalName(reader) : NULL; }
int CMirrorShims_xmlTextReaderGetParserLineNumber(xmlTextReaderPtr reader) { return ready() ? api.xmlTextReaderGetParserLineNumber(reader) : -1; }
