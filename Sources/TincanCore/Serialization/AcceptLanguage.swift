/// Builds the default Accept-Language header from the user's locale environment.
///
/// AFNetworking takes `NSLocale.preferredLanguages`; on Linux the same preference lives in
/// `LANGUAGE` (a colon-separated list) and then `LC_ALL`, `LC_MESSAGES` and `LANG`. Each entry
/// loses its encoding and modifier (`fr_CA.UTF-8@euro` becomes `fr-CA`); `C` and `POSIX` say
/// nothing. Languages get q-values 1, 0.9, 0.8… and the list stops at 0.5: six languages at most.
public enum AcceptLanguage {
    /// The most languages the header lists.
    public static let maximumCount = 6

    /// The preferred languages, as BCP 47 tags, most preferred first.
    public static func preferredLanguages(environment: [String: String]) -> [String] {
        var candidates: [String] = []
        if let list = environment["LANGUAGE"] {
            candidates += list.split(separator: ":").map(String.init)
        }
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty {
                candidates.append(value)
                break
            }
        }
        var languages: [String] = []
        for candidate in candidates {
            guard let tag = languageTag(fromLocale: candidate), !languages.contains(tag) else { continue }
            languages.append(tag)
        }
        return languages.isEmpty ? ["en"] : languages
    }

    /// The header value, such as `fr-CA;q=1, fr;q=0.9, en;q=0.8`.
    public static func headerValue(environment: [String: String]) -> String {
        preferredLanguages(environment: environment)
            .prefix(maximumCount)
            .enumerated()
            .map { index, language in "\(language);q=\(qualityText(index))" }
            .joined(separator: ", ")
    }

    /// `1` for the first language, then `0.9`, `0.8`… as `%0.1g` prints them.
    static func qualityText(_ index: Int) -> String {
        index == 0 ? "1" : "0.\(10 - index)"
    }

    /// `fr_CA.UTF-8@euro` → `fr-CA`; nil for `C`, `POSIX` and text that is no language.
    static func languageTag(fromLocale locale: String) -> String? {
        var text = Substring(locale)
        if let dot = text.firstIndex(of: ".") { text = text[..<dot] }
        if let at = text.firstIndex(of: "@") { text = text[..<at] }
        guard !text.isEmpty, text != "C", text != "POSIX" else { return nil }
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isLetter && $0.isASCII }) else {
            return nil
        }
        guard parts.count > 1 else { return language.lowercased() }
        return language.lowercased() + "-" + parts[1]
    }
}
