import Foundation
import MirrorCore

/// Reads a line from the controlling terminal with echo turned off (termios).
enum TerminalPrompt {
    /// Prompts on `/dev/tty`, reads one line without echo, and restores the terminal.
    ///
    /// - Throws: ``IdentityError/noTerminalForPrompt(file:)`` when `/dev/tty` cannot be opened or
    ///   is not a terminal.
    static func readSecret(prompt: String, file: String, device: String = "/dev/tty") throws(IdentityError) -> Secret {
        let descriptor = open(device, O_RDWR | O_NOCTTY)
        guard descriptor >= 0 else { throw .noTerminalForPrompt(file: file) }
        defer { close(descriptor) }
        var original = termios()
        guard isatty(descriptor) == 1, tcgetattr(descriptor, &original) == 0 else { throw .noTerminalForPrompt(file: file) }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ECHONL)
        guard tcsetattr(descriptor, TCSAFLUSH, &silent) == 0 else { throw .noTerminalForPrompt(file: file) }
        defer { _ = tcsetattr(descriptor, TCSAFLUSH, &original) }
        writeText(descriptor, prompt)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            bytes.append(byte)
        }
        let secret = Secret(String(decoding: bytes, as: UTF8.self))
        for index in bytes.indices { bytes[index] = 0 }
        return secret
    }

    private static func writeText(_ descriptor: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
