/// Which parser a stored body goes through, from its media type (or, when the server sent
/// none, from the path's extension).
enum DocumentType: Equatable {
    case html, css, other

    init(mediaType: String?, path: String) {
        switch mediaType {
        case "text/html", "application/xhtml+xml": self = .html
        case "text/css": self = .css
        case nil, "", "application/octet-stream":
            let lower = path.lowercased()
            if lower.hasSuffix(".html") || lower.hasSuffix(".htm") || lower.hasSuffix("/") { self = .html }
            else if lower.hasSuffix(".css") { self = .css }
            else { self = .other }
        default: self = .other
        }
    }
}
