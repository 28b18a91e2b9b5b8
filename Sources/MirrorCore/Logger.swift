import Foundation
import CMirrorShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where and how diagnostics are written: plain lines or JSON lines on standard error.
///
/// The logger never formats a ``Secret`` other than as `<redacted>`. It is safe to share
/// between threads; each line is written with one `write(2)`.
public final class Logger: Sendable {
    public enum Level: Int, Sendable, Comparable, Codable {
        case debug = 0, info, warning, error
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        var label: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    public enum Format: String, Sendable, CaseIterable { case text, json }

    public let minimumLevel: Level
    public let format: Format
    private let fileDescriptor: Int32
    private let useColour: Bool

    /// - Parameters:
    ///   - minimumLevel: lines below this level are dropped.
    ///   - format: plain text or one JSON object a line.
    ///   - fileDescriptor: where to write (standard error by default).
    public init(minimumLevel: Level = .info, format: Format = .text, fileDescriptor: Int32 = 2) {
        self.minimumLevel = minimumLevel
        self.format = format
        self.fileDescriptor = fileDescriptor
        self.useColour = format == .text && Terminal.colourEnabled(fileDescriptor: fileDescriptor)
    }

    /// A logger that writes nothing.
    public static let silent = Logger(minimumLevel: .error, format: .text, fileDescriptor: -1)

    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }

    /// Logs an error as one line naming the cause and, in text format, a second line saying
    /// what to try. In JSON format the hint and category are fields of the same object.
    public func error(_ summary: String, hint: String, category: String) {
        guard fileDescriptor >= 0 else { return }
        switch format {
        case .json:
            log(.error, summary, fields: hint.isEmpty ? ["category": category] : ["hint": hint, "category": category])
        case .text:
            log(.error, summary)
            if !hint.isEmpty { Terminal.write("  try: " + hint + "\n", to: fileDescriptor) }
        }
    }

    public func log(_ level: Level, _ message: @autoclosure () -> String, fields: [String: String] = [:]) {
        guard level >= minimumLevel, fileDescriptor >= 0 else { return }
        let text = message()
        let line: String
        switch format {
        case .json:
            var object: [String: String] = fields
            object["level"] = level.label
            object["message"] = text
            object["time"] = UTCTime.iso8601(Date())
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            line = String(decoding: data, as: UTF8.self) + "\n"
        case .text:
            let prefix: String
            switch level {
            case .debug: prefix = "debug: "
            case .info: prefix = ""
            case .warning: prefix = useColour ? "\u{1B}[33mwarning:\u{1B}[0m " : "warning: "
            case .error: prefix = useColour ? "\u{1B}[31merror:\u{1B}[0m " : "error: "
            }
            line = "mtls-mirror: " + prefix + text + "\n"
        }
        Terminal.write(line, to: fileDescriptor)
    }
}

/// Small helpers for the controlling terminal.
public enum Terminal {
    /// True when `fileDescriptor` is a terminal.
    public static func isTTY(_ fileDescriptor: Int32) -> Bool { isatty(fileDescriptor) == 1 }

    /// Colour is used only on a terminal, and never when `NO_COLOR` is set (no-color.org).
    public static func colourEnabled(fileDescriptor: Int32) -> Bool {
        if let value = Environment.value("NO_COLOR"), !value.isEmpty { return false }
        if Environment.value("TERM") == "dumb" { return false }
        return isTTY(fileDescriptor)
    }

    /// Writes all of `text` to `fileDescriptor`, retrying short writes.
    public static func write(_ text: String, to fileDescriptor: Int32) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue } else { return } }
                offset += n
            }
        }
    }
}
