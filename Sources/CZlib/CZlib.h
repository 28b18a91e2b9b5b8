// Umbrella header for zlib (Debian: zlib1g-dev): gzip-compressed sitemaps (sitemap.xml.gz), gzip
// members for WARC files, CRC-32 for the WACZ zip, and the gzip/deflate decoding of bodies the
// engine receives undecoded.
#include <zlib.h>
