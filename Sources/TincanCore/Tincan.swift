/// Facts about this build of Tincan that requests and reports carry.
public enum Tincan {
    /// The version of Tincan, as the User-Agent and `--version` report it.
    public static let version = "0.1.0"

    /// The Swift language version this build was compiled with, major and minor.
    public static var swiftVersion: String {
        #if swift(>=6.4)
        return "6.4"
        #elseif swift(>=6.3)
        return "6.3"
        #elseif swift(>=6.2)
        return "6.2"
        #else
        return "6"
        #endif
    }
}
