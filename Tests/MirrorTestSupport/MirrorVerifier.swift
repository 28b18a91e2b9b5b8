import Foundation
import MirrorCore
import MirrorDocument

/// Checks that a mirror folder works offline: every reference in its HTML and CSS files either
/// leads to a file inside the folder, is deliberately external, or is not fetchable at all.
///
/// The verifier walks every `.html`, `.htm` and `.css` file, and every extensionless file that
/// starts like HTML, extracts references with MirrorDocument's ``HTMLExtractor`` and
/// ``CSSExtractor``, and classifies each one with ``classify(_:directory:originPrefixes:absoluteBase:)``
/// using `file://` semantics. A local `<base href>` changes the folder relative references
/// resolve against; an absolute one makes them resolve against the web.
///
/// ```swift
/// let report = MirrorVerifier.verify(snapshotRoot: current, originPrefixes: ["https://127.0.0.1:8443/"])
/// #expect(report.isClean, "\(report)")
/// ```
public enum MirrorVerifier {
    /// Verifies every HTML and CSS file under `snapshotRoot`.
    ///
    /// - Parameters:
    ///   - snapshotRoot: The mirror folder (symbolic links, such as `current`, are resolved first).
    ///   - originPrefixes: The in-scope origins, such as `"https://127.0.0.1:8443/"`: absolute
    ///     references starting with one of them are reported in ``Report/pointsAtOrigin``.
    /// - Returns: The counts and every finding. Unreadable files are reported, not thrown.
    public static func verify(snapshotRoot: URL, originPrefixes: [String]) -> Report {
        let root = snapshotRoot.resolvingSymlinksInPath().standardizedFileURL
        var report = Report()
        for relativePath in documentPaths(under: root) {
            let url = root.appendingPathComponent(relativePath)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                report.unreadable.append(Finding(file: relativePath, reference: "cannot read the file"))
                continue
            }
            let bytes = [UInt8](data)
            let references: [Reference]
            if url.pathExtension.lowercased() == "css" {
                references = CSSExtractor.extract(bytes)
            } else {
                do {
                    references = try HTMLExtractor.extract(bytes).references
                } catch {
                    report.unreadable.append(Finding(file: relativePath, reference: error.summary))
                    continue
                }
            }
            report.checkedFiles += 1
            check(references, in: relativePath, root: root, originPrefixes: originPrefixes, into: &report)
        }
        return report
    }

    /// Classifies and checks the references of one file.
    private static func check(
        _ references: [Reference], in relativePath: String, root: URL, originPrefixes: [String], into report: inout Report
    ) {
        let fileDirectory = Array(relativePath.split(separator: "/").dropLast().map(String.init))
        var directory = fileDirectory
        var absoluteBase: WebURL?
        if let base = references.first(where: { $0.kind == .base }) {
            switch classify(base.value, directory: fileDirectory, originPrefixes: originPrefixes) {
            case .local(let segments, let isDirectory):
                directory = isDirectory ? segments : Array(segments.dropLast())
            case .pointsAtOrigin, .external:
                absoluteBase = WebURL(base.value)
            default:
                break
            }
        }
        for reference in references where reference.kind != .base {
            report.checkedReferences += 1
            let finding = Finding(file: relativePath, reference: reference.value)
            switch classify(reference.value, directory: directory, originPrefixes: originPrefixes, absoluteBase: absoluteBase) {
            case .skipped:
                report.skippedReferences += 1
            case .external:
                report.externalReferences += 1
            case .pointsAtOrigin:
                report.pointsAtOrigin.append(finding)
            case .escapesRoot:
                report.escapesRoot.append(finding)
            case .broken(let reason):
                report.broken.append(BrokenReference(file: relativePath, reference: reference.value, reason: reason))
            case .local(let segments, let isDirectory):
                switch target(segments, isDirectory: isDirectory, root: root) {
                case .success:
                    report.resolvedReferences += 1
                case .failure(.escapes):
                    report.escapesRoot.append(finding)
                case .failure(.broken(let reason)):
                    report.broken.append(BrokenReference(file: relativePath, reference: reference.value, reason: reason))
                }
            }
        }
    }

    private enum TargetProblem: Error {
        case escapes
        case broken(Reason)
    }

    /// Checks that the file a local reference names exists inside `root` (for a directory,
    /// its `index.html`), also after resolving symbolic links.
    private static func target(_ segments: [String], isDirectory: Bool, root: URL) -> Result<Void, TargetProblem> {
        let path = segments.joined(separator: "/")
        var url = segments.reduce(root) { $0.appendingPathComponent($1) }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
        if isDirectory {
            guard exists, isFolder.boolValue else { return .failure(.broken(.missingTarget(path: path.isEmpty ? "." : path + "/"))) }
            url = url.appendingPathComponent("index.html")
            guard FileManager.default.fileExists(atPath: url.path) else {
                return .failure(.broken(.directoryWithoutIndex(path: path.isEmpty ? "." : path + "/")))
            }
        } else {
            guard exists else { return .failure(.broken(.missingTarget(path: path))) }
            if isFolder.boolValue { return .failure(.broken(.targetIsDirectory(path: path))) }
        }
        let real = url.resolvingSymlinksInPath().path
        return real.hasPrefix(root.path + "/") ? .success(()) : .failure(.escapes)
    }

    /// Paths, relative to `root` and sorted, of the files to check. Symbolic links are not
    /// followed: a linked file is a reference target, never a document of the mirror. The
    /// top-level `_mirror/` folder (manifest, report, original bytes kept for refresh) is
    /// bookkeeping, not part of the browsable copy, and is skipped.
    static func documentPaths(under root: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey], options: [])
        else { return [] }
        var paths: [String] = []
        let prefixLength = root.path.count + 1
        for case let url as URL in walker {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            guard values?.isRegularFile == true, values?.isSymbolicLink != true else { continue }
            let ext = url.pathExtension.lowercased()
            let isDocument = ["html", "htm", "css"].contains(ext) || (ext.isEmpty && sniffsAsHTML(url))
            guard isDocument else { continue }
            let path = url.path
            guard path.count > prefixLength, path.hasPrefix(root.path + "/") else { continue }
            if path.dropFirst(prefixLength).hasPrefix(bookkeepingFolder + "/") { continue }
            paths.append(String(path.dropFirst(prefixLength)))
        }
        return paths.sorted()
    }

    /// True when the first bytes, after a BOM and whitespace, open an HTML document
    /// (`<!doctype html`, `<html`, `<head`, `<body`), ASCII case-insensitively.
    static let bookkeepingFolder = "_mirror"

    static func sniffsAsHTML(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 512) else { return false }
        var bytes = [UInt8](head)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let text = String(decoding: bytes.drop { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }.prefix(16), as: UTF8.self)
            .lowercased()
        return ["<!doctype html", "<html", "<head", "<body"].contains { text.hasPrefix($0) }
    }
}
