/// The scripts the render layer runs in a page (`Runtime.evaluate`). They read the page; the
/// only changes they make are the ones the stored copy needs.
enum PageScripts {
    /// Run once the page is quiet after its load event: images and frames marked
    /// `loading="lazy"` load now, and the page is scrolled to its end and back so that
    /// scroll-triggered loaders fire. Then the page gets another quiet period.
    static let settle = """
        (() => {
          for (const element of document.querySelectorAll('img[loading="lazy"], iframe[loading="lazy"]')) element.loading = 'eager';
          const end = document.documentElement ? document.documentElement.scrollHeight : 0;
          window.scrollTo(0, end);
          window.scrollTo(0, 0);
          return end;
        })()
        """

    /// Returns, as one JSON string, the page's URL, its DOM serialised with its doctype, and
    /// the same for every same-origin frame (nested frames too, at most 5 levels deep).
    ///
    /// The serialised copy is taken from a clone, whose `<meta charset>` (or `http-equiv`
    /// content type) is made to say UTF-8, because the stored bytes are UTF-8; a page without
    /// one gets `<meta charset="utf-8">` as the first child of its head.
    static let capture = """
        (() => {
          const serialize = (doc) => {
            const root = doc.documentElement;
            if (!root) return '';
            const clone = root.cloneNode(true);
            let declared = false;
            for (const meta of clone.querySelectorAll('meta[charset]')) { meta.setAttribute('charset', 'utf-8'); declared = true; }
            for (const meta of clone.querySelectorAll('meta[http-equiv]')) {
              if ((meta.getAttribute('http-equiv') || '').toLowerCase() === 'content-type') {
                meta.setAttribute('content', 'text/html; charset=utf-8'); declared = true;
              }
            }
            if (!declared) {
              const head = clone.querySelector('head');
              if (head) { const meta = doc.createElement('meta'); meta.setAttribute('charset', 'utf-8'); head.insertBefore(meta, head.firstChild); }
            }
            const type = doc.doctype;
            let doctype = '';
            if (type) {
              doctype = '<!DOCTYPE ' + type.name;
              if (type.publicId) doctype += ' PUBLIC "' + type.publicId + '"';
              if (type.systemId) doctype += (type.publicId ? '' : ' SYSTEM') + ' "' + type.systemId + '"';
              doctype += '>\\n';
            }
            return doctype + clone.outerHTML;
          };
          const frames = [];
          const walk = (win, depth) => {
            if (depth > 5) return;
            for (let i = 0; i < win.frames.length; i++) {
              try {
                const child = win.frames[i];
                const href = child.location.href;
                if (href.startsWith('http:') || href.startsWith('https:')) frames.push({ url: href, html: serialize(child.document) });
                walk(child, depth + 1);
              } catch (e) { /* another origin: not readable, and not ours to store */ }
            }
          };
          walk(window, 0);
          return JSON.stringify({ url: location.href, html: serialize(document), frames: frames });
        })()
        """
}
