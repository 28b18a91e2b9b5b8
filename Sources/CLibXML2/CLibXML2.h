// Umbrella header for libxml2 (Debian: libxml2-dev).
//
// Debian's libxml2 is built with ICU, and its headers then include <unicode/...>. Foundation
// carries its own ICU, and a module importing both fails to build ("'UErrorCode' has different
// definitions in different modules"). We never use libxml2's ICU API, so switch it off before
// the libxml2 headers are read.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>
