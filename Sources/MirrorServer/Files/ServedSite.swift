/// A site folder to serve: `<output>/<name>/` holding `current -> snapshots/<id>/`.
public struct ServedSite: Sendable, Equatable {
    /// The site's name, also its URL prefix (`/NAME/`) when several sites are served.
    public var name: String
    /// The site folder (the one holding `current`).
    public var directory: String

    /// Creates a site entry.
    /// - Parameters:
    ///   - name: the site's name.
    ///   - directory: the site folder.
    public init(name: String, directory: String) {
        self.name = name
        self.directory = directory
    }
}
