// Umbrella header for libdeflate (Debian: libdeflate-dev): whole-buffer gzip members for WARC
// records, about twice as fast as zlib at the same ratio (README "Archive output"). Headers only:
// the library is opened at run time, and called through CMirrorShims (CMirrorShims_deflate.h).
#include <libdeflate.h>
