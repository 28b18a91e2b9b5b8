import MirrorCore

/// Names of Kubernetes objects made from site names.
///
/// A site name is 1–64 of `A-Za-z0-9._-`; an object name must be a DNS-1123 label: lower-case
/// letters, digits and `-`, starting and ending with a letter or digit, and at most 52
/// characters for a CronJob (its Jobs add 11). Names that change on the way (upper case, `.`,
/// `_`, or too long) get the first 8 hex digits of the site name's SHA-256, so two sites that
/// differ only in what was changed still get two names.
public enum KubernetesName {
    /// The longest CronJob name.
    public static let cronJobLimit = 52

    /// `mtls-mirror-SITE`, made a DNS-1123 label of at most `limit` characters.
    /// - Parameters:
    ///   - site: the site's name.
    ///   - limit: the longest name allowed.
    public static func site(_ site: String, limit: Int = cronJobLimit) -> String {
        var label = ""
        for character in site.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                label.append(character)
            } else if !label.hasSuffix("-") {
                label.append("-")
            }
        }
        while label.hasPrefix("-") { label.removeFirst() }
        while label.hasSuffix("-") { label.removeLast() }
        let plain = "mtls-mirror-" + label
        if label == site, plain.count <= limit { return plain }
        let hash = String(SHA256Digest.hex(Array(site.utf8)).prefix(8))
        var stem = String(plain.prefix(limit - hash.count - 1))
        while stem.hasSuffix("-") { stem.removeLast() }
        return stem + "-" + hash
    }
}
