extension Explanation {
    /// Explains a response serializer's verdict: which status codes and content types it
    /// accepts, which check failed, which serializer decoded the body, and how the errors chain.
    ///
    /// - Parameters:
    ///   - response: The response head.
    ///   - data: The body.
    ///   - request: The request that was answered (a HEAD response skips the content-type check).
    ///   - serializer: The serializer that judged it, configured as it was.
    ///   - serialization: Its verdict.
    public static func validation(of response: HTTPResponse, data: [UInt8], request: HTTPRequest?, serializer: any ResponseSerializer, serialization: ResponseSerialization) -> Explanation {
        var lines: [Line] = []
        let members = (serializer as? CompoundResponseSerializer)?.serializers ?? []
        if members.isEmpty {
            lines.append(Line("The `\(serializer.kind.rawValue)` response serializer judged the response."))
        } else {
            lines.append(Line("The `compound` response serializer tries \(members.map { "`\($0.kind.rawValue)`" }.joined(separator: ", ")), then `http`; the first that decodes the body wins."))
        }
        let statusRule = serializer.acceptableStatusCodes
        let code = response.statusCode
        if let statusRule {
            if statusRule.contains(code) {
                lines.append(Line("Status \(code) is in the acceptable codes \(statusRule).", .passed))
            } else {
                lines.append(Line("Status \(code) is not in the acceptable codes \(statusRule): error -1011 (bad server response).", .failed))
            }
        } else {
            lines.append(Line("Any status is acceptable.", .passed))
        }
        let acceptable = members.isEmpty ? serializer.acceptableContentTypes : Self.union(members.map(\.acceptableContentTypes))
        let mimeType = response.mimeType
        let bodiless = data.isEmpty && (mimeType == nil || [204, 205].contains(code) || request?.method == "HEAD")
        if let acceptable {
            let list = acceptable.sorted().map { "`\($0)`" }.joined(separator: ", ")
            if bodiless {
                lines.append(Line("No body to judge (no body with no type, a 204 or 205, or a HEAD request): the content type is not checked.", .passed))
            } else if let mimeType, acceptable.contains(mimeType) {
                lines.append(Line("Content type `\(mimeType)` is acceptable (\(list)).", .passed))
            } else {
                lines.append(Line("Content type \(mimeType.map { "`\($0)`" } ?? "(none)") is not acceptable (\(list)): error -1016 (cannot decode content data).", .failed))
                if !members.isEmpty {
                    lines.append(Line("Each member refused it, so none tried to decode the body.", .detail))
                }
            }
        } else {
            lines.append(Line("Any content type is acceptable.", .passed))
        }
        switch serialization.body {
        case .json: lines.append(Line("Decoded as JSON.", .detail))
        case .xml: lines.append(Line("Decoded as XML.", .detail))
        case .propertyList: lines.append(Line("Decoded as a property list.", .detail))
        case .image(let info): lines.append(Line("Read as a \(info.format.rawValue) image header, \(info.width)×\(info.height).", .detail))
        case .data: lines.append(Line("Kept as bytes: no decoder claimed the body.", .detail))
        case .none: lines.append(Line(data.isEmpty ? "No body." : "The body was not decoded.", .detail))
        }
        var steps = [Step(topic: .validation, title: "Validation", lines: lines)]

        guard let error = serialization.error else {
            steps.append(Step(topic: .errors, title: "Errors", lines: [Line("No error: the response is valid.", .passed)]))
            return Explanation(steps: steps)
        }
        var chain: [Line] = []
        let links = error.chain
        if links.count > 1 {
            chain.append(Line("\(links.count) errors, each wrapping the next as its underlying error (AFNetworking's `NSUnderlyingErrorKey`). The content type is checked first, then the status, so the status error is on top."))
        }
        for (depth, link) in links.enumerated() {
            let lead = depth == 0 ? "" : String(repeating: "  ", count: depth - 1) + "↳ underlying: "
            chain.append(Line("\(lead)`\(link.domain)` \(link.code): \(link.message)", .failed))
        }
        if error.hasCode(-1011, inDomain: ResponseSerializationError.domain), serialization.body != .none {
            chain.append(Line("The body still decoded: AFNetworking decodes a body whose only fault is its status, so an error page can be read.", .detail))
        }
        steps.append(Step(topic: .errors, title: "Errors", lines: chain))
        return Explanation(steps: steps)
    }

    private static func union(_ sets: [Set<String>?]) -> Set<String>? {
        var result = Set<String>()
        for set in sets {
            guard let set else { return nil }
            result.formUnion(set)
        }
        return result
    }
}
