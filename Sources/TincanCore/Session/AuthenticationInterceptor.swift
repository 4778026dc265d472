/// Answers a 401's Basic or Digest challenge with a credential, once per hop, and sends the
/// answer with every later request to the same origin (redirects included).
///
/// A task whose ``TaskOptions/credential`` is set runs one first among its interceptors. The
/// answer never goes to another origin: a redirect elsewhere is sent without it and may be
/// challenged and answered anew.
public struct AuthenticationInterceptor: RequestInterceptor {
    /// The credential answered with.
    public var credential: Credential

    /// The `Authorization` value of the last answer, and the origin it is for.
    private var answer: (value: String, origin: URLReference)?
    /// The URL whose challenge was answered last: a second 401 there is the final response.
    private var answeredURL: URLReference?
    /// Digest's nonce count.
    private var nonceCount = 0

    /// Creates an interceptor answering with `credential`.
    public init(credential: Credential) {
        self.credential = credential
    }

    /// Sends the last answer's `Authorization` to the origin it was made for.
    public mutating func adapt(_ request: inout HTTPRequest) {
        guard let answer, TaskRunner.sameOrigin(request.url, answer.origin) else { return }
        request.headers.set(name: "Authorization", value: answer.value)
    }

    /// Retries a 401 at once with the answer to its strongest challenge (Digest before Basic),
    /// unless this URL's challenge was answered already or no scheme it offers is known.
    public mutating func retry(_ attempt: RequestAttempt) -> RetryDecision {
        guard let response = attempt.response, response.statusCode == 401, answeredURL != attempt.request.url,
              let challenge = Authenticator.preferred(AuthenticationChallenge.challenges(in: response))
        else { return .doNotRetry }
        nonceCount += 1
        guard let value = Authenticator.authorization(for: challenge, credential: credential, request: attempt.request, count: nonceCount) else {
            return .doNotRetry
        }
        answer = (value, attempt.request.url)
        answeredURL = attempt.request.url
        return .retry(.authentication(scheme: challenge.scheme, realm: challenge.realm), after: 0)
    }
}
