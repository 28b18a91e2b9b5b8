extension DemoSite {
    /// A page with the site's head, header and navigation; `root` leads back to the site root
    /// (`""`, `"../"`, `"../../"`), so every link is relative as on many real intranets.
    static func page(_ path: String, title: String, root: String, head: String = "", body: String) -> File {
        File(path, """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · Demo intranet</title>
            <link rel="stylesheet" href="\(root)css/site.css">
            <link rel="icon" href="\(root)images/logo.png">
            \(head)</head>
            <body>
            <header>
              <span class="logo"></span>
              <strong>Demo intranet</strong>
              <nav>
                <a href="\(root)index.html">Home</a>
                <a href="\(root)about.html">About</a>
                <a href="\(root)gallery.html">Gallery</a>
                <a href="\(root)docs/">Docs</a>
                <a href="\(root)news/moved.html">News</a>
              </nav>
            </header>
            <main>
            \(body)
            </main>
            </body>
            </html>

            """)
    }

    /// The eight pages.
    static let pages: [File] = [
        page("index.html", title: "Home", root: "", body: """
            <h1><svg class="icon"><use href="images/icons.svg#lock"></use></svg> You are reading a mirror</h1>
            <p>This site came from an origin that <strong>refuses any client without a certificate</strong>.
            mtls-mirror fetched it over mutual TLS with the demo client certificate, rewrote every link to a
            relative one, and now serves the copy to your browser, which needs no certificate at all.</p>
            <picture>
              <source srcset="images/hills-large.png 2x, images/hills-small.png 1x" media="(min-width: 40em)">
              <img src="images/hills-small.png" srcset="images/hills-small.png 1x, images/hills-large.png 2x" alt="Hills" width="240" height="160">
            </picture>
            <ul>
              <li><a href="about.html">What the demo did</a></li>
              <li><a href="gallery.html">Pictures in every form</a></li>
              <li><a href="docs/">Documentation</a></li>
              <li><a href="news/moved.html">News (a meta-refresh redirect)</a></li>
            </ul>
            """),
        page("about.html", title: "About", root: "", body: """
            <h1>What the demo did</h1>
            <ol>
              <li>Generated a throwaway PKI in process: a server CA, a certificate for localhost, a client CA
              and a client certificate in a password-protected PKCS#12 file.</li>
              <li>Started an origin on loopback that requires a client certificate from that client CA.</li>
              <li>Mirrored it with <code>mtls-mirror</code>'s crawler, exactly as <code>mtls-mirror mirror</code> does.</li>
              <li>Started the local server over the mirror.</li>
            </ol>
            <p><img src="images/logo.png" srcset="images/logo.png 1x, images/logo-2x.png 2x" alt="" width="16" height="16">
            Ctrl-C stops both servers.</p>
            """),
        page("gallery.html", title: "Gallery", root: "", body: """
            <h1><svg class="icon"><use href="images/icons.svg#camera"></use></svg> Gallery</h1>
            <figure>
              <img src="images/hills-large.png" alt="Hills, large" width="480" height="320">
              <figcaption>A plain <code>img</code>.</figcaption>
            </figure>
            <figure>
              <img srcset="images/hills-small.png 240w, images/hills-large.png 480w" sizes="(max-width: 30em) 240px, 480px"
                   src="images/hills-small.png" alt="Hills, responsive">
              <figcaption><code>srcset</code> with width descriptors.</figcaption>
            </figure>
            """),
        page("docs/index.html", title: "Docs", root: "../", body: """
            <h1><svg class="icon"><use href="../images/icons.svg#book"></use></svg> Documentation</h1>
            <p>Start with the <a href="guide.html">guide</a>.</p>
            """),
        page("docs/guide.html", title: "Guide", root: "../", body: """
            <h1>Guide</h1>
            <p>The crawl followed links two levels deep from the home page, so this page is in the mirror.</p>
            <p>The <a href="archive/2019.html">2019 archive</a> is one level deeper. Without <code>--live</code>
            the mirror does not have it; run <code>mtls-mirror demo --live</code> and the local server fetches it
            from the origin over mutual TLS the first time you open it.</p>
            """),
        page("docs/archive/2019.html", title: "Archive 2019", root: "../../", body: """
            <h1>Archive 2019</h1>
            <p>This page lies beyond the crawl's depth. If you are reading it through the local server,
            live mode fetched it from the origin just now, with the client certificate, and stored it in the mirror.</p>
            """),
        page("news/moved.html", title: "News has moved", root: "../",
             head: "<meta http-equiv=\"refresh\" content=\"0; url=latest.html\">\n", body: """
            <p>The news moved to <a href="latest.html">latest.html</a>.</p>
            """),
        page("news/latest.html", title: "Latest news", root: "../", body: """
            <h1>Latest news</h1>
            <p>You arrived through a <code>meta http-equiv="refresh"</code> redirect, which the mirror rewrote too.</p>
            """),
    ]
}
