// Umbrella header for SQLite 3 (Debian: libsqlite3-dev): a run's manifest entries on disk, in a
// scratch database with a bounded page cache, upserted by URL and read back sorted, so that a
// crawl's memory stays flat as the site grows (issue #27).
#include <sqlite3.h>
