/// What an option's value (or a command's operands) can be, so that shell completion offers
/// the right words: nothing for a flag, files, folders, the site names of the config, or one
/// of a closed set of words.
///
/// The option tables declare it next to the option (``OptionSpec/values``), so the completion
/// scripts are generated from the same tables as `--help` and the man page.
public enum OptionValues: Sendable, Equatable {
    /// A flag: it takes no value.
    case none
    /// Free text (a number, a URL, a duration): nothing to complete.
    case text
    /// A file path.
    case file
    /// A folder path.
    case directory
    /// The name of a site in the config (`sites[].name`), asked of the tool itself.
    case site
    /// One of these words, exactly as written (`P12`, `PEM`).
    case choices([String])

    /// The kind a value placeholder implies when the table declares none: `FILE` and `PATH`
    /// are files, `DIR` a folder, anything else free text; no placeholder is a flag.
    /// - Parameter valueName: the option's placeholder (``OptionSpec/valueName``).
    public static func implied(by valueName: String?) -> OptionValues {
        switch valueName {
        case nil: return .none
        case "FILE"?, "PATH"?, "FILE|URI"?: return .file
        case "DIR"?: return .directory
        default: return .text
        }
    }
}
