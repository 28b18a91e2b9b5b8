// Umbrella header for zlib (Debian: zlib1g-dev), for gzip-compressed sitemaps (sitemap.xml.gz).
// libcurl and libxml2 link it already; this target only makes its API visible to Swift.
#include <zlib.h>
