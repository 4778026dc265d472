import TincanCore

/// curl's `--retry N` and `--retry-delay SECONDS`, carried into `retry-policy:`.
extension CurlCommandReader {
    /// Reads `--retry`, `--retry-delay` or `--retry-max-time`.
    mutating func readRetry(_ option: CurlOption, _ text: String) throws(InterchangeError) {
        do {
            switch option {
            case .retry: retryLimit = try NumericRange.retries.named("--retry").integer(parsing: text)
            case .retryDelay: retryDelay = try NumericRange.retryDelay.named("--retry-delay").value(parsing: text)
            default: warnings.append("--retry-max-time \(text): not kept; Tincan's retries stop at --max-time (the whole task's deadline) or at the retry limit")
            }
        } catch {
            throw InterchangeError(.invalidNumber(error))
        }
    }

    /// Sets the request's retry policy, and says what differs from curl's.
    mutating func finishRetry() {
        guard let retryLimit else {
            if let retryDelay { warnings.append("--retry-delay \(ParameterValue.format(retryDelay)): not kept; without --retry curl does not retry either") }
            return
        }
        // curl's --retry-delay 0 means its own backoff, as leaving it out does.
        let delay = retryDelay.flatMap { $0 == 0 ? nil : $0 }
        request.retryPolicy = SavedRetryPolicy(limit: retryLimit, delay: delay)
        if let delay {
            warnings.append(CurlCommand.retryDelayWarning(delay))
        }
        let method = request.method.uppercased()
        if !RetryPolicy.defaultMethods.contains(method) {
            warnings.append("--retry \(retryLimit): curl retries a \(method) too; Tincan retries only idempotent methods unless retry-policy: methods: lists \(method)")
        }
    }
}
