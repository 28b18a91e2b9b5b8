// MirrorCrawler: scope, robots.txt, the frontier state machine and the crawl loop.
