/// What a device authorization response asks the user to do (RFC 8628 §3.2).
public struct OAuth2DevicePrompt: Sendable, Hashable {
    /// Where the user goes to enter the code.
    public var verificationURI: String
    /// The same page with the code in it, when the server gives one.
    public var verificationURIComplete: String?
    /// The code the user enters.
    public var userCode: String
    /// Seconds before the code expires.
    public var expiresIn: Int
    /// Seconds between polls, as the server first asked.
    public var interval: Int

    /// The lines shown to the user, everything from the server made safe for a terminal.
    public var text: String {
        var lines = ["To authorize, open \(TerminalText.line(verificationURI)) and enter the code \(TerminalText.line(userCode))"]
        if let complete = verificationURIComplete { lines.append("(or open \(TerminalText.line(complete)))") }
        lines.append("Waiting for approval (polling every \(interval) s, the code expires in \(expiresIn) s)…")
        return lines.joined(separator: "\n")
    }
}

/// How a grant that needs the user reaches them: the front end shows the authorization URL or
/// the device code, and opens a browser when one is configured.
public struct OAuth2Interaction: Sendable {
    /// Shows the authorization request's URL (the authorization-code grant), before any browser opens.
    public var showAuthorization: @Sendable (URLReference) async -> Void
    /// Shows the device flow's verification URL and user code.
    public var showDeviceCode: @Sendable (OAuth2DevicePrompt) async -> Void
    /// Opens a URL in the user's browser, or nil when none is configured.
    public var openBrowser: (@Sendable (String) -> Void)?
    /// How long the loopback redirect is waited for.
    public var redirectTimeout: Duration

    /// Creates an interaction.
    public init(showAuthorization: @escaping @Sendable (URLReference) async -> Void = { _ in },
                showDeviceCode: @escaping @Sendable (OAuth2DevicePrompt) async -> Void = { _ in },
                openBrowser: (@Sendable (String) -> Void)? = nil, redirectTimeout: Duration = .seconds(300)) {
        self.showAuthorization = showAuthorization
        self.showDeviceCode = showDeviceCode
        self.openBrowser = openBrowser
        self.redirectTimeout = redirectTimeout
    }

    /// No user to ask: an authorization-code or device grant waits for a redirect or an
    /// approval that only another program can give.
    public static let none = OAuth2Interaction()
}
