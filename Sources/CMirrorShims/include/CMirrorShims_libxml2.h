// libxml2, opened at run time (dlopen(3)) instead of linked: Debian's libxml2 brings ICU
// (libicuuc, and the 30 MB libicudata) and liblzma, whose loading and relocation took about
// 1.2 ms of every run's start before `main` (issue #27). Swift calls libxml2's functions only
// through these; each waits until libxml2 is open and xmlInitParser(3) has run. Its types,
// constants and struct fields come from the CLibXML2 module as before.
#ifndef CMIRRORSHIMS_LIBXML2_H
#define CMIRRORSHIMS_LIBXML2_H

// As in CLibXML2.h: libxml2's ICU declarations clash with Foundation's ICU, and are not used.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>

/// Opens libxml2 (once) and initialises it: 0, or -1 when it cannot be (see
/// CMirrorShims_xml_load_error).
int CMirrorShims_xml_load(void);
/// Why libxml2 could not be opened; NULL when it was.
const char *CMirrorShims_xml_load_error(void);
/// The file name opened: "libxml2.so.2" (Debian's libxml2).
const char *CMirrorShims_xml_library_name(void);

htmlParserCtxtPtr CMirrorShims_htmlCreateMemoryParserCtxt(const char *buffer, int size);
int CMirrorShims_htmlCtxtUseOptions(htmlParserCtxtPtr context, int options);
int CMirrorShims_htmlParseDocument(htmlParserCtxtPtr context);
void CMirrorShims_htmlFreeParserCtxt(htmlParserCtxtPtr context);
long CMirrorShims_xmlByteConsumed(xmlParserCtxtPtr context);
void CMirrorShims_xmlFreeDoc(xmlDocPtr doc);

xmlTextReaderPtr CMirrorShims_xmlReaderForMemory(const char *buffer, int size, const char *url, const char *encoding, int options);
void CMirrorShims_xmlFreeTextReader(xmlTextReaderPtr reader);
int CMirrorShims_xmlTextReaderRead(xmlTextReaderPtr reader);
int CMirrorShims_xmlTextReaderNodeType(xmlTextReaderPtr reader);
int CMirrorShims_xmlTextReaderIsEmptyElement(xmlTextReaderPtr reader);
const xmlChar *CMirrorShims_xmlTextReaderConstValue(xmlTextReaderPtr reader);
const xmlChar *CMirrorShims_xmlTextReaderConstLocalName(xmlTextReaderPtr reader);
int CMirrorShims_xmlTextReaderGetParserLineNumber(xmlTextReaderPtr reader);

#endif
