import Foundation
import TincanCore

/// `--auth-type oauth2` on `send` and `ws`: the grant the options give, and how it reaches the user.
extension SendAuthOptions {
    /// The OAuth 2.0 grant the options give, or nil without `--auth-type oauth2`.
    var oauth2Authorization: OAuth2Authorization? {
        get throws {
            let options = self
            guard options.authType == .oauth2, let grant = options.grant, let tokenURL = options.tokenURL, let clientID = options.clientID else { return nil }
            var username: String?
            var password: String?
            if grant == .password, let user = options.user {
                let colon = user.firstIndex(of: ":")
                guard let colon else { throw CLIFailure.badInput("--user '\(user)': the password grant needs NAME:PASSWORD") }
                username = String(user[..<colon])
                password = String(user[user.index(after: colon)...])
            }
            let configuration = OAuth2Configuration(
                grant: grant, tokenURL: URLReference(parsing: tokenURL), clientID: clientID, clientSecret: options.clientSecret,
                clientAuthentication: options.clientAuth ?? .basic, scope: options.scope, audience: options.audience,
                authorizationURL: options.authURL.map(URLReference.init(parsing:)), redirectURI: options.redirectURI.map(URLReference.init(parsing:)),
                deviceAuthorizationURL: options.deviceURL.map(URLReference.init(parsing:)), username: username, password: password,
                refreshToken: options.refreshToken, extraParameters: options.tokenParams)
            if let problem = configuration.problem() { throw CLIFailure.badInput("--auth-type oauth2: \(problem)") }
            return OAuth2Authorization(configuration: configuration, interaction: SendCommand.oauth2Interaction())
        }
    }
}

extension SendCommand {
    /// The command line's interaction: the authorization URL or the device code on standard
    /// error (through the terminal sanitiser), and `$BROWSER` opened on it when set.
    static func oauth2Interaction(environment: [String: String] = ProcessInfo.processInfo.environment) -> OAuth2Interaction {
        let browser = Browser(environment: environment)
        let opening = browser == nil ? "" : " (opening $BROWSER)"
        let showAuthorization: @Sendable (URLReference) async -> Void = { url in
            StandardError.print("tincan: OAuth 2.0: open this URL to authorize\(opening):\n  \(url.string)\n")
        }
        let showDeviceCode: @Sendable (OAuth2DevicePrompt) async -> Void = { prompt in
            StandardError.print("tincan: OAuth 2.0: \(prompt.text)\n")
        }
        var open: (@Sendable (String) -> Void)?
        if let browser { open = { browser.open($0) } }
        return OAuth2Interaction(showAuthorization: showAuthorization, showDeviceCode: showDeviceCode, openBrowser: open)
    }
}
