extension DemoSite {
    /// Stylesheets, images, the icon sprite and the font.
    static let assets: [File] = [
        File("css/site.css", """
            @import url("theme.css");

            @font-face {
              font-family: "Demo Sans";
              src: url("../fonts/demo-sans.woff2") format("woff2");
              font-display: swap;
            }

            body {
              font-family: "Demo Sans", system-ui, sans-serif;
              margin: 0;
              background: var(--paper) url(../images/pattern.svg) repeat;
              color: var(--ink);
            }
            header { display: flex; align-items: center; gap: .75rem; padding: 1rem 2rem; background: var(--brand); color: #fff; }
            header .logo { width: 32px; height: 32px; background: url('../images/logo.png') center / contain no-repeat; }
            header a { color: #fff; }
            nav a { margin-right: 1rem; }
            main { max-width: 46rem; margin: 1.5rem auto; padding: 1.5rem 2rem; background: #fff; border-radius: 8px; }
            .icon { width: 1.2em; height: 1.2em; vertical-align: -0.2em; fill: currentColor; }
            figure img { max-width: 100%; image-rendering: pixelated; }
            """),
        File("css/theme.css", """
            :root { --brand: #1e5aa0; --paper: #eef2f7; --ink: #1d2630; }
            a { color: var(--brand); }
            """),
        File("images/icons.svg", """
            <svg xmlns="http://www.w3.org/2000/svg">
              <symbol id="lock" viewBox="0 0 16 16"><path d="M4 7V5a4 4 0 0 1 8 0v2h1v8H3V7zm2 0h4V5a2 2 0 0 0-4 0z"/></symbol>
              <symbol id="camera" viewBox="0 0 16 16"><path d="M2 4h3l1-2h4l1 2h3v9H2z"/><circle cx="8" cy="8" r="2.5" fill="#fff"/></symbol>
              <symbol id="book" viewBox="0 0 16 16"><path d="M2 2h5a2 2 0 0 1 1 1 2 2 0 0 1 1-1h5v11H9a1 1 0 0 0-1 1 1 1 0 0 0-1-1H2z"/></symbol>
            </svg>
            """),
        File("images/pattern.svg", """
            <svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">
              <circle cx="12" cy="12" r="1" fill="#cfd8e3"/>
            </svg>
            """),
        File("images/logo.png", base64: "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAPklEQVR42mP48OUHSYiBOhrkohZAEGENcKXICKcGrKrR9DAQoxpZD7kaCKqG66GbBtp7mpx4ICemyUlLBBEAYK8Ge9Wdh70AAAAASUVORK5CYII="),
        File("images/logo-2x.png", base64: "iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAAaUlEQVR42mP48OUHTRHDqAVUtEAuagEyopoFaOZiIvItIGg0MdYwUMV0PHYwUMt0XHYwUNF0rHbQ3QIKTce0Y5hZQBXT0ewYtWCQWTCaD4ixYOgXdvSoD+hRo9GjTqZHq4JO7aIR3zYFACYsHzU0tHG1AAAAAElFTkSuQmCC"),
        File("images/hills-small.png", base64: "iVBORw0KGgoAAAANSUhEUgAAABgAAAAQCAIAAACDRijCAAAALElEQVR42mOYduIDVRDDqEHDwyC3aVFARKo4AxofjkgVZ0Djk41GDRqKBgEAJCWmZzx76scAAAAASUVORK5CYII="),
        File("images/hills-large.png", base64: "iVBORw0KGgoAAAANSUhEUgAAADAAAAAgCAIAAADbtmxLAAAARklEQVR42u3OMQ0AIBAEwVeHCIS9JuQgASoKapKnmGSbu2oix/yqAAICAgICAgIqB7Xsu6o/rn2q+uPa5QEBAQEBAQE9bgG6OMen19pSqwAAAABJRU5ErkJggg=="),
        // A WOFF2 header only: enough for a mirror to copy and a server to type; a browser
        // falls back to the next font in the stack.
        File("fonts/demo-sans.woff2", base64: "d09GMgABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
    ]
}
